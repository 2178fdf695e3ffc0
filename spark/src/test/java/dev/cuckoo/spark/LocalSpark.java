package dev.cuckoo.spark;

import org.apache.spark.sql.SparkSession;

/**
 * The one local Spark session of this module's tests ({@code local[2]} with one retry of a failed
 * task, small memory, no UI),
 * made on first use and shared by every test class of the JVM: starting Spark costs seconds. It
 * has the SQL functions as a SQL user gets them: through {@code spark.sql.extensions}.
 */
final class LocalSpark {
  private static SparkSession session;

  private LocalSpark() {}

  static synchronized SparkSession session() {
    if (session == null) {
      session = SparkSession.builder()
          .master("local[2,2]") // 2 threads, and a failed task is tried once more, as on a cluster
          .appName("cuckoo-spark-tests")
          .config("spark.ui.enabled", "false")
          .config("spark.sql.shuffle.partitions", "4")
          .config("spark.default.parallelism", "2")
          .config("spark.driver.memory", "512m")
          .config("spark.sql.adaptive.enabled", "false")
          .config("spark.sql.extensions", CuckooSparkExtensions.class.getName())
          .getOrCreate();
    }
    return session;
  }
}
