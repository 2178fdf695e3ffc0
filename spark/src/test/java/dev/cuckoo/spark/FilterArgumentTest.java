package dev.cuckoo.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.KeyKind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a lookup's filter argument may be, and what it is refused for, on the driver: a filter
 * records the kind of key it was built from ({@link FilterSpec#KEYS}), and a key column of
 * another kind is refused naming both (it would answer "absent" for every row); every documented
 * form of a filter that is one value for the query works, the one-row subqueries and a view of a
 * literal included; bytes that are not a filter are refused at analysis for a literal, and before
 * the broadcast for a subquery. Filters that record no kind are looked up as before.
 */
class FilterArgumentTest {
  private static SparkSession spark;

  @TempDir Path tmp;

  @BeforeAll
  static void start() {
    spark = LocalSpark.session();
    spark.range(0, 1000).selectExpr("CAST(id AS STRING) AS s", "id AS n", "CAST(id AS INT) AS i",
        "CAST(CAST(id AS STRING) AS BINARY) AS b").createOrReplaceTempView("kinds");
  }

  /** Runs a query that must fail on the driver before any job that reads its rows. */
  private static <E extends Exception> E refusedBeforeAnyJob(Class<E> type, String sql) {
    String group = "refused-" + System.nanoTime();
    spark.sparkContext().setJobGroup(group, "a query that must not start", false);
    try {
      E e = assertThrows(type, () -> spark.sql(sql).collect(), sql);
      assertEquals(0, spark.sparkContext().statusTracker().getJobIdsForGroup(group).length, "a job ran for " + sql);
      return e;
    } finally {
      spark.sparkContext().clearJobGroup();
    }
  }

  private static byte[] bytesOf(String sql) {
    return (byte[]) spark.sql(sql).first().get(0);
  }

  private static CuckooFilter read(byte[] bytes) throws IOException {
    return CuckooFilters.read(new ByteArrayInputStream(bytes));
  }

  private static String hex(byte[] bytes) {
    return "X'" + HexFormat.of().formatHex(bytes) + "'";
  }

  @Test
  void aBuildRecordsItsColumnsKindOfKey() throws IOException {
    assertEquals(Optional.of(KeyKind.STRING),
        read(bytesOf("SELECT cuckoo_build(s, 'classic?capacity=2000') FROM kinds")).spec().keyKind());
    assertEquals(Optional.of(KeyKind.LONG),
        read(bytesOf("SELECT cuckoo_build(n, 'classic?capacity=2000') FROM kinds")).spec().keyKind());
    assertEquals(Optional.of(KeyKind.LONG), read(bytesOf("SELECT cuckoo_build(i, 'semi-sorted?capacity=2000') FROM kinds"))
        .spec().keyKind(), "an int is keyed as the long of its value");
    assertEquals(Optional.of(KeyKind.BINARY),
        read(bytesOf("SELECT cuckoo_build(b, 'classic?capacity=2000') FROM kinds")).spec().keyKind());
    assertEquals(Optional.of(KeyKind.STRING),
        CuckooSpark.build(spark.table("kinds"), "s", "classic?targetFpp=0.001").spec().keyKind());
    String path = tmp.resolve("n.cuckoo").toString();
    CuckooSpark.write(spark.table("kinds"), "n", "classic?targetFpp=0.001", path);
    assertEquals(Optional.of(KeyKind.LONG), CuckooFilters.spec(CuckooFilters.describe(Path.of(path)).spec()).keyKind());
  }

  @Test
  void aConfigThatNamesAnotherKindThanTheColumnsIsRefused() {
    AnalysisException sql = refusedBeforeAnyJob(AnalysisException.class,
        "SELECT cuckoo_build(s, 'classic?capacity=2000&keys=long') FROM kinds");
    assertTrue(sql.getMessage().contains("keys=long") && sql.getMessage().contains("string keys"), sql.getMessage());
    IllegalArgumentException java = assertThrows(IllegalArgumentException.class,
        () -> CuckooSpark.build(spark.table("kinds"), "n", "classic?keys=string"));
    assertTrue(java.getMessage().contains("keys=string") && java.getMessage().contains("n makes long keys"),
        java.getMessage());
    assertEquals(Optional.of(KeyKind.STRING), CuckooSpark.build(spark.table("kinds"), "s", "classic?keys=string")
        .spec().keyKind(), "the column's own kind may be named");
  }

  @Test
  void aKeyColumnOfAnotherKindIsRefusedOnTheDriverNamingBoth() throws IOException {
    byte[] strings = bytesOf("SELECT cuckoo_build(s, 'classic?capacity=2000') FROM kinds");
    // a literal: at analysis
    AnalysisException literal = refusedBeforeAnyJob(AnalysisException.class,
        "SELECT count(*) FROM kinds WHERE cuckoo_might_contain(" + hex(strings) + ", n)");
    assertTrue(literal.getMessage().contains("built from string keys") && literal.getMessage().contains("BIGINT"),
        literal.getMessage());
    // a subquery: on the driver, when the plan runs, before the rows are read
    spark.createDataFrame(List.of(org.apache.spark.sql.RowFactory.create((Object) strings)),
        new org.apache.spark.sql.types.StructType().add("bytes", "binary")).createOrReplaceTempView("string_filter");
    Exception subquery = assertThrows(Exception.class, () -> spark.sql(
        "SELECT count(*) FROM kinds WHERE cuckoo_might_contain((SELECT bytes FROM string_filter), i)").collect());
    assertTrue(subquery.getMessage().contains("built from string keys") && subquery.getMessage().contains("INT"),
        subquery.getMessage());
    // the Java column, of a filter and of a written file
    Dataset<Row> kinds = spark.table("kinds");
    CuckooFilter filter = read(strings);
    AnalysisException column = assertThrows(AnalysisException.class,
        () -> kinds.filter(CuckooSpark.mightContain(filter, functions.col("b"))));
    assertTrue(column.getMessage().contains("built from string keys") && column.getMessage().contains("BINARY"),
        column.getMessage());
    String path = tmp.resolve("s.cuckoo").toString();
    CuckooSpark.write(kinds, "s", "classic?targetFpp=0.001", path);
    AnalysisException file = assertThrows(AnalysisException.class,
        () -> kinds.filter(CuckooSpark.mightContain(path, functions.col("n"))));
    assertTrue(file.getMessage().contains("built from string keys"), file.getMessage());

    // the right kind finds every key
    assertEquals(1000, spark.sql("SELECT count(*) FROM kinds WHERE cuckoo_might_contain(" + hex(strings) + ", s)")
        .first().getLong(0));
    assertEquals(1000, kinds.filter(CuckooSpark.mightContain(path, functions.col("s"))).count());
  }

  @Test
  void intAndBigintKeysAreOneKind() {
    byte[] longs = bytesOf("SELECT cuckoo_build(n, 'classic?capacity=2000') FROM kinds");
    assertEquals(1000, spark.sql("SELECT count(*) FROM kinds WHERE cuckoo_might_contain(" + hex(longs) + ", i)")
        .first().getLong(0));
  }

  @Test
  void aFilterThatRecordsNoKindIsLookedUpAsBefore() throws IOException {
    CuckooFilter plain = CuckooFilters.create("classic?capacity=2000");
    for (long n = 0; n < 1000; n++) {
      plain.add(n);
      plain.add(Long.toString(n));
    }
    assertTrue(plain.spec().keyKind().isEmpty());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    plain.writeTo(out);
    String literal = hex(out.toByteArray());
    for (String key : List.of("s", "n", "i")) {
      assertEquals(1000, spark.sql("SELECT count(*) FROM kinds WHERE cuckoo_might_contain(" + literal + ", " + key
          + ")").first().getLong(0), key);
    }
    assertEquals(1000, spark.table("kinds").filter(CuckooSpark.mightContain(plain, functions.col("n"))).count());
  }

  @Test
  void everyFormOfAFilterGivenOnceWorks() {
    byte[] strings = bytesOf("SELECT cuckoo_build(s, 'classic?capacity=2000') FROM kinds WHERE n < 10");
    String hex = hex(strings);
    spark.sql("CREATE OR REPLACE TEMP VIEW literal_filter AS SELECT " + hex + " AS bytes");
    for (String filter : List.of(hex, "(SELECT " + hex + ")", "(SELECT unhex('" + hex.substring(2, hex.length() - 1)
        + "'))", "(SELECT bytes FROM literal_filter)", "(SELECT cuckoo_build(s, 'classic?capacity=2000') FROM kinds"
        + " WHERE n < 10)")) {
      long hits = spark.sql("SELECT count(*) FROM kinds WHERE cuckoo_might_contain(" + filter + ", s)")
          .first().getLong(0);
      assertTrue(hits >= 10 && hits < 12, filter + ": " + hits);
    }
  }

  @Test
  void bytesThatAreNotAFilterAreRefusedOnTheDriver() {
    byte[] good = bytesOf("SELECT cuckoo_build(s, 'classic?capacity=2000') FROM kinds");
    byte[] truncated = java.util.Arrays.copyOf(good, good.length / 2);
    byte[] flipped = good.clone();
    flipped[flipped.length / 2] ^= 0x10;
    for (byte[] bad : List.of(HexFormat.of().parseHex("00112233"), truncated, flipped)) {
      AnalysisException e = refusedBeforeAnyJob(AnalysisException.class,
          "SELECT count(*) FROM kinds WHERE cuckoo_might_contain(" + hex(bad) + ", s)");
      assertTrue(e.getMessage().contains("not a filter file"), e.getMessage());
    }
    spark.sql("CREATE OR REPLACE TEMP VIEW not_a_filter AS SELECT X'00112233' AS bytes");
    for (String filter : List.of("(SELECT X'00112233')", "(SELECT bytes FROM not_a_filter)", "(SELECT cuckoo_key('a'))",
        "(SELECT bytes FROM not_a_filter WHERE length(bytes) > 0)")) {
      Exception e = assertThrows(Exception.class, () -> spark.sql(
          "SELECT count(*) FROM kinds WHERE cuckoo_might_contain(" + filter + ", s)").collect(), filter);
      assertTrue(e.getMessage().contains("not a filter file"), filter + ": " + e.getMessage());
      assertFalse(e.getMessage().contains("PLAN_VALIDATION_FAILED"), filter + ": " + e.getMessage());
    }
  }
}
