package dev.cuckoo.benchmarks;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.util.ArrayList;
import java.util.List;
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
 * Building one filter from a list of string keys: a loop of {@code add}, the same keys collected
 * by {@link CuckooFilters#toFilter(String)} from a sequential stream, and from a parallel one
 * (each of the common pool's threads fills its own filter, and the filters are merged).
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar ParallelBuildBenchmark -p keys=1000000 \
 *     -jvmArgsAppend -Djava.util.concurrent.ForkJoinPool.common.parallelism=2
 * }</pre>
 *
 * <p>On a machine of {@code n} cores a parallel stream runs on {@code n} threads (the caller and
 * {@code n - 1} of the common pool's); each thread's filter takes the config's whole memory
 * while the stream runs.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx6g"})
@State(Scope.Benchmark)
public class ParallelBuildBenchmark {
  /** The variant and its shape; the capacity is added. */
  @Param({"classic?fingerprintBits=12", "expandable?targetFpp=0.001"})
  public String config;

  /** The keys, and the filter's capacity. */
  @Param({"1000000"})
  public int keys;

  String configWithCapacity;
  List<String> list;

  @Setup(Level.Trial)
  public void setUp() {
    configWithCapacity = config + "&capacity=" + keys;
    long[] numbers = Keys.distinct(keys, 1);
    list = new ArrayList<>(keys);
    for (long k : numbers) {
      list.add("user:" + Long.toHexString(k));
    }
  }

  @Benchmark
  public CuckooFilter loop() {
    CuckooFilter f = CuckooFilters.create(configWithCapacity);
    for (String k : list) {
      f.add(k);
    }
    return f;
  }

  @Benchmark
  public CuckooFilter sequentialCollect() {
    return list.stream().collect(CuckooFilters.toFilter(configWithCapacity));
  }

  @Benchmark
  public CuckooFilter parallelCollect() {
    return list.parallelStream().collect(CuckooFilters.toFilter(configWithCapacity));
  }
}
