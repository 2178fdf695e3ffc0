package dev.cuckoo.benchmarks;

import java.util.SplittableRandom;
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
 * Every contender (our variants' configs and the peer libraries, behind {@link FilterAdapter})
 * on the same operations: insert to capacity, positive and negative lookup, a read-mostly mix,
 * and remove; {@code long} or 16-byte {@code byte[]} keys; filters sized for {@code size} keys.
 *
 * <p>Run everything installed, with results as JSON, through {@link RunBenchmarks} (it skips the
 * combinations a peer cannot do, such as byte keys for FastFilter or removal from a Bloom
 * filter), or one contender directly:
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.cuckoo.benchmarks.RunBenchmarks --size 10M
 * java -jar benchmarks/target/benchmarks.jar ContenderBenchmark.positiveLookup \
 *     -p contender='classic?fingerprintBits=16' -p size=10000000 -p keys=long -rf json
 * }</pre>
 *
 * <p>Operations that change the filter work in blocks of {@value #BLOCK} keys per invocation;
 * the untimed per-invocation setup replaces a full filter with a fresh one (insert, mixed) or puts
 * back the keys the previous block removed (remove), so each score is the cost of the operation
 * alone, averaged over fills from empty to capacity.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx16g", "-XX:+UseParallelGC"})
public class ContenderBenchmark {
  /** Keys per invocation of the operations that change the filter. */
  static final int BLOCK = 1024;

  /** The contender, its keys, and a filter holding {@code size} of them. */
  @State(Scope.Thread)
  public static class Workload {
    @Param({
      "classic?fingerprintBits=8", "classic?fingerprintBits=12", "classic?fingerprintBits=16",
      "semi-sorted?fingerprintBits=16", "scalable",
      "fastfilter/Cuckoo8", "fastfilter/Cuckoo16", "fastfilter/CuckooPlus8", "fastfilter/CuckooPlus16",
      "cuckoofilter4j?fpp=0.002", "guava-bloom?fpp=0.03", "guava-bloom?fpp=0.002", "guava-bloom?fpp=1.0E-4"
    })
    public String contender;

    @Param({"1000000", "10000000"})
    public int size;

    /** {@code long} keys, or {@code bytes}: 16-byte arrays. */
    @Param({"long", "bytes"})
    public String keys;

    Contender c;
    KeySet present;
    KeySet absent;
    KeySet fresh;
    FilterAdapter full;
    /** Keys {@link #full} refused; a peer that drops an item when full may then miss as many. */
    int refused;
    int cursor;
    int blockCursor;

    @Setup(Level.Trial)
    public void setUp() {
      c = Contenders.named(contender);
      boolean bytes = keys.equals("bytes");
      full = c.create(size);
      if (bytes && !full.supportsBytes()) {
        throw new UnsupportedOperationException(contender + " takes long keys only");
      }
      present = new KeySet(size, 1, bytes);
      absent = new KeySet(size, 2, bytes);
      fresh = new KeySet(size, 3, bytes);
      for (int i = 0; i < size; i++) {
        refused += present.add(full, i) ? 0 : 1;
      }
    }

    int next() {
      int i = cursor;
      cursor = i + 1 == size ? 0 : i + 1;
      return i;
    }

    /** @return the first key of the next block of {@value #BLOCK}, cycling through the keys */
    int nextBlock() {
      int start = blockCursor;
      blockCursor = start + 2 * BLOCK > size ? 0 : start + BLOCK;
      return start;
    }
  }

  /** A filter being filled from empty; replaced by a fresh one when full (untimed). */
  @State(Scope.Thread)
  public static class Filling {
    FilterAdapter filter;
    int fill;
    byte[] mix;

    @Setup(Level.Trial)
    public void setUp(Workload w) {
      filter = w.c.create(w.size);
      SplittableRandom r = new SplittableRandom(42);
      mix = new byte[BLOCK];
      for (int i = 0; i < BLOCK; i++) {
        int x = r.nextInt(100);
        mix[i] = (byte) (x < 45 ? 0 : x < 90 ? 1 : 2); // 45% stored, 45% absent, 10% adds
      }
    }

    @Setup(Level.Invocation)
    public void renewWhenFull(Workload w) {
      if (fill + BLOCK > w.size) {
        filter = w.c.create(w.size);
        fill = 0;
      }
    }
  }

  /** Which block the last remove took out; put back before the next one (untimed). */
  @State(Scope.Thread)
  public static class Removal {
    int nextBlock;
    int removed = -1;

    @Setup(Level.Invocation)
    public void putBack(Workload w) {
      if (removed >= 0) {
        for (int i = removed; i < removed + BLOCK; i++) {
          w.present.add(w.full, i);
        }
        removed = -1;
      }
    }
  }

  @Benchmark
  @OperationsPerInvocation(BLOCK)
  public void insert(Workload w, Filling s, Blackhole bh) {
    FilterAdapter f = s.filter;
    int start = s.fill;
    for (int i = start; i < start + BLOCK; i++) {
      bh.consume(w.fresh.add(f, i));
    }
    s.fill = start + BLOCK;
  }

  /**
   * Looks up a block of stored keys, the next {@value #BLOCK} in the key set's order.
   *
   * <p>Lookups run in a loop of their own, as a stream of queries does, rather than one per
   * invocation: at 10M keys a lookup waits for two cache misses, the processor overlaps the
   * misses of as many lookups as its reorder window holds instructions for, and the harness's
   * own instructions around each single lookup (about 30) would take a third of that window for
   * every contender alike (docs/results.md, "Lookups: one per invocation or a block").
   *
   * @return how many of the block were found: all of them, unless the filter refused some
   */
  @Benchmark
  @OperationsPerInvocation(BLOCK)
  public int positiveLookup(Workload w) {
    return w.present.countFound(w.full, w.nextBlock());
  }

  /**
   * Looks up a block of keys never added; see {@link #positiveLookup}.
   *
   * @return how many of the block were reported present: the false positives
   */
  @Benchmark
  @OperationsPerInvocation(BLOCK)
  public int negativeLookup(Workload w) {
    return w.absent.countFound(w.full, w.nextBlock());
  }

  /** A read-mostly mix on a filter filling up: 45% stored keys, 45% absent keys, 10% adds. */
  @Benchmark
  @OperationsPerInvocation(BLOCK)
  public void mixed(Workload w, Filling s, Blackhole bh) {
    FilterAdapter f = s.filter;
    int base = w.next();
    for (int i = 0; i < BLOCK; i++) {
      switch (s.mix[i]) {
        case 0 -> bh.consume(w.fresh.mightContain(f, (base + i) % Math.max(1, s.fill)));
        case 1 -> bh.consume(w.absent.mightContain(f, (base + i) % w.size));
        default -> bh.consume(w.fresh.add(f, s.fill++));
      }
    }
  }

  /** Removes a block of stored keys; the untimed setup puts them back before the next block. */
  @Benchmark
  @OperationsPerInvocation(BLOCK)
  public void remove(Workload w, Removal s, Blackhole bh) {
    int start = s.nextBlock * BLOCK;
    s.nextBlock = (s.nextBlock + 1) % (w.size / BLOCK);
    for (int i = start; i < start + BLOCK; i++) {
      bh.consume(w.present.remove(w.full, i));
    }
    s.removed = start;
  }

  /** Keys in either form, generated once per trial. */
  static final class KeySet {
    final long[] longs;
    final byte[][] arrays;

    KeySet(int n, int stream, boolean bytes) {
      longs = Keys.distinct(n, stream);
      if (bytes) {
        arrays = new byte[n][];
        for (int i = 0; i < n; i++) {
          byte[] b = new byte[16];
          long a = longs[i];
          long z = Keys.mix(a);
          for (int j = 0; j < 8; j++) {
            b[j] = (byte) (a >>> (8 * j));
            b[8 + j] = (byte) (z >>> (8 * j));
          }
          arrays[i] = b;
        }
      } else {
        arrays = null;
      }
    }

    boolean add(FilterAdapter f, int i) {
      return arrays == null ? f.add(longs[i]) : f.add(arrays[i]);
    }

    boolean mightContain(FilterAdapter f, int i) {
      return arrays == null ? f.mightContain(longs[i]) : f.mightContain(arrays[i]);
    }

    /** @return how many of the {@value #BLOCK} keys from {@code from} on the filter reports */
    int countFound(FilterAdapter f, int from) {
      int found = 0;
      if (arrays == null) {
        for (int i = from; i < from + BLOCK; i++) {
          found += f.mightContain(longs[i]) ? 1 : 0;
        }
      } else {
        for (int i = from; i < from + BLOCK; i++) {
          found += f.mightContain(arrays[i]) ? 1 : 0;
        }
      }
      return found;
    }

    boolean remove(FilterAdapter f, int i) {
      return arrays == null ? f.remove(longs[i]) : f.remove(arrays[i]);
    }
  }
}
