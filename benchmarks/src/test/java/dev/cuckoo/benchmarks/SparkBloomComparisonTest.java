package dev.cuckoo.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link SparkBloomComparison} computes the right answers, at a tiny scale. */
class SparkBloomComparisonTest {
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = SparkSession.builder().master("local[2]").appName("comparison-test").config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2").getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  @Test
  void everyContenderFindsEveryKeyAndMeasuresItsFpp() {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    List<SparkBloomComparison.Result> results = SparkBloomComparison.run(spark, 20_000, 3, List.of("long", "string"), 1, 1,
        new PrintStream(printed, true, StandardCharsets.UTF_8));
    // 2 key types x 2 FPPs x (classic, semi-sorted, spark-bloom), and spark-bloom-binary for strings
    assertEquals(14, results.size());
    for (SparkBloomComparison.Result r : results) {
      assertEquals(0, r.falseNegatives(), r.line());
      assertTrue(r.bytes() > 0 && r.taskBytes() > 0, r.line());
      // 10,000 absent keys at a target of 0.1% or 0.01%: a handful of false positives at most.
      assertTrue(r.measuredFpp() < 10 * r.targetFpp() + 0.001, r.line());
      assertTrue(r.expectedFpp() > 0 && r.expectedFpp() < 2 * r.targetFpp(), r.line());
    }
    assertEquals(14, printed.toString(StandardCharsets.UTF_8).lines().count());
  }

  /**
   * The floor's UDF reads every value Spark hands it: it keeps exactly those it should; the
   * cuckoo floor's small filter keeps its own keys.
   */
  @Test
  void theFloorReadsEveryValue() {
    long n = 20_000;
    for (String keys : List.of("long", "string")) {
      long expected = SparkBloomComparison.keys(spark, keys, n / 2, n / 2 + n, 3).collectAsList().stream()
          .map(row -> keys.equals("long") ? (Object) row.getLong(1) : row.getString(1))
          .filter(v -> (v.hashCode() & 7) == 0).count();
      assertTrue(expected > n / 16, "about one value in 8 is kept: " + expected);
      assertEquals(expected, SparkUdfFloor.floor(spark, keys, n, 3, 1)[1], keys);
      // The small filter keeps its keys and, of the other 19,000 probe keys, a few false positives.
      long kept = SparkUdfFloor.cuckooFloor(spark, keys, n, 3, 1)[1];
      assertTrue(kept >= SparkUdfFloor.SMALL_FILTER_KEYS && kept < SparkUdfFloor.SMALL_FILTER_KEYS + 100,
          keys + ": " + kept);
    }
  }
}
