package dev.cuckoo.benchmarks;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.spark.CuckooSpark;
import dev.cuckoo.spark.WrittenFilter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.sketch.BloomFilter;

/**
 * Cuckoo filters built and used on Spark ({@link CuckooSpark}) against Spark's own Bloom filter
 * ({@code df.stat().bloomFilter(col, n, fpp)}) in the same run, on {@code local[2]}: N distinct
 * long keys and N distinct strings, at each target FPP.
 *
 * <p>For each key type, FPP and contender it prints one line: the build's wall time (a Spark job
 * from the generated keys to the filter on the driver; the faster of {@value #BUILDS}); the filter's bytes (the table, or the
 * Bloom filter's bit array); the task memory (below); the wall time of {@code
 * df.filter(mightContain).count()} over N rows, half of them keys (the cuckoo filter through
 * {@link CuckooSpark#mightContain}, the Bloom filter broadcast the same way to a UDF calling {@code
 * mightContainLong}/{@code mightContainString}, and for strings also {@code mightContainBinary}
 * of the column cast to binary; the fastest of {@value #PASSES}); the FPP measured on the N/2 absent keys of that
 * pass against the filter's {@code expectedFpp()}; and the false negatives over all N keys.
 * {@link #SQL_CONTENDERS} add the SQL forms and Spark's Bloom filter as its default caps leave it.
 *
 * <p>Task memory: what one build task must hold at once, from the sizes involved, as Spark does
 * not measure the objects a task makes. A cuckoo build task holds one shard's table and its
 * hashes (8 bytes a key, its share of N); a Bloom-filter task holds a whole bit array, and the
 * merge on the driver two. The heap column is measured: the sum of the JVM's heap pools' peaks
 * while the build ran (after a GC before it), driver and both task threads together, an upper
 * bound on what the build held at once.
 *
 * <pre>{@code
 * ./mvnw -B -q -pl benchmarks -am verify -DskipTests -Pmeasure-spark -Dmeasure.keys=10000000
 * ./mvnw -B -q -pl benchmarks -am verify -DskipTests -Pmeasure-spark -Dmeasure.keys=2000000 \
 *     -Dmeasure.types=string -Dmeasure.fpps=0.001 \
 *     -Dmeasure.contenders=classic,classic-sql,spark-bloom,spark-bloom-capped
 * }</pre>
 */
public final class SparkBloomComparison {
  /** Target FPPs compared. */
  static final double[] FPPS = {0.001, 0.0001};

  private SparkBloomComparison() {}

  /** One contender's figures at one key type and FPP. */
  record Result(String keys, double targetFpp, String contender, long buildMillis, long bytes, long taskBytes,
      long heapPeakBytes, long lookupMillis, double measuredFpp, double expectedFpp, long falseNegatives) {
    String line() {
      return String.format(Locale.ROOT, "%s\t%.4f%%\t%s\t%d\t%d\t%d\t%d\t%d\t%.5f%%\t%.5f%%\t%d", keys,
          targetFpp * 100, contender, buildMillis, bytes, taskBytes, heapPeakBytes, lookupMillis, measuredFpp * 100,
          expectedFpp * 100, falseNegatives);
    }
  }

  /** The settings that cap Spark's Bloom filters: their bits, and the items their shape is for. */
  static final String MAX_BLOOM_BITS = "spark.sql.optimizer.runtime.bloomFilter.maxNumBits";
  static final String MAX_BLOOM_ITEMS = "spark.sql.optimizer.runtime.bloomFilter.maxNumItems";
  /** Builds of each contender in a measurement; the fastest is reported. */
  static final int BUILDS = 2;
  /** Filter passes of each contender in a measurement; the fastest is reported. */
  static final int PASSES = 3;

  static final String HEADER = "keys\ttarget\tcontender\tbuild ms\tbytes\ttask bytes\theap peak\tfilter ms"
      + "\tmeasured fpp\texpected fpp\tfalse negatives";

  /** The contenders, in the order they run. */
  static final List<String> CONTENDERS = List.of("classic", "semi-sorted", "spark-bloom");
  /**
   * The SQL forms and Spark's capped Bloom filter, named on the command line: {@code classic-sql}
   * (a SQL {@code cuckoo_build} looked up by {@code cuckoo_might_contain} of a scalar subquery,
   * then a file {@code CuckooSpark.write} wrote, read through {@code binaryFile}) and {@code
   * spark-bloom-capped} (Spark's Bloom filter with its default caps: the bytes and FPP a user gets).
   */
  static final List<String> SQL_CONTENDERS = List.of("classic-sql", "spark-bloom-capped");
  /** Set to false in a contender's own JVM, where main measures instead of forking. */
  static final String FORK = "comparison.fork";
  private static final String RESULT = "result\t";

  /**
   * Runs each contender at each key type and FPP in a JVM of its own (with this JVM's options
   * and class path), as JMH forks: a JVM that has run one filter's lookups compiles the next
   * one's call sites for both, which slowed a 13-bit {@code classic} lookup from 70 to 100 ns
   * after other filters ran in the same JVM. {@code -Dcomparison.fork=false} runs everything in
   * this JVM instead; {@code -Dcomparison.builds} and {@code -Dcomparison.passes} change how many
   * builds and filter passes each contender times (default {@value #BUILDS} and {@value #PASSES}).
   *
   * @param args N (default 10,000,000), then the source partitions (default 8), then the key
   *     types, {@code long,string} by default, then the contenders (default all), then the
   *     target FPPs (default 0.001,0.0001)
   */
  public static void main(String[] args) throws IOException, InterruptedException {
    long n = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    List<String> keyTypes = List.of((args.length > 2 ? args[2] : "long,string").split(",", -1));
    List<String> contenders = args.length > 3 ? List.of(args[3].split(",", -1)) : CONTENDERS;
    List<Double> fpps = args.length > 4 ? Arrays.stream(args[4].split(",", -1)).map(Double::valueOf).toList()
        : Arrays.stream(FPPS).boxed().toList();
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    if (!Boolean.parseBoolean(System.getProperty(FORK, "true"))) {
      SparkSession spark = SparkSession.builder().master("local[2]").appName("cuckoo vs Spark bloomFilter")
          .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "8").getOrCreate();
      spark.sparkContext().setLogLevel("WARN");
      PrintStream tagged = new PrintStream(out, true, StandardCharsets.UTF_8) {
        @Override
        public void println(String line) {
          super.println(RESULT + line);
        }
      };
      run(spark, n, partitions, keyTypes, fpps, contenders, Integer.getInteger("comparison.builds", BUILDS),
          Integer.getInteger("comparison.passes", PASSES), tagged);
      spark.stop();
      return;
    }
    out.println("N=" + n + ", local[2], " + partitions + " source partitions, Spark "
        + org.apache.spark.package$.MODULE$.SPARK_VERSION() + ", each contender in a JVM of its own");
    out.println(HEADER);
    List<String> jvmOptions = new ArrayList<>(ManagementFactory.getRuntimeMXBean().getInputArguments());
    jvmOptions.add("-D" + FORK + "=false");
    for (String keys : keyTypes) {
      for (double fpp : fpps) {
        for (String contender : contenders) {
          for (String line : Compare.fork(SparkBloomComparison.class, jvmOptions, RESULT, progress -> {},
              Long.toString(n), Integer.toString(partitions), keys, contender, Double.toString(fpp))) {
            out.println(line.substring(RESULT.length()));
          }
        }
      }
    }
  }

  /** Runs every comparison in this JVM, printing each line as it is measured; returns them all. */
  static List<Result> run(SparkSession spark, long n, int partitions, List<String> keyTypes, int builds, int passes,
      PrintStream out) {
    return run(spark, n, partitions, keyTypes, Arrays.stream(FPPS).boxed().toList(), CONTENDERS, builds, passes, out);
  }

  static List<Result> run(SparkSession spark, long n, int partitions, List<String> keyTypes, List<Double> fpps,
      List<String> contenders, int builds, int passes, PrintStream out) {
    // Spark 4 builds df.stat().bloomFilter with the aggregate its optimizer injects, which caps the
    // bit array (64M bits by default) and the item count it sizes the hash functions for (4M):
    // past 4M keys it would quietly give a filter of another shape, of a higher FPP than asked
    // (11% at 10M keys and 0.1% with both caps, 0.8% with the items' alone). Lifted, it builds
    // what is asked.
    spark.conf().set(MAX_BLOOM_BITS, Long.toString(1L << 35));
    spark.conf().set(MAX_BLOOM_ITEMS, Long.toString(1L << 40));
    List<Result> results = new ArrayList<>();
    for (String keys : keyTypes) {
      Dataset<Row> data = keys(spark, keys, 0, n, partitions);
      Dataset<Row> probe = keys(spark, keys, n / 2, n / 2 + n, partitions);
      for (double fpp : fpps) {
        for (String contender : contenders) {
          List<Result> rs = switch (contender) {
            case "spark-bloom" -> bloom(spark, keys, fpp, n, data, probe, builds, passes, false);
            case "spark-bloom-capped" -> bloom(spark, keys, fpp, n, data, probe, builds, passes, true);
            case "classic-sql" -> sqlCuckoo(spark, keys, "classic", fpp, n, data, probe, builds, passes);
            default -> List.of(cuckoo(keys, contender, fpp, n, data, probe, builds, passes));
          };
          for (Result r : rs) {
            out.println(r.line());
            results.add(r);
          }
        }
      }
    }
    return results;
  }

  /**
   * Keys from {@code from} (inclusive) to {@code to}: longs spread by a bijection ({@code id ^ (id
   * << 37)}: bit operations, which ANSI SQL does not check for overflow), or strings.
   */
  static Dataset<Row> keys(SparkSession spark, String keys, long from, long to, int partitions) {
    Dataset<Row> ids = spark.range(from, to, 1, partitions).toDF("id");
    Column key = keys.equals("long")
        ? functions.col("id").bitwiseXOR(functions.shiftleft(functions.col("id"), 37))
        : functions.concat(functions.lit("key-"), functions.col("id").cast(DataTypes.StringType));
    return ids.select(functions.col("id"), key.as("k"));
  }

  private static Result cuckoo(String keys, String variant, double fpp, long n, Dataset<Row> data,
      Dataset<Row> probe, int builds, int passes) {
    String config = variant + "?capacity=" + n + "&targetFpp=" + fpp;
    Build<CuckooFilter> build = Build.fastest(builds, () -> CuckooSpark.build(data, "k", config));
    CuckooFilter filter = build.filter;
    int shards = Integer.parseInt(filter.spec().option("shards").orElse("1"));
    long taskBytes = filter.sizeInBytes() / shards + 8 * ((n + shards - 1) / shards);
    Column hit = CuckooSpark.mightContain(filter, functions.col("k"));
    return lookups(keys, fpp, variant, build.millis, filter.sizeInBytes(), taskBytes, build.heapPeak,
        filter.expectedFpp(),
        n, data, probe, hit, passes);
  }

  /**
   * The SQL forms of a cuckoo filter, as a SQL user writes them: the filter built by the {@code
   * cuckoo_build} aggregate (its build time) and given to {@code cuckoo_might_contain} as a
   * scalar subquery over a one-row view of its bytes ({@code -sql-scalar}); then the same config
   * written by {@code CuckooSpark.write} (its time) and read through Spark's {@code binaryFile}
   * source ({@code -sql-file}). The join form ({@code FROM t, f WHERE cuckoo_might_contain(f.bytes,
   * t.k)}) is refused at analysis and has no line.
   */
  private static List<Result> sqlCuckoo(SparkSession spark, String keys, String variant, double fpp, long n,
      Dataset<Row> data, Dataset<Row> probe, int builds, int passes) {
    CuckooSpark.register(spark);
    String config = variant + "?capacity=" + n + "&targetFpp=" + fpp;
    data.createOrReplaceTempView("comparison_data");
    Build<byte[]> build = Build.fastest(builds, () -> (byte[]) spark.sql("SELECT cuckoo_build(k, '" + config
        + "') FROM comparison_data").first().get(0));
    CuckooFilter filter = read(build.filter);
    spark.createDataFrame(List.of(RowFactory.create((Object) build.filter)),
        new StructType().add("bytes", DataTypes.BinaryType)).createOrReplaceTempView("comparison_filter");
    List<Result> results = new ArrayList<>();
    // The build alone in its query is planned in shards, as CuckooSpark.build: a task holds one
    // shard's table and its hashes.
    long sqlShards = Long.parseLong(filter.spec().option("shards").orElse("1"));
    results.add(lookups(keys, fpp, variant + "-sql-scalar", build.millis, filter.sizeInBytes(),
        filter.sizeInBytes() / sqlShards + 8 * ((n + sqlShards - 1) / sqlShards), build.heapPeak,
        filter.expectedFpp(), n, data, probe,
        functions.expr("cuckoo_might_contain((SELECT bytes FROM comparison_filter), k)"), passes));
    try {
      Path dir = Files.createTempDirectory("comparison-");
      String path = dir.resolve("filter.cuckoo").toUri().toString();
      Build<WrittenFilter> write = Build.fastest(builds, () -> CuckooSpark.write(data, "k", config, path, true));
      long taskBytes = filter.sizeInBytes() / write.filter.shards() + 8 * ((n + write.filter.shards() - 1)
          / write.filter.shards());
      results.add(lookups(keys, fpp, variant + "-sql-file", write.millis, filter.sizeInBytes(), taskBytes,
          write.heapPeak, filter.expectedFpp(), n, data, probe,
          functions.expr("cuckoo_might_contain((SELECT content FROM binaryFile.`" + path + "`), k)"), passes));
      Files.deleteIfExists(Path.of(java.net.URI.create(path)));
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return results;
  }

  private static CuckooFilter read(byte[] file) {
    try {
      return CuckooFilters.read(new ByteArrayInputStream(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Spark's Bloom filter, looked up from a Java UDF: for longs through {@code mightContainLong};
   * for strings twice, through {@code mightContainString} (Spark hands the UDF a {@code String})
   * and, as {@code spark-bloom-binary}, the column cast to binary through {@code
   * mightContainBinary} (the same bytes, so the same answers, without Spark's decoding of UTF-8
   * into a {@code String} that the filter encodes back): the fastest way to its lookups
   * through Spark's public API. {@code capped}: built with Spark's default caps on its bits and
   * items ({@code spark-bloom-capped}, looked up by the UDF only), so its bytes and FPP are what
   * a user gets who does not know of them; otherwise with both lifted, and checked to be the
   * filter asked for.
   */
  private static List<Result> bloom(SparkSession spark, String keys, double fpp, long n, Dataset<Row> data,
      Dataset<Row> probe, int builds, int passes, boolean capped) {
    if (capped) {
      spark.conf().unset(MAX_BLOOM_BITS);
      spark.conf().unset(MAX_BLOOM_ITEMS);
    }
    Build<BloomFilter> build;
    try {
      build = Build.fastest(builds, () -> data.stat().bloomFilter("k", n, fpp));
    } finally {
      spark.conf().set(MAX_BLOOM_BITS, Long.toString(1L << 35));
      spark.conf().set(MAX_BLOOM_ITEMS, Long.toString(1L << 40));
    }
    BloomFilter bloom = build.filter;
    if (!capped && bloom.bitSize() < BloomFilter.optimalNumOfBits(n, fpp)) {
      throw new IllegalStateException("Spark built a Bloom filter of " + bloom.bitSize() + " bits, fewer than the "
          + BloomFilter.optimalNumOfBits(n, fpp) + " asked for: check " + MAX_BLOOM_BITS);
    }
    if (!capped && bloom.expectedFpp() > 2 * fpp) {
      throw new IllegalStateException("Spark built a Bloom filter whose expected FPP is " + bloom.expectedFpp()
          + " for a target of " + fpp + ": check " + MAX_BLOOM_ITEMS);
    }
    Broadcast<BloomFilter> shared = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(bloom);
    UDF1<Object, Boolean> lookup = v -> v instanceof Long l ? shared.value().mightContainLong(l)
        : shared.value().mightContainString((String) v);
    Column hit = functions.udf(lookup, DataTypes.BooleanType).asNonNullable().apply(functions.col("k"));
    long bytes = bloom.bitSize() / 8;
    List<Result> results = new ArrayList<>();
    results.add(lookups(keys, fpp, capped ? "spark-bloom-capped" : "spark-bloom", build.millis, bytes, bytes,
        build.heapPeak, bloom.expectedFpp(), n, data, probe, hit, passes));
    if (keys.equals("string") && !capped) {
      UDF1<byte[], Boolean> binary = b -> shared.value().mightContainBinary(b);
      Column binaryHit = functions.udf(binary, DataTypes.BooleanType).asNonNullable()
          .apply(functions.col("k").cast(DataTypes.BinaryType));
      results.add(lookups(keys, fpp, "spark-bloom-binary", build.millis, bytes, bytes, build.heapPeak,
          bloom.expectedFpp(), n, data, probe, binaryHit, passes));
    }
    return results;
  }

  /** The filter of the last of several builds, the fastest build's time and the highest heap peak. */
  private static final class Build<F> {
    F filter;
    long millis = Long.MAX_VALUE;
    long heapPeak;

    static <F> Build<F> fastest(int builds, Supplier<F> build) {
      Build<F> b = new Build<>();
      for (int i = 0; i < builds; i++) {
        b.filter = null; // the last build's filter may go before the next is made
        resetPeaks();
        long t0 = System.nanoTime();
        b.filter = build.get();
        b.millis = Math.min(b.millis, (System.nanoTime() - t0) / 1_000_000);
        b.heapPeak = Math.max(b.heapPeak, heapPeak());
      }
      return b;
    }
  }

  private static Result lookups(String keys, double fpp, String contender, long buildMillis, long bytes,
      long taskBytes, long heapPeak, double expectedFpp, long n, Dataset<Row> data, Dataset<Row> probe, Column hit,
      int passes) {
    long hits = 0;
    long lookupMillis = Long.MAX_VALUE;
    for (int i = 0; i < passes; i++) {
      long t0 = System.nanoTime();
      hits = probe.filter(hit).count();
      lookupMillis = Math.min(lookupMillis, (System.nanoTime() - t0) / 1_000_000);
    }
    // The probe holds keys n/2..n-1 (present) and n..3n/2-1 (absent).
    long absentHits = probe.filter(hit.and(functions.col("id").geq(n))).count();
    long absent = n - n / 2;
    long falseNegatives = data.filter(functions.not(hit)).count();
    long presentFound = hits - absentHits;
    if (falseNegatives == 0 && presentFound != n - n / 2) {
      throw new IllegalStateException(contender + " found " + presentFound + " of the probe's " + (n - n / 2)
          + " present keys, yet missed none of them over all keys: the passes disagree");
    }
    return new Result(keys, fpp, contender, buildMillis, bytes, taskBytes, heapPeak, lookupMillis,
        (double) absentHits / absent, expectedFpp, falseNegatives);
  }

  private static void resetPeaks() {
    System.gc();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      pool.resetPeakUsage();
    }
  }

  private static long heapPeak() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }
}
