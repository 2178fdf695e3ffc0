package dev.cuckoo.benchmarks;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A filter on the heap against the same filter mapped from its file ({@code CuckooFilters.open}),
 * and adds into a heap filter against adds into a file ({@code createFile}): lookups of present and
 * absent {@code long} keys, one at a time and in blocks ({@code mightContainAll}), and adds in
 * blocks of {@value #BLOCK}. The file is in the page cache (written just before).
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar MappedBenchmark -p size=10000000 -rf json
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx8g", "-XX:+UseParallelGC"})
public class MappedBenchmark {
  static final int BLOCK = 1024;

  /** The filter's shape and size, and where its table is. */
  @State(Scope.Benchmark)
  public static class Setting {
    @Param({"classic?fingerprintBits=16", "classic?fingerprintBits=8", "classic?fingerprintBits=12"})
    public String config;

    @Param({"10000000"})
    public int size;

    /** {@code heap}, or {@code mapped}: {@code open} of its file for lookups, {@code createFile} for adds. */
    @Param({"heap", "mapped"})
    public String storage;
  }

  /** A filter of {@code size} keys, on the heap or mapped. */
  @State(Scope.Thread)
  public static class Lookups {
    Setting setting;
    CuckooFilter filter;
    long[] present;
    long[] absent;
    long[][] blocks;
    boolean[] results;
    int cursor;
    int block;
    Path file;

    @Setup(Level.Trial)
    public void setUp(Setting setting) throws IOException {
      this.setting = setting;
      present = Keys.distinct(setting.size, 1);
      absent = Keys.distinct(setting.size, 2);
      results = new boolean[BLOCK];
      blocks = new long[setting.size / BLOCK][];
      for (int b = 0; b < blocks.length; b++) {
        blocks[b] = java.util.Arrays.copyOfRange(present, b * BLOCK, (b + 1) * BLOCK);
      }
      CuckooFilter heap = CuckooFilters.create(setting.config + "&capacity=" + setting.size);
      for (long k : present) {
        heap.add(k);
      }
      if (setting.storage.equals("heap")) {
        filter = heap;
        return;
      }
      file = Files.createTempFile("mapped-benchmark", ".cuckoo");
      try (OutputStream out = Files.newOutputStream(file)) {
        heap.writeTo(out);
      }
      filter = CuckooFilters.open(file);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
      if (filter instanceof MappedFilter mapped) {
        mapped.close();
      }
      if (file != null) {
        Files.deleteIfExists(file);
      }
    }

    int next() {
      int i = cursor;
      cursor = i + 1 == setting.size ? 0 : i + 1;
      return i;
    }

    long[] nextBlock() {
      int b = block;
      block = b + 1 == blocks.length ? 0 : b + 1;
      return blocks[b];
    }
  }

  @Benchmark
  public boolean positiveLookup(Lookups s) {
    return s.filter.mightContain(s.present[s.next()]);
  }

  @Benchmark
  public boolean negativeLookup(Lookups s) {
    return s.filter.mightContain(s.absent[s.next()]);
  }

  @Benchmark
  @OperationsPerInvocation(BLOCK)
  public int positiveLookupAll(Lookups s) {
    return s.filter.mightContainAll(s.nextBlock(), s.results);
  }

  /** Adds into an empty filter of {@code size}, on the heap or in a file, renewed when full. */
  @State(Scope.Thread)
  public static class Adds {
    Setting setting;
    long[] keys;
    CuckooFilter filter;
    int fill;
    Path file;

    @Setup(Level.Trial)
    public void setUp(Setting setting) throws IOException {
      this.setting = setting;
      keys = Keys.distinct(setting.size, 3);
      renew();
    }

    void renew() throws IOException {
      if (filter instanceof MappedFilter mapped) {
        mapped.close();
        Files.deleteIfExists(file);
      }
      fill = 0;
      if (setting.storage.equals("heap")) {
        filter = CuckooFilters.create(setting.config + "&capacity=" + setting.size);
      } else {
        file = Files.createTempFile("mapped-benchmark", ".cuckoo");
        Files.delete(file);
        filter = CuckooFilters.createFile(setting.config + "&capacity=" + setting.size, file);
      }
    }

    @Setup(Level.Invocation)
    public void renewWhenFull() throws IOException {
      if (fill + BLOCK > setting.size) {
        renew();
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
      if (filter instanceof MappedFilter mapped) {
        mapped.close();
        Files.deleteIfExists(file);
      }
    }
  }

  @Benchmark
  @OperationsPerInvocation(BLOCK)
  public int add(Adds s) {
    int added = 0;
    int start = s.fill;
    for (int i = start; i < start + BLOCK; i++) {
      added += s.filter.add(s.keys[i]) ? 1 : 0;
    }
    s.fill = start + BLOCK;
    return added;
  }
}
