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
import org.apache.spark.HashPartitioner;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.functions;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;
import scala.runtime.BoxedUnit;

/**
 * The job behind {@link CuckooSpark#build} and {@link CuckooSpark#write}: one build's plan, its
 * shuffle of key hashes by shard, and the tasks that build the shards (see the class comment of
 * {@link CuckooSpark} for the shape of it).
 *
 * <p>Without a capacity in the config the filter is sized for the column's distinct keys, counted
 * exactly: the non-null rows are counted first (an upper bound on the keys, which fixes the shard
 * count and so what a task holds), then the shard tasks sort their hashes and report how many are
 * distinct, and the shards are built at that capacity from the same shuffle output, which Spark
 * keeps: the map stage runs once.
 */
final class ShardBuild {
  private static final Logger LOG = LoggerFactory.getLogger(ShardBuild.class);

  /** The key column, alone. */
  private final Dataset<Row> keys;
  private final String column;
  private final LongAccumulator nulls;
  /** The hashes of the keys, by shard: planned once, run by every job of the build. */
  private final JavaPairRDD<Integer, long[]> shuffled;
  /** The plan the shards are built by, with the capacity the build settled on. */
  private ShardPlan plan;
  /** The distinct keys the shards of a build to the driver hold, once it has run. */
  private long builtKeys;

  private ShardBuild(Dataset<?> ds, String column, FilterSpec spec) {
    KeyColumn key = KeyColumn.of(ds, column);
    Column col = functions.col(quoted(column));
    this.keys = ds.select(col);
    this.column = column;
    SparkContext sc = ds.sparkSession().sparkContext();
    FilterSpec sized = spec;
    if (spec.capacity().isEmpty()) {
      long rows = keys.where(col.isNotNull()).count();
      if (rows == 0) {
        throw new IllegalArgumentException("column '" + column + "' has no non-null keys to take the capacity from;"
            + " give a capacity in the config to build an empty filter");
      }
      sized = spec.toBuilder().capacity(rows).build();
    }
    this.plan = ShardPlan.of(sized, sc.defaultParallelism(), key);
    this.nulls = sc.longAccumulator("cuckoo null keys");
    ShardPlan p = plan;
    LongAccumulator n = nulls;
    JavaRDD<InternalRow> rows = keys.queryExecution().toRdd().toJavaRDD();
    // Shard i's chunks, keyed by i, go to partition i: one shuffle partition, and so one task, per
    // shard. Spark's HashPartitioner does that already: an Integer key in [0, n) is its own hash
    // modulo n.
    this.shuffled = rows.mapPartitionsToPair(
            (PairFlatMapFunction<Iterator<InternalRow>, Integer, long[]>) it -> new ShardChunks(it, p, n))
        .partitionBy(new HashPartitioner(p.shards));
    if (spec.capacity().isEmpty()) {
      long distinct = countDistinct();
      this.plan = ShardPlan.of(spec.toBuilder().capacity(distinct).set(FilterSpec.SHARDS, Integer.toString(p.shards))
          .build(), p.shards, key);
    }
  }

  /**
   * Plans a build, checking on the driver, before any job, what can be checked there.
   *
   * @throws IllegalArgumentException for a bad config or key column, or no keys to size by
   * @throws UnsupportedOperationException for a variant that cannot be built in shards
   */
  static ShardBuild plan(Dataset<?> ds, String column, String config) {
    FilterSpec spec = BuildConfig.checked(config, KeyColumn.of(ds, column), column);
    return new ShardBuild(ds, column, spec);
  }

  /** The build of {@link CuckooSpark#build}: the shards come to a local temporary file, which is joined and read. */
  CuckooFilter toDriver() {
    return joinedLocally(joined -> {
      CuckooFilter filter;
      try (InputStream in = new BufferedInputStream(Files.newInputStream(joined))) {
        filter = CuckooFilters.read(in);
      }
      LOG.info("cuckoo build of column '{}': {} distinct keys in {} shards, {} null keys skipped ({})", column,
          filter.size(), plan.shards, nulls.sum(), plan.config);
      return filter;
    });
  }

  /**
   * The build of SQL's {@code cuckoo_build} when it is planned as a sharded build ({@link
   * ShardedSqlBuild}): the joined file's bytes, the aggregate's value; null where the column has
   * no non-null keys, as the aggregate gives.
   *
   * @throws IllegalArgumentException for a config or column the aggregate's checks passed but a
   *     build refuses (a capacity too small for the keys)
   */
  static byte[] planForSql(Dataset<?> ds, String column, String config) {
    FilterSpec spec = BuildConfig.checked(config, KeyColumn.of(ds, column), column);
    if (spec.capacity().isEmpty()) {
      // Without a capacity the build counts the keys first, and refuses none: ask that here.
      Column col = functions.col(quoted(column));
      if (ds.select(col).where(col.isNotNull()).isEmpty()) {
        return null;
      }
    }
    ShardBuild b = new ShardBuild(ds, column, spec);
    byte[] bytes = b.joinedLocally(Files::readAllBytes);
    return b.builtKeys == 0 ? null : bytes;
  }

  /** What a reader of the joined file makes of it. */
  private interface JoinedFile<T> {
    T read(java.nio.file.Path joined) throws IOException;
  }

  /** Runs the build with the shards written to a local temporary directory, joins them there, and reads the join. */
  private <T> T joinedLocally(JoinedFile<T> reader) {
    java.nio.file.Path dir = null;
    try {
      dir = Files.createTempDirectory("cuckoo-spark-");
      java.nio.file.Path local = dir;
      java.nio.file.Path[] files = new java.nio.file.Path[plan.shards];
      run(null, outcome -> {
        java.nio.file.Path file = local.resolve("shard-" + outcome.index());
        Files.write(file, outcome.bytes());
        files[outcome.index()] = file;
        builtKeys += outcome.keys();
      });
      java.nio.file.Path joined = dir.resolve("joined");
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(joined))) {
        CuckooFilters.joinShards(plan.config, plan.shards,
            i -> new BufferedInputStream(Files.newInputStream(files[i])), out);
      }
      return reader.read(joined);
    } catch (IOException e) {
      throw new UncheckedIOException("building a filter of column '" + column + "' failed", e);
    } finally {
      deleteLocal(dir);
    }
  }

  /**
   * The build of {@link CuckooSpark#write}. The target is checked, and the temporary directory
   * beside it made, before any job: a path that cannot be written is refused on the driver.
   */
  static WrittenFilter toPath(Dataset<?> ds, String column, String config, String path, boolean replace) {
    Configuration conf = ds.sparkSession().sparkContext().hadoopConfiguration();
    Path target = new Path(path);
    FileSystem fs;
    Path dir = new Path(target.getParent(), "." + target.getName() + ".cuckoo-" + UUID.randomUUID());
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
    FilterSpec spec = BuildConfig.checked(config, KeyColumn.of(ds, column), column);
    try {
      if (!fs.mkdirs(dir)) {
        throw new IOException("mkdirs returned false");
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot write to " + path + ": its directory " + target.getParent()
          + " cannot take the build's temporary directory (" + e.getMessage() + ")", e);
    }
    try {
      ShardBuild b = new ShardBuild(ds, column, spec);
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

  /** Takes each shard's outcome on the driver as its task finishes. */
  @FunctionalInterface
  private interface OutcomeSink {
    void accept(ShardOutcome outcome) throws IOException;
  }

  /** The distinct keys of the column: each shard's task sorts its hashes and counts the distinct ones. */
  private long countDistinct() {
    List<Long> counts = shuffled.mapPartitions(
        (FlatMapFunction<Iterator<Tuple2<Integer, long[]>>, Long>) it ->
            List.of(distinctOf(ShardTask.gather(it))).iterator()).collect();
    long distinct = counts.stream().mapToLong(Long::longValue).sum();
    // Every row was null-checked by the count before: at least one distinct key.
    return Math.max(1, distinct);
  }

  private static long distinctOf(long[] hashes) {
    return ShardTask.distinct(hashes, hashes.length);
  }

  /**
   * Runs the job: build each shard in its task from the shuffle. Hands each outcome to the sink
   * on the driver as its task finishes; if any shard was refused keys, throws when all are in,
   * with the count of distinct keys.
   */
  private void run(HadoopPath target, OutcomeSink sink) {
    ShardPlan p = plan;
    JavaRDD<ShardOutcome> shards = shuffled.mapPartitions((FlatMapFunction<Iterator<Tuple2<Integer, long[]>>,
        ShardOutcome>) it -> List.of(ShardTask.build(p, it, target)).iterator());
    long[] totals = new long[2];
    IOException[] failed = new IOException[1];
    ClassTag<ShardOutcome> tag = ClassTag$.MODULE$.apply(ShardOutcome.class);
    shards.context().runJob(shards.rdd(),
        (scala.Function1<scala.collection.Iterator<ShardOutcome>, ShardOutcome> & Serializable) it -> it.next(),
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

  static String quoted(String column) {
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
}
