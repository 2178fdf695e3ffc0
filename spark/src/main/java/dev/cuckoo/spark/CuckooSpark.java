package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.classic.ExpressionUtils$;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.analysis.FunctionRegistry;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.FunctionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;
import scala.runtime.BoxedUnit;

/**
 * Cuckoo filters on Apache Spark: build one from a Dataset's column across the cluster, write it
 * to a Hadoop FileSystem, filter Datasets by it, take keys back out, and the same from Spark SQL.
 *
 * <p><b>Keys.</b> A key column is a {@code string} (its UTF-8 bytes), {@code binary} (its bytes),
 * {@code bigint} (its 8 little-endian bytes) or {@code int} (the same number as a {@code
 * bigint}, as Java widens an {@code int} passed to {@code mightContain(long)}): the library's one
 * key rule, so a filter built here answers {@code mightContain} in any JVM and the CLI for the
 * same values. A column of any other type, or one that is not there, is refused with an {@link
 * IllegalArgumentException} on the driver, before any job (a {@code mightContain} column over one
 * fails its query when Spark analyses it, with an {@code AnalysisException}). Null keys are skipped, counted (an
 * accumulator named {@code cuckoo null keys}, shown in the Spark UI) and logged.
 *
 * <p><b>How a build runs</b> (one Spark job; two when the config has no {@code capacity}, which is
 * then the count of non-null rows). The filter is split into S shards by the top bits of a key's
 * hash, each a self-contained table ({@code shards=S}, see {@link dev.cuckoo.FilterShard}). The
 * executors hash their partition's keys and ship the hashes grouped by shard in {@code long[]}
 * chunks; shuffle partition i gets shard i's hashes, and its task builds shard i alone, adding
 * each distinct hash once (a build has set semantics: duplicate rows are stored once). No task
 * holds more than one shard. S is the config's {@code shards} if given; otherwise the smallest
 * count that keeps a shard's table under 32 MB and its keys under 4M, and at least the default
 * parallelism. The shards are joined into one ordinary filter file ({@link
 * CuckooFilters#joinShards}) that {@link CuckooFilters#read} and {@link CuckooFilters#open} take.
 * Only {@code classic} and {@code semi-sorted} can be built in shards.
 *
 * <p><b>Errors</b> are {@link IllegalArgumentException}s on the driver: a bad config (the
 * variant's own message), a column that is missing or of another type, a capacity too small for
 * the data (naming the count of distinct keys, which a capacity must reach), a Dataset with no
 * non-null keys when the capacity is to be taken from the data, a path that exists. A failed
 * build or write leaves no file at the path and removes its temporary files.
 */
public final class CuckooSpark {
  private static final Logger LOG = LoggerFactory.getLogger(CuckooSpark.class);

  private CuckooSpark() {}

  /**
   * Builds a filter of a column's distinct non-null keys, returned on the driver. The shards'
   * bytes come to the driver one task result at a time and go to a local temporary file, which
   * is joined and read; the driver holds the filter once, not its shards as well.
   *
   * @param ds the data
   * @param column the key column's name
   * @param config the filter's config string, e.g. {@code classic?capacity=10000000&targetFpp=0.001};
   *     without {@code capacity}, the capacity is the count of non-null rows (a job of its own)
   * @return the filter, holding every distinct non-null key of the column
   * @throws IllegalArgumentException for the errors in the class comment
   */
  public static CuckooFilter build(Dataset<?> ds, String column, String config) {
    Build b = Build.plan(ds, column, config);
    java.nio.file.Path dir = null;
    try {
      dir = Files.createTempDirectory("cuckoo-spark-");
      java.nio.file.Path local = dir;
      java.nio.file.Path[] files = new java.nio.file.Path[b.plan.shards];
      b.run(null, outcome -> {
        java.nio.file.Path file = local.resolve("shard-" + outcome.index());
        Files.write(file, outcome.bytes());
        files[outcome.index()] = file;
      });
      java.nio.file.Path joined = dir.resolve("joined");
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(joined))) {
        CuckooFilters.joinShards(b.plan.config, b.plan.shards,
            i -> new BufferedInputStream(Files.newInputStream(files[i])), out);
      }
      CuckooFilter filter;
      try (InputStream in = new BufferedInputStream(Files.newInputStream(joined))) {
        filter = CuckooFilters.read(in);
      }
      LOG.info("cuckoo build of column '{}': {} distinct keys in {} shards, {} null keys skipped ({})", column,
          filter.size(), b.plan.shards, b.nulls.sum(), b.plan.config);
      return filter;
    } catch (IOException e) {
      throw new UncheckedIOException("building a filter of column '" + column + "' failed", e);
    } finally {
      deleteLocal(dir);
    }
  }

  /**
   * As {@link #write(Dataset, String, String, String, boolean)}, refusing a path that exists.
   *
   * @param ds the data
   * @param column the key column's name
   * @param config the filter's config string; without {@code capacity}, the count of non-null rows
   * @param path where to write the filter file, which must not exist
   * @return what was written
   */
  public static WrittenFilter write(Dataset<?> ds, String column, String config, String path) {
    return write(ds, column, config, path, false);
  }

  /**
   * Builds a filter of a column's distinct non-null keys and writes it to a Hadoop FileSystem
   * path ({@code file://}, {@code hdfs://}, {@code s3a://}, ...; the FileSystem is the path's,
   * configured by the session's {@code hadoopConfiguration}), for filters too big for the
   * driver. The executors write their shards into a temporary directory beside the path; the
   * driver then streams them into one file in that directory (holding no table, only a buffer)
   * and renames it to the path. Whatever fails, nothing is left at the path (with {@code
   * replace}, the old file stays unless the new one is complete) and the temporary directory is
   * removed.
   *
   * @param ds the data
   * @param column the key column's name
   * @param config the filter's config string; without {@code capacity}, the count of non-null rows
   * @param path where to write the filter file
   * @param replace whether to replace a file already at the path; without it an existing path is
   *     refused on the driver before any job
   * @return what was written
   * @throws IllegalArgumentException for the errors in the class comment; the path exists and
   *     {@code replace} is false, or it is a directory
   * @throws UncheckedIOException if the FileSystem fails
   */
  public static WrittenFilter write(Dataset<?> ds, String column, String config, String path, boolean replace) {
    Configuration conf = ds.sparkSession().sparkContext().hadoopConfiguration();
    Path target = new Path(path);
    FileSystem fs;
    try {
      fs = HadoopPath.fileSystem(target, conf);
      if (fs.exists(target)) {
        if (fs.getFileStatus(target).isDirectory()) {
          throw new IllegalArgumentException("path " + path + " is a directory; give the path of a file");
        }
        if (!replace) {
          throw new IllegalArgumentException("path " + path + " exists; remove it, or write with replace=true");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot reach " + path, e);
    }
    Build b = Build.plan(ds, column, config);
    Path dir = new Path(target.getParent(), "." + target.getName() + ".cuckoo-" + UUID.randomUUID());
    try {
      Path[] files = new Path[b.plan.shards];
      long[] keys = {0};
      b.run(new HadoopPath(dir, conf), outcome -> {
        files[outcome.index()] = new Path(outcome.file());
        keys[0] += outcome.keys();
      });
      Path joined = new Path(dir, "joined");
      try (OutputStream out = fs.create(joined, false)) {
        CuckooFilters.joinShards(b.plan.config, b.plan.shards, i -> fs.open(files[i]), out);
      }
      long bytes = fs.getFileStatus(joined).getLen();
      if (replace && fs.exists(target) && !fs.delete(target, false)) {
        throw new IOException("cannot remove the old " + path);
      }
      if (!fs.rename(joined, target)) {
        throw new IOException("cannot rename " + joined + " to " + path);
      }
      WrittenFilter written = new WrittenFilter(path, keys[0], b.nulls.sum(), b.plan.shards, bytes);
      LOG.info("cuckoo write of column '{}': {}", column, written);
      return written;
    } catch (IOException e) {
      throw new UncheckedIOException("writing a filter of column '" + column + "' to " + path + " failed", e);
    } finally {
      try {
        fs.delete(dir, true);
      } catch (IOException e) {
        LOG.warn("cannot remove the temporary directory {}", dir, e);
      }
    }
  }

  /**
   * A column that is true where {@code key} might be in the filter, for {@code df.filter(...)}.
   * The filter is broadcast once, as its file bytes, and read once per executor; the executor's
   * tasks share it. A null key gives false (a null is not a key), so {@code not(mightContain(...))}
   * keeps rows with null keys. The filter must not change while the column is in use.
   *
   * @param filter the filter
   * @param key a column of a key type (see the class comment); looked up by a Catalyst
   *     expression that hashes a string's UTF-8 bytes where Spark holds them
   * @return a boolean column, never null
   */
  public static Column mightContain(CuckooFilter filter, Column key) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(SparkSession.active().sparkContext());
    Broadcast<SharedFilter> shared = jsc.broadcast(SharedFilter.of(filter));
    return lookupColumn(new ExecutorFilter.Broadcasted(shared), key);
  }

  /**
   * A column that is true where {@code key} might be in the filter file at {@code path}, for
   * {@code df.filter(...)} with a filter too big to broadcast (one {@link #write} wrote, say).
   * Each executor maps the file once ({@link CuckooFilters#open}) and keeps it mapped for the
   * life of its JVM; a file on a FileSystem other than the local one is copied to the
   * executor's temporary directory first. The file must not change while the column is in use:
   * an executor that finds another length or modification time there fails its task. A null
   * key gives false.
   *
   * @param path a filter file of a variant that maps ({@code classic}, {@code semi-sorted}), on
   *     a Hadoop FileSystem the session's {@code hadoopConfiguration} reaches
   * @param key a column of a key type (see the class comment)
   * @return a boolean column, never null
   * @throws IllegalArgumentException if the file cannot be read on the driver
   */
  public static Column mightContain(String path, Column key) {
    SparkSession spark = SparkSession.active();
    MappedFilterFile file = MappedFilterFile.of(new HadoopPath(new Path(path),
        spark.sparkContext().hadoopConfiguration()));
    return lookupColumn(file, key);
  }

  /** The column of a {@link FilterLookup}: Spark's classic API, where an expression is a column. */
  private static Column lookupColumn(ExecutorFilter filter, Column key) {
    return ExpressionUtils$.MODULE$.column(new FilterLookup(ExpressionUtils$.MODULE$.expression(key), filter));
  }

  /**
   * Takes a Dataset's keys back out of a filter: each distinct non-null key of the column is
   * removed once. Runs on the driver, where the filter is: the executors find the distinct keys
   * and encode them, and the driver pulls them one partition at a time ({@code toLocalIterator})
   * and removes them. A filter is one object that is not thread-safe, and removals from
   * partitions cannot be merged as adds can, so they are made in one place. As with every cuckoo
   * filter, only remove keys that were added: removing a key that is not in the filter may
   * remove another key's fingerprint.
   *
   * @param filter the filter, changed in place
   * @param ds the data
   * @param column the key column's name
   * @return how many keys were removed (a key with no fingerprint in the filter is not counted)
   * @throws IllegalArgumentException if the column is missing or not of a key type
   */
  public static long remove(CuckooFilter filter, Dataset<?> ds, String column) {
    KeyColumn.of(ds, column);
    Column key = functions.col(quoted(column));
    JavaRDD<byte[]> keys = ds.select(key).where(key.isNotNull()).distinct().javaRDD()
        .map(row -> KeyColumn.bytesOf(row.get(0)));
    long removed = 0;
    for (Iterator<byte[]> it = keys.toLocalIterator(); it.hasNext(); ) {
      if (filter.remove(it.next())) {
        removed++;
      }
    }
    return removed;
  }

  /**
   * Registers the SQL functions, so Spark SQL and PySpark ({@code spark.sql(...)}) reach the
   * library without Java:
   * <ul>
   *   <li>{@code cuckoo_build(key, 'config')}: an aggregate; the file bytes (BINARY) of a filter
   *       of the distinct non-null keys, null if there are none. The config needs a capacity.
   *       {@code key} is BINARY (a STRING casts to its UTF-8 bytes); give a BIGINT or INT
   *       column as {@code cuckoo_key(col)}. Every task builds a whole filter and the partial
   *       filters are merged, so it suits filters that fit a task; a key in more than
   *       2·bucketSize partitions is stored that many times and may fill its buckets.
   *       Use {@link #build} for large data.
   *   <li>{@code cuckoo_might_contain(filter, key)}: true where the key might be in the filter
   *       whose bytes are given (false for a null key or a null filter); the bytes are read
   *       into a filter once per executor, not once per row. {@code key} may be of any key type;
   *       it is the same Catalyst expression as {@link #mightContain}, so another type fails
   *       the query at analysis.
   *   <li>{@code cuckoo_key(value)}: a key's bytes by the library's rule (null for null).
   * </ul>
   *
   * @param spark the session to register them in
   */
  public static void register(SparkSession spark) {
    spark.udf().register("cuckoo_build", functions.udaf(new FilterAggregator(), Encoders.row(FilterAggregator.INPUT)));
    functionRegistry(spark).createOrReplaceTempFunction("cuckoo_might_contain",
        FunctionConverters.asScalaFromFunction((Seq<Expression> args) -> {
          if (args.size() != 2) {
            throw new IllegalArgumentException("cuckoo_might_contain takes 2 arguments (filter, key), not " + args.size());
          }
          return new FilterLookup(args.apply(0), args.apply(1));
        }), "java_udf");
    UDF1<Object, byte[]> keyBytes = value -> value == null ? null : KeyColumn.bytesOf(value);
    spark.udf().register("cuckoo_key", functions.udf(keyBytes, DataTypes.BinaryType));
  }

  /**
   * Where SQL functions of expressions are registered: Spark's classic session's, which a Spark
   * Connect client does not have (its SQL runs on the server, which must register them).
   */
  private static FunctionRegistry functionRegistry(SparkSession spark) {
    if (spark instanceof org.apache.spark.sql.classic.SparkSession classic) {
      return classic.sessionState().functionRegistry();
    }
    throw new UnsupportedOperationException("register needs a classic SparkSession, not a "
        + spark.getClass().getName() + ": call it where the session runs (the Spark Connect server)");
  }

  private static String quoted(String column) {
    return "`" + column.replace("`", "``") + "`";
  }

  private static void deleteLocal(java.nio.file.Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      LOG.warn("cannot remove the temporary directory {}", dir, e);
    }
  }

  /** Takes each shard's outcome on the driver as its task finishes. */
  @FunctionalInterface
  private interface OutcomeSink {
    void accept(ShardOutcome outcome) throws IOException;
  }

  /** One build's plan and its null counter, made on the driver. */
  private static final class Build {
    final Dataset<Row> keys;
    final ShardPlan plan;
    final LongAccumulator nulls;
    final String column;

    private Build(Dataset<Row> keys, ShardPlan plan, LongAccumulator nulls, String column) {
      this.keys = keys;
      this.plan = plan;
      this.nulls = nulls;
      this.column = column;
    }

    static Build plan(Dataset<?> ds, String column, String config) {
      KeyColumn key = KeyColumn.of(ds, column);
      FilterSpec spec = FilterSpec.parse(config);
      Column col = functions.col(quoted(column));
      Dataset<Row> keys = ds.select(col);
      if (spec.capacity().isEmpty()) {
        long n = keys.where(col.isNotNull()).count();
        if (n == 0) {
          throw new IllegalArgumentException("column '" + column + "' has no non-null keys to take the capacity from;"
              + " give a capacity in the config to build an empty filter");
        }
        spec = spec.toBuilder().capacity(n).build();
      }
      SparkContext sc = ds.sparkSession().sparkContext();
      ShardPlan plan = ShardPlan.of(spec, sc.defaultParallelism(), key);
      return new Build(keys, plan, sc.longAccumulator("cuckoo null keys"), column);
    }

    /**
     * Runs the job: hash, shuffle by shard, build each shard in its task. Hands each outcome to
     * the sink on the driver as its task finishes; if any shard was refused keys, throws when
     * all are in, with the count of distinct keys.
     */
    void run(HadoopPath target, OutcomeSink sink) {
      ShardPlan p = plan;
      LongAccumulator n = nulls;
      JavaRDD<InternalRow> rows = keys.queryExecution().toRdd().toJavaRDD();
      JavaPairRDD<Integer, long[]> chunks = rows.mapPartitionsToPair(
          (PairFlatMapFunction<Iterator<InternalRow>, Integer, long[]>) it -> new ShardChunks(it, p, n));
      JavaRDD<ShardOutcome> shards = chunks.partitionBy(new ShardPartitioner(p.shards))
          .mapPartitions((FlatMapFunction<Iterator<Tuple2<Integer, long[]>>, ShardOutcome>)
              it -> List.of(ShardTask.build(p, it, target)).iterator());
      long[] totals = new long[2];
      IOException[] failed = new IOException[1];
      ClassTag<ShardOutcome> tag = ClassTag$.MODULE$.apply(ShardOutcome.class);
      shards.context().runJob(shards.rdd(),
          (scala.Function1<scala.collection.Iterator<ShardOutcome>, ShardOutcome> & Serializable)
              it -> it.next(),
          (scala.Function2<Object, ShardOutcome, BoxedUnit>) (index, outcome) -> {
            totals[0] += outcome.keys();
            totals[1] += outcome.refused();
            if (outcome.refused() == 0 && failed[0] == null) {
              try {
                sink.accept(outcome);
              } catch (IOException e) {
                failed[0] = e;
              }
            }
            return BoxedUnit.UNIT;
          },
          tag);
      if (failed[0] != null) {
        throw new UncheckedIOException("keeping a shard's result failed", failed[0]);
      }
      if (totals[1] > 0) {
        long capacity = FilterSpec.parse(p.config).capacity().orElseThrow();
        throw new IllegalArgumentException("capacity=" + capacity + " cannot hold the " + totals[0]
            + " distinct keys of column '" + column + "': give capacity=" + Math.max(totals[0], capacity + capacity / 4)
            + " or more (" + totals[1] + " keys did not fit; config " + p.config + ")");
      }
    }
  }
}
