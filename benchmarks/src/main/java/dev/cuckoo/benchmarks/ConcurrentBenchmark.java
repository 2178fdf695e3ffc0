package dev.cuckoo.benchmarks;

import dev.cuckoo.Concurrency;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What {@code concurrency=striped} costs and gives: single-threaded lookups with and without it
 * (the cost of reading under stripe versions), and the throughput of one reader thread and one
 * writer thread sharing a filter, where a filter without the option is shared the only safe way
 * it can be, behind one lock ({@code synchronized}).
 *
 * <pre>{@code
 * ./mvnw -B -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar 'ConcurrentBenchmark.(positive|negative)Lookup' \
 *     -wi 3 -i 5 -w 1s -r 1s -f 1
 * java -jar benchmarks/target/benchmarks.jar 'ConcurrentBenchmark.readWrite' -wi 3 -i 5 -w 1s -r 1s -f 1
 * }</pre>
 *
 * <p>The filter holds 90% of its capacity in keys ({@code keys} is the capacity). The writer
 * adds a key and removes the one it added a window of 5% of the capacity before, so the load
 * stays between 90% and 95%; each writer operation is one add and one remove.
 */
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx6g"})
public class ConcurrentBenchmark {

  /** The shared filter and its keys. */
  @State(Scope.Benchmark)
  public static class Shared {
    /** The variant and its width; the capacity and concurrency are added. */
    @Param({"classic?fingerprintBits=16", "semi-sorted?fingerprintBits=16"})
    public String config;

    /** {@code none} or {@code striped}. */
    @Param({"none", "striped"})
    public String concurrency;

    /** The filter's capacity. */
    @Param({"1000000", "10000000"})
    public int keys;

    CuckooFilter filter;
    /** Whether the filter must be locked by the caller: {@code concurrency=none}. */
    boolean external;
    long[] present;
    long[] absent;
    /** The keys the writer cycles through, and whether each is in the filter now. */
    long[] churn;
    boolean[] churned;
    int window;

    @Setup(Level.Trial)
    public void setUp() {
      filter = CuckooFilters.create(config + "&capacity=" + keys + "&concurrency=" + concurrency);
      external = filter.spec().concurrency().orElse(Concurrency.NONE) == Concurrency.NONE;
      present = Keys.distinct(keys / 10 * 9, 1);
      absent = Keys.distinct(keys, 2);
      window = Math.max(1, keys / 20);
      churn = Keys.distinct(2 * window, 3);
      churned = new boolean[churn.length];
      for (long k : present) {
        if (!filter.add(k)) {
          throw new IllegalStateException(filter + " refused a key at 90% of its capacity");
        }
      }
    }
  }

  /** Walks an array of keys. */
  @State(Scope.Thread)
  public static class Cursor {
    int i;

    int next(int length) {
      int j = i;
      i = j + 1 == length ? 0 : j + 1;
      return j;
    }
  }

  /** The writer's place in its cycle of keys. */
  @State(Scope.Thread)
  public static class Churn {
    long step;
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  @Threads(1)
  public boolean positiveLookup(Shared s, Cursor c) {
    return s.filter.mightContain(s.present[c.next(s.present.length)]);
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  @Threads(1)
  public boolean negativeLookup(Shared s, Cursor c) {
    return s.filter.mightContain(s.absent[c.next(s.absent.length)]);
  }

  /** The reader of the pair: positive lookups. */
  @Benchmark
  @Group("readWrite")
  @GroupThreads(1)
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  // The filter is set once, in @Setup, before any benchmark thread starts: every thread locks
  // the same object.
  @SuppressWarnings("SynchronizeOnNonFinalField")
  public boolean reader(Shared s, Cursor c) {
    long key = s.present[c.next(s.present.length)];
    if (s.external) {
      synchronized (s.filter) {
        return s.filter.mightContain(key);
      }
    }
    return s.filter.mightContain(key);
  }

  /** The writer of the pair: one add and one remove. */
  @Benchmark
  @Group("readWrite")
  @GroupThreads(1)
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  // The filter is set once, in @Setup, before any benchmark thread starts: every thread locks
  // the same object.
  @SuppressWarnings("SynchronizeOnNonFinalField")
  public boolean writer(Shared s, Churn w) {
    if (s.external) {
      synchronized (s.filter) {
        return write(s, w);
      }
    }
    return write(s, w);
  }

  /** Adds the next key of the cycle and removes the one added a window before, if it was. */
  static boolean write(Shared s, Churn w) {
    long step = w.step++;
    int length = s.churn.length;
    int in = (int) (step % length);
    int out = (int) ((step + length - s.window) % length);
    boolean added = s.filter.add(s.churn[in]);
    s.churned[in] = added;
    if (step >= s.window && s.churned[out]) {
      s.filter.remove(s.churn[out]);
      s.churned[out] = false;
    }
    return added;
  }
}
