package dev.cuckoo.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.FunctionRegistry$;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQL functions as a SQL user meets them, through {@code spark.sql.extensions} alone: every
 * argument error is an {@code AnalysisException} with Spark's error class, raised on the driver
 * before any job; {@code cuckoo_build} holds exactly the distinct keys; a filter is given once, by
 * a scalar subquery (of a build, or of a written file read through {@code binaryFile}), and a
 * join's filter column is refused with that rewrite.
 */
class CuckooSparkExtensionsTest {
  private static SparkSession spark;

  @TempDir Path tmp;

  @BeforeAll
  static void start() {
    spark = LocalSpark.session();
    // 20000 distinct urls over 50000 rows in 4 partitions, so most keys are in several of them
    spark.range(0, 50_000).selectExpr("concat('https://example.com/', id % 20000) AS url", "id")
        .repartition(4).createOrReplaceTempView("ext_visits");
  }

  /** Runs a query's analysis in a job group, and checks that no job ran. */
  private static AnalysisException refused(String sql) {
    String group = "refused-" + System.nanoTime();
    spark.sparkContext().setJobGroup(group, "a query that must not start", false);
    try {
      AnalysisException e = assertThrows(AnalysisException.class, () -> spark.sql(sql).collect(), sql);
      assertEquals(0, spark.sparkContext().statusTracker().getJobIdsForGroup(group).length, "a job ran for " + sql);
      return e;
    } finally {
      spark.sparkContext().clearJobGroup();
    }
  }

  @Test
  void theExtensionAloneGivesEverySessionTheFunctions() {
    SparkSession fresh = spark.newSession();
    Supplier<Long> hits = () -> fresh.sql("SELECT count(*) FROM range(10) WHERE cuckoo_might_contain("
        + "(SELECT cuckoo_build(id, 'classic?capacity=100') FROM range(5)), id)").first().getLong(0);
    assertTrue(hits.get() >= 5);
  }

  @Test
  void registerAddsThemToASessionThatLacksThem() {
    SparkSession fresh = spark.newSession();
    for (String f : List.of("cuckoo_build", "cuckoo_might_contain", "cuckoo_key")) {
      ((org.apache.spark.sql.classic.SparkSession) fresh).sessionState().functionRegistry()
          .dropFunction(FunctionRegistry$.MODULE$.builtinFunctionIdentifier(f));
    }
    assertThrows(AnalysisException.class, () -> fresh.sql("SELECT cuckoo_key(1)"));
    CuckooSpark.register(fresh);
    assertEquals(8, ((byte[]) fresh.sql("SELECT cuckoo_key(1)").first().get(0)).length);
  }

  @Test
  void aWrongArgumentCountIsSparksErrorNotACrash() {
    // One argument once read past the row Spark's typed UDAF was given, and took the JVM down.
    for (String sql : List.of("SELECT cuckoo_build(url) FROM ext_visits",
        "SELECT cuckoo_build(url, 'classic', 3) FROM ext_visits", "SELECT cuckoo_key()",
        "SELECT cuckoo_might_contain(X'00', 'a', 'b')")) {
      AnalysisException e = refused(sql);
      assertEquals("WRONG_NUM_ARGS.WITHOUT_SUGGESTION", e.getCondition(), sql);
      assertEquals("42605", e.getSqlState());
    }
  }

  @Test
  void aBadConfigIsRefusedAtAnalysisWithTheLibrarysMessage() {
    AnalysisException variant = refused("SELECT cuckoo_build(url, 'clasic?capacity=100') FROM ext_visits");
    assertEquals("INVALID_PARAMETER_VALUE.PATTERN", variant.getCondition());
    assertTrue(variant.getMessage().contains("clasic") && variant.getMessage().contains("classic"),
        variant.getMessage());
    AnalysisException key = refused("SELECT cuckoo_build(url, 'classic?targtFpp=0.001') FROM ext_visits");
    assertTrue(key.getMessage().contains("targtFpp"), key.getMessage());
    AnalysisException range = refused("SELECT cuckoo_build(url, 'classic?fingerprintBits=40') FROM ext_visits");
    assertTrue(range.getMessage().contains("fingerprintBits=40 is out of range"), range.getMessage());
    AnalysisException scalable = refused("SELECT cuckoo_build(url, 'scalable?capacity=100') FROM ext_visits");
    assertTrue(scalable.getMessage().contains("cannot be built in shards"), scalable.getMessage());
    AnalysisException notLiteral = refused("SELECT cuckoo_build(url, concat('classic?capacity=', id)) FROM ext_visits");
    assertEquals("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", notLiteral.getCondition());
  }

  @Test
  void aValueOfAnotherTypeIsRefusedAtAnalysis() {
    AnalysisException key = refused("SELECT cuckoo_key(1.5D)");
    assertEquals("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", key.getCondition());
    assertTrue(key.getMessage().contains("\"DOUBLE\""), key.getMessage());
    AnalysisException build = refused("SELECT cuckoo_build(1.5D, 'classic?capacity=10')");
    assertEquals("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", build.getCondition());
  }

  @Test
  void describeFunctionShowsTheUsage() {
    for (String f : List.of("cuckoo_build", "cuckoo_might_contain", "cuckoo_key")) {
      String described = spark.sql("DESCRIBE FUNCTION EXTENDED " + f).collectAsList().stream()
          .map(r -> r.getString(0)).collect(Collectors.joining("\n"));
      assertTrue(described.contains("Usage: " + f + "(") && !described.contains("N/A"), described);
    }
  }

  @Test
  void sqlBuildHoldsExactlyTheDistinctKeysAndWithoutACapacityIsSizedForThem() throws IOException {
    CuckooFilter sized = filterOf("SELECT cuckoo_build(url, 'classic?targetFpp=0.001') FROM ext_visits");
    assertEquals(20_000, sized.size(), "each distinct key once, whatever partitions it is in");
    assertEquals(20_000, sized.capacity(), "sized for the distinct keys, not the 50000 rows");
    CuckooFilter given = filterOf("SELECT cuckoo_build(url, 'classic?targetFpp=0.001&capacity=20000') FROM ext_visits");
    assertEquals(given.sizeInBytes(), sized.sizeInBytes());
    for (int i = 0; i < 20_000; i++) {
      assertTrue(sized.mightContain("https://example.com/" + i));
    }
    AnalysisException none = assertThrows(AnalysisException.class,
        () -> spark.sql("SELECT cuckoo_build(url) FROM ext_visits"));
    assertEquals("WRONG_NUM_ARGS.WITHOUT_SUGGESTION", none.getCondition());
  }

  @Test
  void aJoinsFilterColumnIsRefusedNamingTheScalarSubquery() {
    spark.sql("SELECT cuckoo_build(url, 'classic?capacity=20000') AS bytes FROM ext_visits WHERE id < 100")
        .createOrReplaceTempView("ext_filter");
    AnalysisException join = refused("SELECT count(*) FROM ext_visits e, ext_filter f"
        + " WHERE NOT cuckoo_might_contain(f.bytes, e.url)");
    assertEquals("DATATYPE_MISMATCH.TYPE_CHECK_FAILURE_WITH_HINT", join.getCondition());
    assertTrue(join.getMessage().contains("cuckoo_might_contain((SELECT bytes FROM f), e.url)"), join.getMessage());
    // named as the user named them, and without a join where there is none
    spark.sql("SELECT url, X'00' AS filter_bytes FROM ext_visits").createOrReplaceTempView("ext_with_bytes");
    AnalysisException column = refused("SELECT count(*) FROM ext_with_bytes WHERE cuckoo_might_contain(filter_bytes, url)");
    assertTrue(column.getMessage().contains("cuckoo_might_contain((SELECT filter_bytes FROM ext_with_bytes), ext_with_bytes.url)")
        && !column.getMessage().contains("join"), column.getMessage());

    long kept = spark.sql("SELECT count(*) FROM ext_visits WHERE NOT cuckoo_might_contain("
        + "(SELECT bytes FROM ext_filter), url)").first().getLong(0);
    // urls 0..99 are in 3 rows each
    assertTrue(kept <= 50_000 - 300 && kept > 49_600, "kept " + kept);
  }

  @Test
  void aScalarSubquerysFilterIsReadOncePerExecutorNotPerRow() {
    // A filter of its own (no earlier test has parsed these bytes), looked up from 50000 rows in 4 tasks.
    spark.sql("SELECT cuckoo_build(url, 'semi-sorted?capacity=30000') AS bytes FROM ext_visits WHERE id < 7")
        .createOrReplaceTempView("ext_once");
    long before = SharedFilter.parses();
    long hits = spark.sql("SELECT count(*) FROM ext_visits WHERE cuckoo_might_contain((SELECT bytes FROM ext_once),"
        + " url)").first().getLong(0);
    assertTrue(hits >= 7 * 3, "hits " + hits);
    assertEquals(1, SharedFilter.parses() - before, "the bytes are read into a filter once in this JVM");
  }

  @Test
  void aWrittenFileIsUsedFromSqlThroughBinaryFile() {
    String path = tmp.resolve("seen.cuckoo").toUri().toString();
    CuckooSpark.write(spark.table("ext_visits").where("id < 1000"), "url", "classic?targetFpp=0.001", path);
    long hits = spark.sql("SELECT count(*) FROM ext_visits WHERE cuckoo_might_contain("
        + "(SELECT content FROM binaryFile.`" + path + "`), url)").first().getLong(0);
    // urls 0..999 are in 3 rows each (ids i, i+20000, i+40000)
    assertTrue(hits >= 3000 && hits < 3050, "hits " + hits);
  }

  private static CuckooFilter filterOf(String sql) throws IOException {
    Row r = spark.sql(sql).first();
    assertFalse(r.isNullAt(0));
    return CuckooFilters.read(new ByteArrayInputStream((byte[]) r.get(0)));
  }
}
