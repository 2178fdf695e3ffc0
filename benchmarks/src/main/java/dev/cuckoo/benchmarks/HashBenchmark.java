package dev.cuckoo.benchmarks;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.spi.HashStrategy;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of each installed hash on the three key forms, the first step of every filter
 * operation.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar HashBenchmark -p hash=xxh3,murmur64a
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class HashBenchmark {
  @Param({"xxh3", "xxh64", "murmur3", "murmur64a", "wyhash", "metro", "city", "farm"})
  public String hash;

  HashStrategy strategy;
  long key = 0x0123456789abcdefL;
  byte[] bytes16 = "0123456789abcdef".getBytes(StandardCharsets.UTF_8);
  String text = "user:1001:session";

  @Setup
  public void setUp() {
    strategy = CuckooFilters.hash(hash);
  }

  @Benchmark
  public long hashLong() {
    return strategy.hashLong(key++);
  }

  @Benchmark
  public long hashBytes16() {
    bytes16[0]++;
    return strategy.hashBytes(bytes16, 0, bytes16.length);
  }

  @Benchmark
  public long hashChars() {
    return strategy.hashChars(text);
  }
}
