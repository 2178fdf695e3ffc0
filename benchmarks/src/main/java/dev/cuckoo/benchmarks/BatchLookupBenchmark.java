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
 * mightContainAll}, half the keys present, on a filter filled to its capacity; and the memory
 * floor beside them, {@link #floor}: two random reads per key in a table of the filter's size,
 * with nothing else a lookup does but a one-multiply hash, which no filter reading two buckets
 * can beat.
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
  /** As many bytes as the filter holds, random, for {@link #floor}. */
  long[] floorTable;

  @Setup(Level.Trial)
  public void setUp() {
    filter = CuckooFilters.create(config + "&capacity=" + size);
    long[] present = Keys.distinct(size, 1);
    filter.addAll(present);
    long[] absent = Keys.distinct(size, 2);
    floorTable = new long[(int) Math.max(2, filter.sizeInBytes() / Long.BYTES)];
    java.util.SplittableRandom r = new java.util.SplittableRandom(3);
    for (int i = 0; i < floorTable.length; i++) {
      floorTable[i] = r.nextLong();
    }
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

  /**
   * Two independent reads at random places in a table of the filter's size per key (positions by
   * multiply-high reduction of two halves of one multiply), combined into a yes or no: what a
   * lookup costs in memory alone.
   */
  @Benchmark
  @OperationsPerInvocation(BLOCK)
  public int floor() {
    long[] keys = block();
    long[] table = floorTable;
    long words = table.length;
    int found = 0;
    for (int i = 0; i < BLOCK; i++) {
      boolean r = floorRead(table, words, keys[i]);
      results[i] = r;
      found += r ? 1 : 0;
    }
    return found;
  }

  static boolean floorRead(long[] table, long words, long key) {
    long h = key * 0x9E3779B97F4A7C15L;
    long a = table[(int) Math.multiplyHigh(h >>> 1, words << 1)];
    long b = table[(int) Math.multiplyHigh(Long.rotateLeft(h, 32) >>> 1, words << 1)];
    return ((a ^ b) & 1) != 0;
  }
}
