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
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Add, positive lookup and negative lookup for any config string, with random {@code long} keys
 * and a filter sized for them.
 *
 * <pre>{@code
 * ./mvnw -B -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar FilterBenchmark \
 *     -p config='classic?capacity=10000000&fingerprintBits=16'
 * }</pre>
 *
 * <p>{@code insert} reports the mean cost of an add over fills from empty to capacity: each
 * invocation adds the next key, and the filter is cleared when the keys run out.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx12g"})
public class FilterBenchmark {

  /** The filter's config string; its capacity is the number of keys. */
  @State(Scope.Benchmark)
  public static class Workload {
    @Param({"classic?capacity=1000000"})
    public String config;

    CuckooFilter filter;
    long[] present;
    long[] absent;

    @Setup(Level.Trial)
    public void setUp() {
      filter = CuckooFilters.create(config);
      int n = (int) Math.min(filter.spec().capacity().getAsLong(), Integer.MAX_VALUE - 8);
      present = Keys.distinct(n, 1);
      absent = Keys.distinct(n, 2);
      int stored = 0;
      for (long k : present) {
        if (!filter.add(k)) {
          break;
        }
        stored++;
      }
      if (stored < n) {
        present = java.util.Arrays.copyOf(present, stored);
      }
    }
  }

  /** A fresh filter that each invocation adds one key to. */
  @State(Scope.Thread)
  public static class Insertion {
    CuckooFilter filter;
    long[] keys;
    int next;

    @Setup(Level.Trial)
    public void setUp(Workload w) {
      filter = CuckooFilters.create(w.config);
      keys = Keys.distinct((int) Math.min(filter.spec().capacity().getAsLong(), Integer.MAX_VALUE - 8), 3);
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

  @Benchmark
  public boolean insert(Insertion s) {
    if (s.next == s.keys.length) {
      // Amortised over a whole fill: one clear per capacity adds, about a byte per add.
      s.filter.clear();
      s.next = 0;
    }
    return s.filter.add(s.keys[s.next++]);
  }

  @Benchmark
  public boolean positiveLookup(Workload w, Cursor c) {
    return w.filter.mightContain(w.present[c.next(w.present.length)]);
  }

  @Benchmark
  public boolean negativeLookup(Workload w, Cursor c) {
    return w.filter.mightContain(w.absent[c.next(w.absent.length)]);
  }
}
