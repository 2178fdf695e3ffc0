package dev.cuckoo.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.testkit.TestSeed;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link FilterLookup}, the expression behind {@code CuckooSpark.mightContain} and SQL's {@code
 * cuckoo_might_contain}: for every key type, its generated code and its interpreted {@code eval}
 * answer as the plain-Java filter does for the same values, and a column of another type fails
 * the query on the driver.
 */
class FilterLookupTest {
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = LocalSpark.session();
  }

  /** Keys of one type, half of them added, with a null and the edge values of the type. */
  private record Keys(DataType type, List<Object> all, CuckooFilter filter) {
    static Keys of(DataType type, SplittableRandom random) {
      CuckooFilter filter = CuckooFilters.create("classic?capacity=4000&fingerprintBits=8");
      List<Object> all = new ArrayList<>();
      for (int i = 0; i < 3000; i++) {
        Object k = value(type, i, random);
        all.add(k);
        if (i % 2 == 0) {
          add(filter, k);
        }
      }
      all.add(null);
      return new Keys(type, all, filter);
    }

    private static Object value(DataType type, int i, SplittableRandom random) {
      if (type.equals(DataTypes.StringType)) {
        // ASCII, two-, three- and four-byte UTF-8, and the empty string
        String[] shapes = {"key-", "clé-", "键-", "\uD83D\uDE00-", ""};
        return i < 5 ? shapes[i] : shapes[i % 5] + random.nextLong();
      } else if (type.equals(DataTypes.BinaryType)) {
        byte[] b = new byte[i % 17];
        random.nextBytes(b);
        return b;
      } else if (type.equals(DataTypes.IntegerType)) {
        int[] edges = {0, -1, 1, Integer.MIN_VALUE, Integer.MAX_VALUE};
        return i < edges.length ? edges[i] : random.nextInt();
      }
      long[] edges = {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE};
      return i < edges.length ? edges[i] : random.nextLong();
    }

    private static void add(CuckooFilter filter, Object k) {
      if (k instanceof String s) {
        filter.add(s);
      } else if (k instanceof byte[] b) {
        filter.add(b);
      } else if (k instanceof Integer n) {
        filter.add(n.longValue());
      } else {
        filter.add((Long) k);
      }
    }

    /** The plain-Java lookup of a key as this test made it. */
    boolean expected(Object k) {
      if (k instanceof String s) {
        return filter.mightContain(s);
      } else if (k instanceof byte[] b) {
        return filter.mightContain(b);
      } else if (k instanceof Integer n) {
        return filter.mightContain(n.longValue());
      }
      return k != null && filter.mightContain((Long) k);
    }

    Dataset<Row> rows() {
      List<Row> rows = new ArrayList<>();
      for (int i = 0; i < all.size(); i++) {
        rows.add(RowFactory.create(i, all.get(i)));
      }
      return spark.createDataFrame(rows, new StructType().add("i", DataTypes.IntegerType).add("k", type)).repartition(3);
    }
  }

  private static final DataType[] TYPES = {DataTypes.StringType, DataTypes.BinaryType, DataTypes.LongType,
      DataTypes.IntegerType};

  @Test
  void generatedCodeAnswersAsTheFilterForEveryKeyType() {
    SplittableRandom random = TestSeed.random("FilterLookup generated");
    for (DataType type : TYPES) {
      Keys keys = Keys.of(type, random);
      Dataset<Row> answers = keys.rows().select(functions.col("i"),
          CuckooSpark.mightContain(keys.filter(), functions.col("k")).as("hit"));
      StringBuilder code = new StringBuilder();
      answers.queryExecution().debug().codegenToSeq().foreach(t -> code.append(t._2()));
      assertTrue(code.indexOf("cuckooLookup") >= 0, "the lookup is not in the generated code of " + type);
      int found = 0;
      for (Row r : answers.collectAsList()) {
        Object k = keys.all().get(r.getInt(0));
        assertEquals(keys.expected(k), r.getBoolean(1), type + " key " + k + "; " + TestSeed.rerun());
        found += r.getBoolean(1) ? 1 : 0;
      }
      assertTrue(found >= 1500, type + ": " + found + " found of 1500 added");
    }
  }

  @Test
  void evalAnswersAsTheFilterForEveryKeyType() {
    SplittableRandom random = TestSeed.random("FilterLookup eval");
    for (DataType type : TYPES) {
      Keys keys = Keys.of(type, random);
      ExecutorFilter held = keys::filter;
      for (Object k : keys.all()) {
        Object catalyst = k instanceof String s ? UTF8String.fromString(s) : k;
        FilterLookup lookup = new FilterLookup(Literal.create(catalyst, type), held);
        assertEquals(keys.expected(k), lookup.eval(null), type + " key " + k + "; " + TestSeed.rerun());
      }
    }
  }

  @Test
  void aStringInsideALargerBufferIsHashedByItsOwnBytes() {
    CuckooFilter filter = CuckooFilters.create("classic?capacity=100");
    filter.add("middle");
    byte[] buffer = "left|middle|right".getBytes(StandardCharsets.UTF_8);
    UTF8String middle = UTF8String.fromBytes(buffer, 5, 6);
    ExecutorFilter held = () -> filter;
    assertEquals(true, new FilterLookup(Literal.create(middle, DataTypes.StringType), held).eval(null));
    UTF8String left = UTF8String.fromBytes(buffer, 0, 4);
    assertEquals(filter.mightContain("left"), new FilterLookup(Literal.create(left, DataTypes.StringType), held)
        .eval(null));
  }

  @Test
  void aColumnOfAnotherTypeFailsTheQueryOnTheDriver() {
    CuckooFilter filter = CuckooFilters.create("classic?capacity=100");
    Dataset<Row> doubles = spark.range(10).select(functions.col("id").cast(DataTypes.DoubleType).as("d"));
    Column hit = CuckooSpark.mightContain(filter, functions.col("d"));
    AnalysisException e = assertThrows(AnalysisException.class, () -> doubles.filter(hit));
    assertEquals("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", e.getCondition());
    assertTrue(e.getMessage().contains("(\"STRING\" or \"BINARY\" or \"BIGINT\" or \"INT\")")
        && e.getMessage().contains("\"DOUBLE\""), e.getMessage());
  }

  @Test
  void theSqlFunctionIsTheSameExpressionOverAScalarSubquerysBytes() throws Exception {
    SplittableRandom random = TestSeed.random("FilterLookup sql");
    for (DataType type : TYPES) {
      Keys keys = Keys.of(type, random);
      java.io.ByteArrayOutputStream file = new java.io.ByteArrayOutputStream();
      keys.filter().writeTo(file);
      keys.rows().createOrReplaceTempView("lookup_keys");
      spark.createDataFrame(List.of(RowFactory.create((Object) file.toByteArray())),
          new StructType().add("f", DataTypes.BinaryType)).createOrReplaceTempView("lookup_filter");
      Dataset<Row> answers = spark.sql("SELECT i, cuckoo_might_contain((SELECT f FROM lookup_filter), k)"
          + " FROM lookup_keys");
      StringBuilder code = new StringBuilder();
      answers.queryExecution().debug().codegenToSeq().foreach(t -> code.append(t._2()));
      assertTrue(code.indexOf("cuckooLookup") >= 0, "the lookup is not in the generated code of " + type);
      for (Row r : answers.collectAsList()) {
        Object k = keys.all().get(r.getInt(0));
        assertEquals(keys.expected(k), r.getBoolean(1), type + " key " + k + "; " + TestSeed.rerun());
      }
    }
    assertEquals(false, spark.sql("SELECT cuckoo_might_contain(CAST(NULL AS BINARY), 'a')").first().getBoolean(0));
    assertEquals(false, spark.sql("SELECT cuckoo_might_contain(NULL, 'a')").first().getBoolean(0));
  }

  @Test
  void theSqlFunctionRefusesWhatIsNotAFilterOrAKey() {
    AnalysisException key = assertThrows(AnalysisException.class,
        () -> spark.sql("SELECT cuckoo_might_contain(X'00', 1.5D)"));
    assertEquals("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", key.getCondition());
    assertTrue(key.getMessage().contains("second parameter") && key.getMessage().contains("\"DOUBLE\""),
        key.getMessage());
    AnalysisException notBytes = assertThrows(AnalysisException.class,
        () -> spark.sql("SELECT cuckoo_might_contain('not bytes', 'a')"));
    assertEquals("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", notBytes.getCondition());
    assertTrue(notBytes.getMessage().contains("\"BINARY\""), notBytes.getMessage());
    AnalysisException arity = assertThrows(AnalysisException.class, () -> spark.sql("SELECT cuckoo_might_contain('a')"));
    assertEquals("WRONG_NUM_ARGS.WITHOUT_SUGGESTION", arity.getCondition());
    assertTrue(arity.getMessage().contains("requires 2 parameters but the actual number is 1"), arity.getMessage());
  }

  @Test
  void catalystCopiesTheExpression() {
    CuckooFilter filter = CuckooFilters.create("classic?capacity=100");
    filter.add(7L);
    ExecutorFilter held = () -> filter;
    Expression lookup = new FilterLookup(Literal.create(7L, DataTypes.LongType), held);
    assertEquals(true, lookup.clone().eval(null));
    Expression copy = lookup.withNewChildren(
        scala.jdk.javaapi.CollectionConverters.asScala(List.<Expression>of(Literal.create(8L, DataTypes.LongType)))
            .toSeq());
    assertEquals(filter.mightContain(8L), copy.eval(null));
    assertEquals(lookup, lookup.clone());
    assertEquals(lookup, lookup.makeCopy(new Object[] {null, lookup.children().head(), held}));
    Expression sql = new FilterLookup(Literal.create(new byte[] {1}, DataTypes.BinaryType),
        Literal.create(7L, DataTypes.LongType));
    assertEquals(sql, sql.clone());
    assertEquals(2, sql.children().size());
    // a literal key: Catalyst folds nothing of it (the lookup is not foldable) and runs it in a task
    Column c = CuckooSpark.mightContain(filter, functions.lit(7L));
    assertEquals(true, spark.range(1).select(c).first().getBoolean(0));
  }
}
