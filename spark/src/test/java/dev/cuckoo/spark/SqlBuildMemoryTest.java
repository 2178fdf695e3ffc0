package dev.cuckoo.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * A SQL build bigger than its task may hold fails its query with a message that names the
 * sharded build, and the JVM lives on: run in a child JVM of a 512 MB heap, a {@code local[2]}
 * session (its execution memory some 130 MB) builds 30M distinct keys, whose hashes alone are 240
 * MB, as an aggregate (beside {@code count}, which keeps it one). Before, the aggregate's buffer
 * grew until an {@code OutOfMemoryError}, and Spark's handler for it exited the JVM (code 52).
 * The same session then builds a filter that fits, and the same 30M keys with the build alone in
 * its query and inside {@code length(...)}, both planned in shards ({@link ShardedSqlBuild}),
 * which fit.
 */
class SqlBuildMemoryTest {
  private static final String FAILED = "the build failed: ";
  private static final String FITS = "a small build fits: ";
  private static final String SHARDED = "the build alone, in shards: ";
  private static final String LENGTH = "its length, in shards: ";

  @Test
  void aBuildTooBigForItsTaskFailsTheQueryAndTheJvmLivesOn() throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx512m");
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens") || arg.startsWith("-Djdk.reflect") || arg.startsWith("-Dio.netty")) {
        command.add(arg);
      }
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(SqlBuildMemoryTest.class.getName());
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the child did not finish");
    assertEquals(0, p.exitValue(), output);
    String failed = output.lines().filter(l -> l.startsWith(FAILED)).findFirst().orElse("");
    assertTrue(failed.contains("cuckoo_build: this task would need") && failed.contains("CuckooSpark.write"),
        "the query's error says what the build needs and what to do: " + output);
    assertTrue(output.lines().anyMatch(l -> l.equals(FITS + "200000")), output);
    assertTrue(output.lines().anyMatch(l -> l.equals(SHARDED + "30000000 true")), output);
    assertTrue(output.lines().anyMatch(l -> l.equals(LENGTH + "true")), output);
  }

  /**
   * The child: one session, a build too big for a task, then one that fits; prints what each
   * gave. Spark refuses a heap under 450 MB unless told what to take as the system's memory.
   */
  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder()
        .master("local[2]")
        .appName("cuckoo-sql-build-memory")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.adaptive.enabled", "false")
        .config("spark.sql.extensions", CuckooSparkExtensions.class.getName())
        .getOrCreate();
    try {
      try {
        // Beside another aggregate the build stays an aggregate, whose task holds every hash.
        spark.sql("SELECT cuckoo_build(k, 'classic?capacity=30000000&targetFpp=0.001'), count(k)"
            + " FROM (SELECT id AS k FROM range(0, 30000000, 1, 2))").collect();
        System.out.println("the build did not fail");
      } catch (Exception e) { // SparkException, checked, thrown from Scala
        StringBuilder messages = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
          messages.append(t.getMessage()).append(" | ");
        }
        System.out.println(FAILED + messages.toString().replace('\n', ' '));
      }
      byte[] file = spark.sql("SELECT cuckoo_build(id, 'classic?targetFpp=0.001') FROM range(0, 200000)")
          .first().getAs(0);
      System.out.println(FITS + dev.cuckoo.CuckooFilters.read(new java.io.ByteArrayInputStream(file)).size());
      // The build alone, as the guide writes it, is planned in shards: no task holds all the keys.
      byte[] sharded = spark.sql("SELECT cuckoo_build(k, 'classic?capacity=30000000&targetFpp=0.001')"
          + " FROM (SELECT id AS k FROM range(0, 30000000, 1, 2))").first().getAs(0);
      dev.cuckoo.CuckooFilter big = dev.cuckoo.CuckooFilters.read(new java.io.ByteArrayInputStream(sharded));
      System.out.println(SHARDED + big.size() + " " + big.mightContain(29_999_999L));
      // The issue's own query: the build inside an expression is planned in shards too.
      long length = spark.sql("SELECT length(cuckoo_build(k, 'classic?capacity=30000000&targetFpp=0.001'))"
          + " FROM (SELECT id AS k FROM range(0, 30000000, 1, 2))").first().getInt(0);
      System.out.println(LENGTH + (length == sharded.length));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } finally {
      spark.stop();
    }
  }
}
