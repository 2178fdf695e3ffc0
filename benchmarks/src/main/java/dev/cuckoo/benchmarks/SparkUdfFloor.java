package dev.cuckoo.benchmarks;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.spark.CuckooSpark;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;

/**
 * The floors under {@link SparkBloomComparison}'s {@code df.filter} times, the same probe rows
 * through lookups that cost next to nothing: a UDF of the Bloom filter's shape that looks
 * nothing up, only reads the value Spark hands it (a {@code Long}, or a {@code String} Spark
 * decoded from its own UTF-8 bytes); and {@link CuckooSpark#mightContain} over a filter of 1,000
 * keys, whose table stays in the cache. What a big filter's lookups add is its time less its
 * floor:
 *
 * <pre>{@code
 * ./mvnw -B -o -pl benchmarks verify -DskipTests -Pmeasure-spark -Dmeasure.main=SparkUdfFloor \
 *     -Dmeasure.keys=100000000 -Dmeasure.partitions=16
 * }</pre>
 */
public final class SparkUdfFloor {
  private SparkUdfFloor() {}

  /**
   * @param args N, then the source partitions, then the key types ({@code long,string})
   */
  public static void main(String[] args) {
    long n = Long.parseLong(args[0]);
    int partitions = Integer.parseInt(args[1]);
    String[] types = (args.length > 2 ? args[2] : "long,string").split(",", -1);
    SparkSession spark = SparkSession.builder().master("local[2]").appName("UDF floor")
        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "8").getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    out.println("keys\tUDF floor ms (fastest of " + SparkBloomComparison.PASSES + ")\trows kept"
        + "\tcuckoo floor ms\trows kept");
    for (String keys : types) {
      long[] floor = floor(spark, keys, n, partitions, SparkBloomComparison.PASSES);
      long[] cuckoo = cuckooFloor(spark, keys, n, partitions, SparkBloomComparison.PASSES);
      out.println(keys + "\t" + floor[0] + "\t" + floor[1] + "\t" + cuckoo[0] + "\t" + cuckoo[1]);
    }
    spark.stop();
  }

  /**
   * Runs the probe of {@link SparkBloomComparison} at size {@code n} through the floor UDF.
   *
   * @return the fastest pass in milliseconds, and the rows the UDF kept (those whose value's
   *     {@code hashCode} is a multiple of 8, about one in 8: a check that it read every value)
   */
  static long[] floor(SparkSession spark, String keys, long n, int partitions, int passes) {
    Dataset<Row> probe = SparkBloomComparison.keys(spark, keys, n / 2, n / 2 + n, partitions);
    // The answer depends on the value, so that Spark must convert it and the JIT must read it.
    UDF1<Object, Boolean> touch = v -> v != null && (v.hashCode() & 7) == 0;
    Column hit = functions.udf(touch, DataTypes.BooleanType).asNonNullable().apply(functions.col("k"));
    return fastest(probe, hit, passes);
  }

  /** Keys in the cuckoo floor's filter: the first of the probe's present keys. */
  static final int SMALL_FILTER_KEYS = 1000;

  /**
   * Runs the probe of {@link SparkBloomComparison} at size {@code n} through {@link
   * CuckooSpark#mightContain} over a filter of the probe's first {@value #SMALL_FILTER_KEYS}
   * keys.
   *
   * @return the fastest pass in milliseconds, and the rows kept: those keys, and the false
   *     positives among the others (0.1% of them)
   */
  static long[] cuckooFloor(SparkSession spark, String keys, long n, int partitions, int passes) {
    Dataset<Row> probe = SparkBloomComparison.keys(spark, keys, n / 2, n / 2 + n, partitions);
    CuckooFilter small = CuckooFilters.create("classic?capacity=" + SMALL_FILTER_KEYS + "&targetFpp=0.001");
    for (long id = n / 2; id < n / 2 + SMALL_FILTER_KEYS; id++) {
      if (keys.equals("long")) {
        small.add(id ^ (id << 37)); // SparkBloomComparison.keys' bijection
      } else {
        small.add("key-" + id);
      }
    }
    return fastest(probe, CuckooSpark.mightContain(small, functions.col("k")), passes);
  }

  private static long[] fastest(Dataset<Row> probe, Column hit, int passes) {
    long best = Long.MAX_VALUE;
    long kept = 0;
    for (int i = 0; i < passes; i++) {
      long t0 = System.nanoTime();
      kept = probe.filter(hit).count();
      best = Math.min(best, (System.nanoTime() - t0) / 1_000_000);
    }
    return new long[] {best, kept};
  }
}
