package dev.cuckoo.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java and SQL of the Spark guide chapter, run: the block of docs/guide/spark.md under
 * {@code <!-- spark-example: java -->} must equal the region {@code // tag::java[]} .. {@code //
 * end::java[]} of this class, dedented; every block under {@code <!-- spark-example: sql -->} is
 * run as it stands (a file's path put in for the one that reads a written file), and the one
 * under {@code <!-- spark-example: refused -->} must be refused at analysis, naming its rewrite.
 * The docs module tests the other chapters' examples; this one lives here because the docs
 * module has no Spark (its class path keeps SLF4J 1.7 for Jedis, and Spark
 * brings SLF4J 2).
 */
class SparkGuideExample {
  private static final Path GUIDE = Paths.get("").toAbsolutePath().getParent().resolve("docs/guide/spark.md");
  private static final Path SOURCE = Paths.get("src/test/java/dev/cuckoo/spark/SparkGuideExample.java");
  private static SparkSession spark;

  @TempDir Path dir;

  @BeforeAll
  static void start() {
    spark = LocalSpark.session();
  }

  @Test
  void buildWriteAndFilter() throws IOException {
    String path = dir.resolve("seen-urls.cuckoo").toUri().toString();
    spark.range(0, 10_000).selectExpr("concat('https://example.com/', id) AS url", "id")
        .createOrReplaceTempView("visits");
    spark.range(0, 20_000).selectExpr("concat('https://example.com/', id) AS url", "id")
        .createOrReplaceTempView("crawl");
    // tag::java[]
    Dataset<Row> visits = spark.table("visits");
    // One job: executors hash the urls, each task builds one shard, the driver joins them
    CuckooFilter seen = CuckooSpark.build(visits, "url", "classic?targetFpp=0.001");

    // Or straight to a Hadoop FileSystem path, for filters too big for the driver
    WrittenFilter written = CuckooSpark.write(visits, "url", "classic?targetFpp=0.001", path);

    // Keep the rows whose url is new: the filter is broadcast once
    Dataset<Row> fresh = spark.table("crawl")
        .filter(functions.not(CuckooSpark.mightContain(seen, functions.col("url"))));

    // Take expired urls back out (a Bloom filter cannot)
    long removed = CuckooSpark.remove(seen, visits.where("id < 100"), "url");
    // end::java[]
    assertEquals(10_000, written.keys());
    try (MappedFilter mapped = CuckooFilters.open(Path.of(java.net.URI.create(path)))) {
      assertTrue(mapped.mightContain("https://example.com/9999"));
    }
    long freshCount = fresh.count();
    assertTrue(freshCount <= 10_000 && freshCount > 9_900, "fresh " + freshCount);
    assertEquals(100, removed);
  }

  @Test
  void everySqlBlockRunsAndTheJoinFormIsRefusedNamingTheRewrite() throws IOException {
    spark.range(0, 1000).selectExpr("concat('u', id) AS url", "id AS user_id").createOrReplaceTempView("blocked");
    spark.range(0, 2000).selectExpr("concat('u', id) AS url", "id AS user_id").createOrReplaceTempView("events");
    spark.range(0, 1000).selectExpr("concat('https://example.com/', id) AS url", "id").createOrReplaceTempView("visits");
    spark.range(0, 2000).selectExpr("concat('https://example.com/', id) AS url", "id").createOrReplaceTempView("crawl");
    String file = dir.resolve("visits.cuckoo").toUri().toString();
    CuckooSpark.write(spark.table("visits"), "url", "classic?targetFpp=0.001", file);

    List<List<String>> blocks = guideBlocks("sql");
    assertEquals(6, blocks.size(), "the SQL blocks of the guide");
    List<Row> fresh = spark.sql(String.join("\n", blocks.get(0))).collectAsList();
    assertTrue(fresh.size() <= 1000 && fresh.size() > 990, "fresh " + fresh.size());
    spark.sql(String.join("\n", blocks.get(1)));
    try {
      for (int round = 0; round < 2; round++) {
        List<Row> cached = spark.sql(String.join("\n", blocks.get(2))).collectAsList();
        assertEquals(fresh.size(), cached.size(), "the cached filter answers as the inline one");
      }
    } finally {
      spark.sql("UNCACHE TABLE IF EXISTS seen");
    }
    assertTrue(spark.sql(String.join("\n", blocks.get(3))).first().getLong(0) >= 1000);
    String fromFile = String.join("\n", blocks.get(4)).replace("/filters/visits.cuckoo", file);
    long freshByFile = spark.sql(fromFile).count();
    assertTrue(freshByFile <= 1000 && freshByFile > 990, "fresh by the written file " + freshByFile);
    String described = spark.sql(String.join("\n", blocks.get(5))).collectAsList().toString();
    assertTrue(described.contains("Usage: cuckoo_might_contain(filter, key)") && described.contains("Examples:"),
        described);

    AnalysisException join = assertThrows(AnalysisException.class,
        () -> spark.sql(String.join("\n", guideBlocks("refused").get(0))));
    assertTrue(join.getMessage().contains("cuckoo_might_contain((SELECT bytes FROM f), c.url)"), join.getMessage());
  }

  /**
   * The guide's streaming form: a filter built once, cached, and looked up by every micro-batch.
   * The same query with the build inline builds a filter in every micro-batch, as the guide warns.
   */
  @Test
  void aStreamingQueryLooksUpInTheCachedFilterBuiltOnce() throws Exception {
    spark.range(0, 1000).selectExpr("id AS value").createOrReplaceTempView("known_ids");
    long before = FilterBuild.builds();
    // tag::streaming[]
    spark.sql("CACHE TABLE known AS SELECT cuckoo_build(value, 'classic?targetFpp=0.001') AS bytes FROM known_ids");
    spark.readStream().format("rate-micro-batch").option("rowsPerBatch", 500).load()
        .createOrReplaceTempView("events_stream");
    StreamingQuery unseen = spark.sql("SELECT value FROM events_stream"
            + " WHERE NOT cuckoo_might_contain((SELECT bytes FROM known), value)")
        .writeStream().format("memory").queryName("unseen_events").start();
    // end::streaming[]
    try {
      int batches = awaitBatches(unseen, 3);
      assertEquals(1, FilterBuild.builds() - before, "one build, by CACHE TABLE, for " + batches + " micro-batches");
      long unseenRows = spark.table("unseen_events").where("value < 1000").count();
      assertTrue(unseenRows <= 5, unseenRows + " of the known ids passed as unseen");
    } finally {
      unseen.stop();
      spark.sql("UNCACHE TABLE IF EXISTS known");
    }
    long inlineBefore = FilterBuild.builds();
    StreamingQuery inline = spark.sql("SELECT value FROM events_stream WHERE NOT cuckoo_might_contain("
            + "(SELECT cuckoo_build(value, 'classic?targetFpp=0.001') FROM known_ids), value)")
        .writeStream().format("memory").queryName("unseen_inline").start();
    try {
      int batches = awaitBatches(inline, 3);
      assertTrue(FilterBuild.builds() - inlineBefore >= batches, "an inline build runs in every micro-batch");
    } finally {
      inline.stop();
    }
  }

  /** Waits (up to two minutes, not a timed assertion) until a query has run {@code n} micro-batches with rows. */
  private static int awaitBatches(StreamingQuery query, int n) throws Exception {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(2);
    int batches = 0;
    while (batches < n && System.nanoTime() < deadline && query.isActive()) {
      // Not processAllAvailable: a rate source always has more.
      Thread.sleep(100);
      batches = (int) java.util.Arrays.stream(query.recentProgress()).filter(p -> p.numInputRows() > 0).count();
    }
    assertTrue(batches >= n, "only " + batches + " micro-batches ran: " + query.exception());
    return batches;
  }

  @Test
  void everySqlBlockOfTheGuideIsOneThisClassRuns() throws IOException {
    List<String> guide = Files.readAllLines(GUIDE, StandardCharsets.UTF_8);
    for (int i = 0; i < guide.size(); i++) {
      if (guide.get(i).startsWith("```sql")) {
        String marker = guide.get(i - 1);
        assertTrue(marker.equals("<!-- spark-example: sql -->") || marker.equals("<!-- spark-example: refused -->"),
            "docs/guide/spark.md:" + (i + 1) + ": a sql block this test does not run");
      }
    }
  }

  @Test
  void theGuideShowsTheJavaRegions() throws IOException {
    List<String> source = Files.readAllLines(SOURCE, StandardCharsets.UTF_8);
    assertEquals(region(source, "java"), guideBlock("java"));
    assertEquals(region(source, "streaming"), guideBlock("streaming"));
  }

  /** The lines of the guide's first code block under {@code <!-- spark-example: name -->}. */
  static List<String> guideBlock(String name) throws IOException {
    return guideBlocks(name).get(0);
  }

  /** The lines of each of the guide's code blocks under {@code <!-- spark-example: name -->}, in order. */
  static List<List<String>> guideBlocks(String name) throws IOException {
    List<String> guide = Files.readAllLines(GUIDE, StandardCharsets.UTF_8);
    List<List<String>> blocks = new ArrayList<>();
    for (int i = 0; i < guide.size(); i++) {
      if (guide.get(i).equals("<!-- spark-example: " + name + " -->")) {
        List<String> block = new ArrayList<>();
        for (int j = i + 2; !guide.get(j).startsWith("```"); j++) {
          block.add(guide.get(j));
        }
        blocks.add(block);
      }
    }
    assertTrue(!blocks.isEmpty(), "docs/guide/spark.md has no block " + name);
    return blocks;
  }

  /** The lines between a region's tags, less the first line's indent. */
  private static List<String> region(List<String> source, String name) {
    int from = source.indexOf("    // tag::" + name + "[]") + 1;
    int to = source.indexOf("    // end::" + name + "[]");
    List<String> lines = new ArrayList<>();
    for (String line : source.subList(from, to)) {
      lines.add(line.length() >= 4 ? line.substring(4) : line.strip());
    }
    return lines;
  }
}
