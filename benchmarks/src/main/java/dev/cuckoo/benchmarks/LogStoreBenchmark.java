package dev.cuckoo.benchmarks;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.logstore.LogStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The log store's operations on a store of {@code keys} 20-byte keys (SHA-1 sized) with {@code
 * valueBytes}-byte values: a get that hits (one record read), a get that misses (no read: the
 * tag does not match), a put that replaces a key's value, and, beside them, a classic 12-bit
 * filter's lookup of the same absent keys, the cost a miss is measured against.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar LogStoreBenchmark -p keys=1000000
 * }</pre>
 *
 * <p>The store lives in a temporary folder on the default file system; its log is in the page
 * cache while the benchmark runs, so a hit measures the read system call and the checksum, not
 * the disk.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx4g"})
public class LogStoreBenchmark {

  /** A store of {@code keys} records, the same keys in a filter, and as many absent keys. */
  @State(Scope.Benchmark)
  public static class Workload {
    @Param({"1000000"})
    public int keys;

    @Param({"100"})
    public int valueBytes;

    Path directory;
    LogStore store;
    CuckooFilter filter;
    byte[][] present;
    byte[][] absent;
    byte[] value;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
      present = keys(keys, 1);
      absent = keys(keys, 2);
      value = new byte[valueBytes];
      directory = Files.createTempDirectory("cuckoo-logstore-bench");
      store = LogStore.open(directory);
      filter = CuckooFilters.create("classic?capacity=" + keys + "&fingerprintBits=12&hash=xxh3");
      for (byte[] k : present) {
        value[0]++;
        store.put(k, value);
        filter.add(k);
      }
      store.flush();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
      store.close();
      deleteTree(directory);
    }
  }

  /** Each thread's position in the key arrays. */
  @State(Scope.Thread)
  public static class Cursor {
    int next;

    int next(int n) {
      int i = next;
      next = i + 1 == n ? 0 : i + 1;
      return i;
    }
  }

  /** @return {@code n} distinct 20-byte keys of one stream; streams do not share keys */
  static byte[][] keys(int n, int stream) {
    SplittableRandom random = new SplittableRandom(0x5EEDL * 31 + stream);
    byte[][] keys = new byte[n][20];
    for (int i = 0; i < n; i++) {
      random.nextBytes(keys[i]);
      keys[i][0] = (byte) stream; // distinct across streams; within one, 152 random bits
    }
    return keys;
  }

  static void deleteTree(Path directory) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }

  @Benchmark
  public byte[] getHit(Workload w, Cursor c) throws IOException {
    return w.store.get(w.present[c.next(w.present.length)]);
  }

  @Benchmark
  public byte[] getMiss(Workload w, Cursor c) throws IOException {
    return w.store.get(w.absent[c.next(w.absent.length)]);
  }

  @Benchmark
  public boolean filterMiss(Workload w, Cursor c) {
    return w.filter.mightContain(w.absent[c.next(w.absent.length)]);
  }

  @Benchmark
  public void putReplace(Workload w, Cursor c) throws IOException {
    w.store.put(w.present[c.next(w.present.length)], w.value);
  }
}
