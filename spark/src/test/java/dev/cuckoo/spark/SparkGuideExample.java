package dev.cuckoo.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java and SQL of the Spark guide chapter, run: the block of docs/guide/spark.md under
 * {@code <!-- spark-example: java -->} must equal the region {@code // tag::java[]} .. {@code //
 * end::java[]} of this class, dedented, and the block under {@code <!-- spark-example: sql -->}
 * is run as it stands. The docs module tests the other chapters' examples; this one lives here
 * because the docs module has no Spark (its class path keeps SLF4J 1.7 for Jedis, and Spark
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
  void sql() throws IOException {
    spark.range(0, 1000).selectExpr("concat('u', id) AS url", "id AS user_id").createOrReplaceTempView("blocked");
    spark.range(0, 2000).selectExpr("concat('u', id) AS url", "id AS user_id").createOrReplaceTempView("events");
    CuckooSpark.register(spark);
    String sql = String.join("\n", guideBlock("sql"));
    long kept = spark.sql(sql).count();
    assertTrue(kept <= 1000 && kept > 990, "kept " + kept);
    String users = """
        SELECT count(*) FROM events WHERE cuckoo_might_contain(
          (SELECT cuckoo_build(cuckoo_key(user_id), 'semi-sorted?capacity=1000') FROM blocked), user_id)
        """;
    assertTrue(spark.sql(users).first().getLong(0) >= 1000);
  }

  @Test
  void theGuideShowsTheJavaRegion() throws IOException {
    assertEquals(region(Files.readAllLines(SOURCE, StandardCharsets.UTF_8), "java"), guideBlock("java"));
  }

  /** The lines of the guide's code block under {@code <!-- spark-example: name -->}. */
  private static List<String> guideBlock(String name) throws IOException {
    List<String> guide = Files.readAllLines(GUIDE, StandardCharsets.UTF_8);
    int marker = guide.indexOf("<!-- spark-example: " + name + " -->");
    assertTrue(marker >= 0, "docs/guide/spark.md has no block " + name);
    List<String> block = new ArrayList<>();
    for (int j = marker + 2; !guide.get(j).startsWith("```"); j++) {
      block.add(guide.get(j));
    }
    return block;
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
