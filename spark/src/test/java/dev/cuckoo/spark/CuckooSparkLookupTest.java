package dev.cuckoo.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Lookups from Java ({@code mightContain}) and SQL, the SQL aggregate, and remove. */
class CuckooSparkLookupTest {
  /** The injected task failures, counted in this JVM (local mode: the tasks run here). */
  private static final java.util.concurrent.atomic.AtomicInteger INJECTED = new java.util.concurrent.atomic.AtomicInteger();
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = LocalSpark.session();
  }

  @Test
  void mightContainFiltersByABroadcastFilter() {
    SplittableRandom random = TestSeed.random("mightContain");
    CuckooFilter filter = CuckooFilters.create("classic?capacity=10000&fingerprintBits=16");
    List<Long> all = new ArrayList<>();
    Set<Long> added = new HashSet<>();
    for (int i = 0; i < 4000; i++) {
      long k = random.nextLong();
      all.add(k);
      if (i % 2 == 0) {
        filter.add(k);
        added.add(k);
      }
    }
    Dataset<Long> ds = spark.createDataset(all, Encoders.LONG()).repartition(3);
    List<Long> found = ds.filter(CuckooSpark.mightContain(filter, functions.col("value"))).collectAsList();
    assertTrue(found.containsAll(added), "a key added was not found: " + TestSeed.rerun());
    // 16-bit fingerprints: about 2000 * 8 / 65536 false positives expected, well under 20.
    assertTrue(found.size() - added.size() < 20, found.size() - added.size() + " false positives; " + TestSeed.rerun());
  }

  @Test
  void mightContainIsFalseForANullKey() {
    CuckooFilter filter = CuckooFilters.create("classic?capacity=100");
    filter.add("a");
    StructType schema = new StructType().add("k", DataTypes.StringType);
    Dataset<Row> ds = spark.createDataFrame(List.of(RowFactory.create("a"), RowFactory.create((Object) null),
        RowFactory.create("b")), schema);
    List<Row> rows = ds.select(CuckooSpark.mightContain(filter, functions.col("k")).as("hit")).collectAsList();
    assertEquals(List.of(true, false), List.of(rows.get(0).getBoolean(0), rows.get(1).getBoolean(0)));
    assertFalse(rows.get(1).isNullAt(0));
  }

  @Test
  void sqlBuildsAFilterAndLooksItUp() throws IOException {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      rows.add(RowFactory.create("key-" + i, (long) i * 7919, i % 10 == 0 ? null : "n" + i));
    }
    StructType schema = new StructType().add("s", DataTypes.StringType).add("l", DataTypes.LongType)
        .add("maybe", DataTypes.StringType);
    spark.createDataFrame(rows, schema).repartition(4).createOrReplaceTempView("keys");

    byte[] strings = spark.sql("SELECT cuckoo_build(s, 'classic?capacity=5000') FROM keys").first().getAs(0);
    CuckooFilter s = CuckooFilters.read(new ByteArrayInputStream(strings));
    assertEquals(3000, s.size());
    for (int i = 0; i < 3000; i++) {
      assertTrue(s.mightContain("key-" + i));
    }
    byte[] longs = spark.sql("SELECT cuckoo_build(cuckoo_key(l), 'semi-sorted?capacity=5000') FROM keys").first()
        .getAs(0);
    CuckooFilter l = CuckooFilters.read(new ByteArrayInputStream(longs));
    for (int i = 0; i < 3000; i++) {
      assertTrue(l.mightContain((long) i * 7919));
    }

    long hits = spark.sql("SELECT count(*) FROM keys WHERE cuckoo_might_contain("
        + "(SELECT cuckoo_build(s, 'classic?capacity=5000') FROM keys), s)").first().getLong(0);
    assertEquals(3000, hits);
    long longHits = spark.sql("SELECT count(*) FROM keys k WHERE cuckoo_might_contain((SELECT cuckoo_build(l,"
        + " 'classic?capacity=5000') FROM keys), k.l)").first().getLong(0);
    assertEquals(3000, longHits, "a bigint column is a key of cuckoo_build as of cuckoo_might_contain");
    // Nulls are skipped by the aggregate and are never contained.
    byte[] maybe = spark.sql("SELECT cuckoo_build(maybe, 'classic?capacity=5000') FROM keys").first().getAs(0);
    assertEquals(2700, CuckooFilters.read(new ByteArrayInputStream(maybe)).size());
    assertFalse(spark.sql("SELECT cuckoo_might_contain((SELECT cuckoo_build(s, 'classic?capacity=10') FROM keys"
        + " WHERE l = 0), CAST(NULL AS STRING))").first().getBoolean(0));
  }

  @Test
  void sqlBuildOverNoKeysIsNull() {
    StructType schema = new StructType().add("s", DataTypes.StringType);
    spark.createDataFrame(List.of(RowFactory.create((Object) null)), schema).createOrReplaceTempView("nulls");
    Row r = spark.sql("SELECT cuckoo_build(s, 'classic?capacity=10') FROM nulls").first();
    assertTrue(r.isNullAt(0));
    assertTrue(spark.sql("SELECT cuckoo_build(s, 'classic') FROM nulls").first().isNullAt(0), "without a capacity");
    assertTrue(spark.sql("SELECT cuckoo_build(s, 'classic'), count(s) FROM nulls").first().isNullAt(0),
        "as an aggregate");
  }

  @Test
  void cuckooKeyIsTheLibrarysKeyRule() {
    Row r = spark.sql("SELECT cuckoo_key(CAST(1 AS BIGINT)), cuckoo_key(1), cuckoo_key('x'), cuckoo_key(X'0102'),"
        + " cuckoo_key(CAST(NULL AS STRING))").first();
    byte[] one = {1, 0, 0, 0, 0, 0, 0, 0};
    assertArrayEquals(one, (byte[]) r.get(0));
    assertArrayEquals(one, (byte[]) r.get(1));
    assertArrayEquals("x".getBytes(StandardCharsets.UTF_8), (byte[]) r.get(2));
    assertArrayEquals(new byte[] {1, 2}, (byte[]) r.get(3));
    assertNull(r.get(4));
  }

  @Test
  void removeTakesADatasetsKeysBackOut() {
    CuckooFilter filter = CuckooFilters.create("classic?capacity=10000");
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      keys.add("k" + i);
      filter.add("k" + i);
    }
    // The first 500 keys, each twice, and a null: each distinct key is removed once.
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      rows.add(RowFactory.create("k" + (i % 500)));
    }
    rows.add(RowFactory.create((Object) null));
    Dataset<Row> expired = spark.createDataFrame(rows, new StructType().add("k", DataTypes.StringType));
    assertEquals(500, CuckooSpark.remove(filter, expired, "k"));
    assertEquals(1500, filter.size());
    for (int i = 500; i < 2000; i++) {
      assertTrue(filter.mightContain(keys.get(i)), keys.get(i));
    }
  }

  /**
   * A task whose first attempt reads all its rows and then fails (as a lost executor's, or a
   * speculative copy's loser, whose output Spark throws away) is run again: the driver removes
   * the keys of the one attempt whose result it accepted, each once. Speculation itself does not
   * run in local mode (Spark never starts a second copy on the host of the first), so the test
   * makes the second attempt by failing the first.
   */
  @Test
  void aRetriedTaskRemovesEachKeyOnce() {
    CuckooFilter filter = CuckooFilters.create("classic?capacity=20000");
    for (long k = 0; k < 10_000; k++) {
      filter.add(k);
    }
    INJECTED.set(0);
    Dataset<Long> expired = spark.range(0, 5000).as(Encoders.LONG()).repartition(4).mapPartitions(
        (org.apache.spark.api.java.function.MapPartitionsFunction<Long, Long>) it -> {
          List<Long> all = new ArrayList<>();
          it.forEachRemaining(all::add);
          org.apache.spark.TaskContext task = org.apache.spark.TaskContext.get();
          if (task.partitionId() == 1 && task.attemptNumber() == 0) {
            INJECTED.incrementAndGet();
            throw new IllegalStateException("injected: the first attempt of partition 1 fails after reading its rows");
          }
          return all.iterator();
        }, Encoders.LONG());
    assertEquals(5000, CuckooSpark.remove(filter, expired.toDF("k"), "k"));
    assertEquals(5000, filter.size());
    for (long k = 5000; k < 10_000; k++) {
      assertTrue(filter.mightContain(k), "key " + k + " lost its fingerprint to a repeated removal");
    }
    assertEquals(1, INJECTED.get(), "the first attempt failed once, and its task ran again");
  }

  @Test
  void removeRefusesAColumnOfAnotherType() {
    CuckooFilter filter = CuckooFilters.create("classic?capacity=100");
    Dataset<Row> ds = spark.sql("SELECT 1.5D AS d");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CuckooSpark.remove(filter, ds, "d"));
    assertTrue(e.getMessage().contains("'d' has type double"), e.getMessage());
  }

  @Test
  void removeRefusesKeysOfAnotherKindThanTheFilters() {
    CuckooFilter strings = CuckooSpark.build(spark.sql("SELECT CAST(id AS STRING) AS s FROM range(100)"), "s",
        "classic?capacity=1000");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CuckooSpark.remove(strings, spark.sql("SELECT id AS n FROM range(100)"), "n"));
    assertTrue(e.getMessage().contains("built from string keys") && e.getMessage().contains("BIGINT"), e.getMessage());
    assertEquals(100, strings.size());
  }
}
