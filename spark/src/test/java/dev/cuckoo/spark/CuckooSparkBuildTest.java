package dev.cuckoo.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.MappedFilter;
import dev.cuckoo.testkit.TestSeed;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Builds and writes on a real local session: every key type, shards, files, and what is refused. */
class CuckooSparkBuildTest {
  private static final int N = 20_000;
  private static SparkSession spark;

  @TempDir Path tmp;

  @BeforeAll
  static void start() {
    spark = LocalSpark.session();
  }

  /** Distinct keys of one type, each in 1 to 3 rows, with nulls among them, in 5 partitions. */
  private static Dataset<Row> rows(DataType type, List<Object> keys) {
    List<Row> rows = new ArrayList<>();
    SplittableRandom random = TestSeed.random("rows " + type);
    for (Object k : keys) {
      for (int copies = 1 + random.nextInt(3); copies > 0; copies--) {
        rows.add(RowFactory.create(k, random.nextInt()));
      }
      if (random.nextInt(20) == 0) {
        rows.add(RowFactory.create(null, 0));
      }
    }
    StructType schema = new StructType().add("k", type).add("other", DataTypes.IntegerType);
    return spark.createDataFrame(rows, schema).repartition(5);
  }

  private static List<Object> keys(String type) {
    SplittableRandom random = TestSeed.random("keys " + type);
    Set<Object> keys = new LinkedHashSet<>();
    while (keys.size() < N) {
      long v = random.nextLong();
      keys.add(switch (type) {
        case "string" -> "key-" + v;
        case "long" -> v;
        case "int" -> (int) v;
        default -> ("b" + v).getBytes(StandardCharsets.UTF_8);
      });
    }
    return new ArrayList<>(keys);
  }

  private static void assertFindsEvery(CuckooFilter filter, List<Object> keys) {
    for (Object k : keys) {
      boolean found = k instanceof String s ? filter.mightContain(s)
          : k instanceof Long l ? filter.mightContain(l.longValue())
          : k instanceof Integer i ? filter.mightContain(i) // widens to long: the int key rule
          : filter.mightContain((byte[]) k);
      assertTrue(found, "key " + k + " was not found; " + TestSeed.rerun());
    }
  }

  @Test
  void buildFindsEveryKeyOfEveryTypeByThePlainJavaLookup() {
    for (String type : List.of("string", "binary", "long", "int")) {
      DataType dataType = switch (type) {
        case "string" -> DataTypes.StringType;
        case "long" -> DataTypes.LongType;
        case "int" -> DataTypes.IntegerType;
        default -> DataTypes.BinaryType;
      };
      List<Object> keys = keys(type);
      CuckooFilter filter = CuckooSpark.build(rows(dataType, keys), "k", "classic?capacity=" + N + "&fingerprintBits=16");
      assertEquals(N, filter.size(), type + ": one copy of each distinct key");
      assertFindsEvery(filter, keys);
      long falsePositives = 0;
      for (long i = 0; i < 100_000; i++) {
        if (filter.mightContain("absent-" + i)) {
          falsePositives++;
        }
      }
      assertTrue(falsePositives < 3 * 100_000 * filter.expectedFpp() + 10, type + ": " + falsePositives
          + " false positives in 100000, expected about " + 100_000 * filter.expectedFpp());
    }
  }

  @Test
  void aShardedBuildHoldsExactlyTheKeysInTheShardsAsked() {
    List<Object> keys = keys("long");
    CuckooFilter filter = CuckooSpark.build(rows(DataTypes.LongType, keys), "k", "semi-sorted?capacity=" + N
        + "&shards=7");
    assertEquals("7", filter.spec().option(FilterSpec.SHARDS).orElseThrow());
    assertEquals(N, filter.size());
    assertFindsEvery(filter, keys);
  }

  @Test
  void withoutACapacityTheBuildIsSizedForTheDistinctKeysAtAnyDuplication() {
    List<Object> keys = keys("string").subList(0, 5000);
    CuckooFilter given = CuckooSpark.build(copies(keys, 1), "k", "classic?targetFpp=0.001&capacity=5000");
    for (int copies : new int[] {1, 2, 10}) {
      CuckooFilter sized = CuckooSpark.build(copies(keys, copies), "k", "classic?targetFpp=0.001");
      assertEquals(5000, sized.size(), copies + "x");
      assertEquals(5000, sized.capacity(), copies + "x: sized for the distinct keys, not the rows");
      double ratio = (double) sized.sizeInBytes() / given.sizeInBytes();
      assertTrue(Math.abs(ratio - 1) <= 0.05, copies + "x: " + sized.sizeInBytes() + " bytes against "
          + given.sizeInBytes() + " given capacity=5000");
      assertFindsEvery(sized, keys);
    }
  }

  /** Each key in {@code copies} rows, spread over 4 partitions, with no nulls. */
  private static Dataset<Row> copies(List<Object> keys, int copies) {
    List<Row> rows = new ArrayList<>();
    for (int c = 0; c < copies; c++) {
      for (Object k : keys) {
        rows.add(RowFactory.create(k));
      }
    }
    return spark.createDataFrame(rows, new StructType().add("k", DataTypes.StringType)).repartition(4);
  }

  /** Runs an action in a job group and checks that it threw before any job ran. */
  private static <T extends Throwable> T refusedBeforeAnyJob(Class<T> type, org.junit.jupiter.api.function.Executable
      action) {
    String group = "refuse-" + System.nanoTime();
    spark.sparkContext().setJobGroup(group, "a call that must not start a job", false);
    try {
      T e = assertThrows(type, action);
      assertEquals(0, spark.sparkContext().statusTracker().getJobIdsForGroup(group).length, "no job ran");
      return e;
    } finally {
      spark.sparkContext().clearJobGroup();
    }
  }

  @Test
  void aBadConfigIsRefusedBeforeAnyJobEvenWithoutACapacity() {
    Dataset<Row> ds = rows(DataTypes.LongType, keys("long").subList(0, 100));
    IllegalArgumentException variant = refusedBeforeAnyJob(IllegalArgumentException.class,
        () -> CuckooSpark.build(ds, "k", "clasic"));
    assertTrue(variant.getMessage().contains("clasic"), variant.getMessage());
    IllegalArgumentException key = refusedBeforeAnyJob(IllegalArgumentException.class,
        () -> CuckooSpark.build(ds, "k", "classic?targtFpp=0.001"));
    assertTrue(key.getMessage().contains("targtFpp"), key.getMessage());
    IllegalArgumentException write = refusedBeforeAnyJob(IllegalArgumentException.class,
        () -> CuckooSpark.write(ds, "k", "classic?targtFpp=0.001", tmp.resolve("typo.cuckoo").toString()));
    assertTrue(write.getMessage().contains("targtFpp"), write.getMessage());
  }

  @Test
  void aVariantThatCannotBeShardedIsRefusedAsTheGuideSays() {
    Dataset<Row> ds = rows(DataTypes.LongType, keys("long").subList(0, 100));
    for (String variant : List.of("scalable", "expandable")) {
      UnsupportedOperationException build = refusedBeforeAnyJob(UnsupportedOperationException.class,
          () -> CuckooSpark.build(ds, "k", variant + "?capacity=1000"));
      assertTrue(build.getMessage().contains("variant " + variant + " cannot be built in shards")
          && build.getMessage().contains("classic, semi-sorted"), build.getMessage());
      UnsupportedOperationException write = refusedBeforeAnyJob(UnsupportedOperationException.class,
          () -> CuckooSpark.write(ds, "k", variant, tmp.resolve(variant + ".cuckoo").toString()));
      assertTrue(write.getMessage().contains("cannot be built in shards"), write.getMessage());
    }
    // What a user with only cuckoo-spark sees for them: not installed, and what a build can make.
    IllegalArgumentException missing = refusedBeforeAnyJob(IllegalArgumentException.class,
        () -> CuckooSpark.build(ds, "k", "quotient?capacity=1000"));
    assertTrue(missing.getMessage().contains("variant 'quotient' is not installed") && missing.getMessage()
        .endsWith("a Spark build makes a variant whose tables map to files, in shards: classic, semi-sorted"),
        missing.getMessage());
  }

  @Test
  void aTargetThatCannotBeWrittenIsRefusedBeforeAnyJob() throws IOException {
    // A directory under a regular file cannot be made, whoever runs the test (root ignores modes).
    Path notADirectory = Files.writeString(tmp.resolve("plain-file"), "x");
    String path = notADirectory.resolve("filters").resolve("seen.cuckoo").toUri().toString();
    Dataset<Row> ds = rows(DataTypes.LongType, keys("long").subList(0, 100));
    IllegalArgumentException e = refusedBeforeAnyJob(IllegalArgumentException.class,
        () -> CuckooSpark.write(ds, "k", "classic?capacity=100", path));
    assertTrue(e.getMessage().contains("cannot write to " + path), e.getMessage());
  }

  @Test
  void aFilterFileIsCheckedOnTheDriverWhenItsColumnIsMade() throws IOException {
    Path garbage = Files.writeString(tmp.resolve("garbage.cuckoo"), "not a filter file at all");
    IllegalArgumentException notAFilter = assertThrows(IllegalArgumentException.class,
        () -> CuckooSpark.mightContain(garbage.toUri().toString(), functions.col("k")));
    assertTrue(notAFilter.getMessage().contains(garbage.getFileName().toString()), notAFilter.getMessage());
    IllegalArgumentException directory = assertThrows(IllegalArgumentException.class,
        () -> CuckooSpark.mightContain(tmp.toUri().toString(), functions.col("k")));
    assertTrue(directory.getMessage().contains("is a directory"), directory.getMessage());
    Path scalable = tmp.resolve("scalable.cuckoo");
    try (java.io.OutputStream out = Files.newOutputStream(scalable)) {
      CuckooFilters.create("scalable?capacity=100").writeTo(out);
    }
    IllegalArgumentException unmapped = assertThrows(IllegalArgumentException.class,
        () -> CuckooSpark.mightContain(scalable.toUri().toString(), functions.col("k")));
    assertTrue(unmapped.getMessage().contains("cannot be mapped"), unmapped.getMessage());
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> CuckooSpark.mightContain(tmp.resolve("nope.cuckoo").toUri().toString(), functions.col("k")));
    assertTrue(missing.getMessage().contains("nope.cuckoo"), missing.getMessage());
  }

  @Test
  void aFileReplacedUnderAPlannedDatasetIsRefusedNamingThePath() {
    List<Object> keys = keys("long").subList(0, 1000);
    Dataset<Row> ds = rows(DataTypes.LongType, keys);
    String path = tmp.resolve("replaced.cuckoo").toUri().toString();
    // The same config both times: the same length, so only the time and the checksum tell the files apart.
    CuckooSpark.write(ds, "k", "classic?capacity=1000", path);
    Dataset<Row> found = ds.filter(CuckooSpark.mightContain(path, functions.col("k")));
    assertEquals(ds.where("k IS NOT NULL").count(), found.count());
    CuckooSpark.write(ds.where("k < 0"), "k", "classic?capacity=1000", path, true);
    Exception e = assertThrows(Exception.class, found::count);
    assertTrue(String.valueOf(e.getMessage()).contains("the filter file " + path.replace("file:///", "file:/")
        + " changed after the lookup column was made"), String.valueOf(e.getMessage()));
  }

  @Test
  void writeToAFileThenReadAndOpenIt() throws IOException {
    List<Object> keys = keys("string");
    Dataset<Row> ds = rows(DataTypes.StringType, keys);
    long nulls = ds.where("k IS NULL").count();
    Path file = tmp.resolve("out").resolve("seen.cuckoo");
    WrittenFilter written = CuckooSpark.write(ds, "k", "classic?capacity=" + N + "&shards=3", file.toUri().toString());
    assertEquals(new WrittenFilter(file.toUri().toString(), N, nulls, 3, Files.size(file)), written);
    try (InputStream in = Files.newInputStream(file)) {
      assertFindsEvery(CuckooFilters.read(in), keys);
    }
    try (MappedFilter mapped = CuckooFilters.open(file)) {
      assertEquals(N, mapped.size());
      assertFindsEvery(mapped, keys);
    }
    assertEquals(List.of(file), list(file.getParent()), "the temporary files are gone");

    // Filtered by the file itself, which each executor maps: every row with a key is kept.
    long kept = ds.filter(CuckooSpark.mightContain(file.toUri().toString(), functions.col("k"))).count();
    assertEquals(ds.count() - nulls, kept);
  }

  @Test
  void writeRefusesAnExistingPathBeforeAnyJobUnlessToldToReplace() throws IOException {
    Path file = tmp.resolve("taken.cuckoo");
    Files.writeString(file, "not a filter");
    Dataset<Row> ds = rows(DataTypes.LongType, keys("long").subList(0, 100));
    String group = "refuse-" + System.nanoTime();
    spark.sparkContext().setJobGroup(group, "a write that must not start", false);
    try {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> CuckooSpark.write(ds, "k", "classic?capacity=100", file.toString()));
      assertTrue(e.getMessage().contains("exists"), e.getMessage());
      assertEquals(0, spark.sparkContext().statusTracker().getJobIdsForGroup(group).length, "no job ran");
    } finally {
      spark.sparkContext().clearJobGroup();
    }
    assertEquals("not a filter", Files.readString(file));

    CuckooSpark.write(ds, "k", "classic?capacity=100", file.toString(), true);
    try (InputStream in = Files.newInputStream(file)) {
      assertEquals(100, CuckooFilters.read(in).size());
    }
  }

  @Test
  void aCapacityTooSmallNamesTheCountAndLeavesNoFile() throws IOException {
    List<Object> keys = keys("long").subList(0, 5000);
    Dataset<Row> ds = rows(DataTypes.LongType, keys);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CuckooSpark.build(ds, "k", "classic?capacity=1000"));
    assertTrue(e.getMessage().contains("cannot hold the 5000 distinct keys of column 'k': give capacity=5000"),
        e.getMessage());

    Path file = tmp.resolve("small.cuckoo");
    assertThrows(IllegalArgumentException.class, () -> CuckooSpark.write(ds, "k", "classic?capacity=1000",
        file.toString()));
    assertEquals(List.of(), list(tmp), "no file and no temporary files are left");
  }

  @Test
  void anEmptyDatasetNeedsACapacityAndThenGivesAnEmptyFilter() {
    Dataset<Row> empty = rows(DataTypes.StringType, List.of());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CuckooSpark.build(empty, "k", "classic"));
    assertTrue(e.getMessage().contains("no non-null keys"), e.getMessage());
    CuckooFilter filter = CuckooSpark.build(empty, "k", "classic?capacity=100");
    assertEquals(0, filter.size());
    assertFalse(filter.mightContain("anything"));
  }

  @Test
  void aMissingColumnOrOneOfAnotherTypeIsRefusedOnTheDriver() {
    Dataset<Row> ds = spark.sql("SELECT 1.5D AS d, 'x' AS s");
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> CuckooSpark.build(ds, "nope", "classic?capacity=10"));
    assertEquals("column 'nope' is not in the Dataset; its columns: d, s", missing.getMessage());
    IllegalArgumentException type = assertThrows(IllegalArgumentException.class,
        () -> CuckooSpark.build(ds, "d", "classic?capacity=10"));
    assertEquals("column 'd' has type double, which is not a key type: supported are string, binary, bigint, int",
        type.getMessage());
    IllegalArgumentException config = assertThrows(IllegalArgumentException.class,
        () -> CuckooSpark.build(ds, "s", "classic?capacity=10&fingerprintBits=40"));
    assertTrue(config.getMessage().contains("fingerprintBits=40"), config.getMessage());
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.toList();
    }
  }
}
