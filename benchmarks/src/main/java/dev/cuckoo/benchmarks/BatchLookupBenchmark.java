package dev.cuckoo.benchmarks;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
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

/**
 * Looking up a block of 1,024 keys: a loop of {@code mightContain} against one call of {@code
 * mightContainAll}, half the keys present, on a filter filled to its capacity.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar BatchLookupBenchmark -p size=10000000
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 6, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx12g", "-XX:+UseParallelGC"})
@State(Scope.Benchmark)
public class BatchLookupBenchmark {
  static final int BLOCK = 1024;

  @Param({"classic?fingerprintBits=16", "classic?fingerprintBits=8"})
  public String config;

  @Param({"10000000"})
  public int size;

  CuckooFilter filter;
  /** Blocks of probes, half present and half absent. */
  long[][] blocks;
  boolean[] results = new boolean[BLOCK];
  int next;

  @Setup(Level.Trial)
  public void setUp() {
    filter = CuckooFilters.create(config + "&capacity=" + size);
    long[] present = Keys.distinct(size, 1);
    filter.addAll(present);
    long[] absent = Keys.distinct(size, 2);
    blocks = new long[size / BLOCK][BLOCK];
    for (int i = 0; i < blocks.length * BLOCK; i++) {
      blocks[i / BLOCK][i % BLOCK] = (i & 1) == 0 ? present[i] : absent[i];
    }
  }

  private long[] block() {
    long[] b = blocks[next];
    next = next + 1 == blocks.length ? 0 : next + 1;
    return b;
  }

  @Benchmark
  @OperationsPerInvocation(BLOCK)
  public int loop() {
    long[] keys = block();
    int found = 0;
    for (int i = 0; i < BLOCK; i++) {
      boolean r = filter.mightContain(keys[i]);
      results[i] = r;
      found += r ? 1 : 0;
    }
    return found;
  }

  @Benchmark
  @OperationsPerInvocation(BLOCK)
  public int batch() {
    return filter.mightContainAll(block(), results);
  }
}
