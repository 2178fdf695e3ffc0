package dev.cuckoo.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Filters that grew: lookups in a filter filled from a start of {@code from} keys to {@code
 * keys} keys, and adds averaged over that whole growth, for the growth contenders of {@code
 * compare --grow} ({@link GrowthWorker}: ours growing, scalable's chain, and a classic filter
 * created for all the keys, {@code presized:}, as the reference).
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar GrowthBenchmark -p keys=16777216 -rf json
 * java -jar benchmarks/target/benchmarks.jar 'GrowthBenchmark.(positive|negative)Lookup' \
 *     -p contender='expandable?fingerprintBits=16,presized:classic?fingerprintBits=16' -p keys=16777216
 * }</pre>
 *
 * <p>Lookups run in blocks of {@value #BLOCK}, as in {@link ContenderBenchmark}; {@code grow}
 * adds a block per invocation to a filter that started at {@code from} keys, and the untimed
 * setup replaces it with a new one when it holds {@code keys}, so the score is an add's cost
 * averaged over every doubling from {@code from} to {@code keys}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx8g", "-XX:+UseParallelGC"})
public class GrowthBenchmark {
  /** Keys per invocation. */
  static final int BLOCK = 1024;

  /** A filter grown to {@code keys} keys, and keys to look up. */
  @State(Scope.Thread)
  public static class Grown {
    @Param({"expandable?targetFpp=0.001", "expandable?fingerprintBits=16", "scalable?bucketSize=2&expansion=2",
        "scalable?bucketSize=4&expansion=2", "presized:classic?targetFpp=0.001", "presized:classic?fingerprintBits=16"})
    public String contender;

    @Param({"4096"})
    public long from;

    @Param({"1048576", "16777216"})
    public int keys;

    FilterAdapter filter;
    long[] stored;
    long[] absent;
    int blockCursor;

    @Setup(Level.Trial)
    public void setUp() {
      filter = GrowthWorker.create(contender, from, keys);
      stored = Keys.distinct(keys, 1);
      absent = Keys.distinct(keys, 2);
      for (long k : stored) {
        if (!filter.add(k)) {
          throw new IllegalStateException(contender + " refused a key while growing to " + keys);
        }
      }
    }

    /** @return the first key of the next block, cycling through the keys */
    int nextBlock() {
      int start = blockCursor;
      blockCursor = start + 2 * BLOCK > keys ? 0 : start + BLOCK;
      return start;
    }
  }

  /** A filter growing from {@code from} keys; replaced by a new one when it holds {@code keys} (untimed). */
  @State(Scope.Thread)
  public static class Growing {
    FilterAdapter filter;
    int fill;

    @Setup(Level.Invocation)
    public void renewWhenGrown(Grown g) {
      if (filter == null || fill + BLOCK > g.keys) {
        filter = GrowthWorker.create(g.contender, g.from, g.keys);
        fill = 0;
      }
    }
  }

  /**
   * Looks up a block of stored keys.
   *
   * @return how many were found: all of them
   */
  @Benchmark
  @OperationsPerInvocation(BLOCK)
  public int positiveLookup(Grown g) {
    return count(g.filter, g.stored, g.nextBlock());
  }

  /**
   * Looks up a block of keys never added.
   *
   * @return how many were reported present: the false positives
   */
  @Benchmark
  @OperationsPerInvocation(BLOCK)
  public int negativeLookup(Grown g) {
    return count(g.filter, g.absent, g.nextBlock());
  }

  /** Adds a block of keys to a filter on its way from {@code from} to {@code keys} keys. */
  @Benchmark
  @OperationsPerInvocation(BLOCK)
  public void grow(Grown g, Growing s, Blackhole bh) {
    FilterAdapter f = s.filter;
    int start = s.fill;
    for (int i = start; i < start + BLOCK; i++) {
      bh.consume(f.add(g.stored[i]));
    }
    s.fill = start + BLOCK;
  }

  private static int count(FilterAdapter f, long[] keys, int from) {
    int found = 0;
    for (int i = from; i < from + BLOCK; i++) {
      found += f.mightContain(keys[i]) ? 1 : 0;
    }
    return found;
  }
}
