package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.util.Iterator;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.classic.ExpressionUtils$;
import org.apache.spark.sql.functions;

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
 * <p><b>How a build runs</b> ({@link ShardBuild}: one Spark job; without a {@code capacity} in the
 * config, a count of the non-null rows first, and the filter is sized for the distinct keys,
 * which the shard tasks count exactly before they build). The filter is split into S shards by the top bits of a key's
 * hash, each a self-contained table ({@code shards=S}, see {@link dev.cuckoo.FilterShard}). The
 * executors hash their partition's keys and ship the hashes grouped by shard in {@code long[]}
 * chunks; shuffle partition i gets shard i's hashes, and its task builds shard i alone, adding
 * each distinct hash once (a build has set semantics: duplicate rows are stored once). No task
 * holds more than one shard. S is the config's {@code shards} if given; otherwise the smallest
 * count that keeps a shard's table under 32 MB and its keys under 4M, and at least the default
 * parallelism. The shards are joined into one ordinary filter file ({@link
 * CuckooFilters#joinShards}) that {@link CuckooFilters#read} and {@link CuckooFilters#open} take.
 * Only a variant whose files map ({@code classic}, {@code semi-sorted}) can be built in shards;
 * another is refused with an {@link UnsupportedOperationException} before any job.
 *
 * <p><b>Errors</b> are {@link IllegalArgumentException}s on the driver, before any job unless
 * said: a bad config (the variant's own message), a column that is missing or of another type, a
 * path that exists or whose directory cannot be written, a filter file that is not one or does
 * not map; after the job, a capacity too small for the data (naming the count of distinct keys,
 * which a capacity must reach), and before the build, a Dataset with no non-null keys when the
 * capacity is to be taken from the data. A failed build or write leaves no file at the path and
 * removes its temporary files. The SQL functions are {@link CuckooSparkExtensions}.
 */
public final class CuckooSpark {
  private CuckooSpark() {}

  /**
   * Builds a filter of a column's distinct non-null keys, returned on the driver. The shards'
   * bytes come to the driver one task result at a time and go to a local temporary file, which
   * is joined and read; the driver holds the filter once, not its shards as well.
   *
   * @param ds the data
   * @param column the key column's name
   * @param config the filter's config string, e.g. {@code classic?capacity=10000000&targetFpp=0.001};
   *     without {@code capacity}, the filter is sized for the column's distinct keys
   * @return the filter, holding every distinct non-null key of the column
   * @throws IllegalArgumentException for the errors in the class comment
   * @throws UnsupportedOperationException for a variant that cannot be built in shards
   */
  public static CuckooFilter build(Dataset<?> ds, String column, String config) {
    return ShardBuild.plan(ds, column, config).toDriver();
  }

  /**
   * As {@link #write(Dataset, String, String, String, boolean)}, refusing a path that exists.
   *
   * @param ds the data
   * @param column the key column's name
   * @param config the filter's config string; without {@code capacity}, sized for the distinct keys
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
   * @param config the filter's config string; without {@code capacity}, sized for the distinct keys
   * @param path where to write the filter file
   * @param replace whether to replace a file already at the path; without it an existing path is
   *     refused on the driver before any job
   * @return what was written
   * @throws IllegalArgumentException for the errors in the class comment; the path exists and
   *     {@code replace} is false, or it is a directory, or its directory cannot be written
   * @throws UnsupportedOperationException for a variant that cannot be built in shards
   * @throws java.io.UncheckedIOException if the FileSystem fails
   */
  public static WrittenFilter write(Dataset<?> ds, String column, String config, String path, boolean replace) {
    return ShardBuild.toPath(ds, column, config, path, replace);
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
    return lookupColumn(new ExecutorFilter.Broadcasted(shared, filter.spec().keyKind().orElse(null)), key);
  }

  /**
   * A column that is true where {@code key} might be in the filter file at {@code path}, for
   * {@code df.filter(...)} with a filter too big to broadcast (one {@link #write} wrote, say).
   * Each executor maps the file once ({@link CuckooFilters#open}) and keeps it mapped for the
   * life of its JVM; a file on a FileSystem other than the local one is copied to the
   * executor's temporary directory first. The file must not change while the column is in use:
   * each task checks the file's length, time and checksum against those the driver noted, and
   * a changed file fails the query, naming the path. A null key gives false.
   *
   * @param path a filter file of a variant that maps ({@code classic}, {@code semi-sorted}), on
   *     a Hadoop FileSystem the session's {@code hadoopConfiguration} reaches
   * @param key a column of a key type (see the class comment)
   * @return a boolean column, never null
   * @throws IllegalArgumentException naming the path, if it is missing, a directory, or (on the
   *     local FileSystem, where its header is read on the driver) not a filter file, damaged, or
   *     of a variant that does not map
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
   * partitions cannot be merged as adds can, so they are made in one place.
   *
   * <p>A task that fails and is run again, or that Spark runs twice by speculation, removes
   * nothing twice: the driver removes the keys of the one result per partition Spark accepts.
   * A whole call run again is another matter. As with every cuckoo filter, only remove keys that
   * were added: removing a key that is not in the filter removes another key's fingerprint
   * where the two collide (about the filter's false-positive rate per key), and that key is then
   * reported absent. A second call over the same keys is such a removal. Remove from a copy, or
   * record which removals were made (with the filter, in one place), where a job may be rerun.
   *
   * @param filter the filter, changed in place
   * @param ds the data
   * @param column the key column's name
   * @return how many keys were removed (a key with no fingerprint in the filter is not counted)
   * @throws IllegalArgumentException if the column is missing or not of a key type, or of
   *     another kind than the keys the filter records it was built from
   */
  public static long remove(CuckooFilter filter, Dataset<?> ds, String column) {
    String problem = KeyColumn.of(ds, column).mismatch(filter, column);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    Column key = functions.col(ShardBuild.quoted(column));
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
   * Registers the SQL functions in one session, where setting {@code
   * spark.sql.extensions=dev.cuckoo.spark.CuckooSparkExtensions} is not possible (a session that
   * is already running): the same functions, with the same checks, as {@link
   * CuckooSparkExtensions} describes.
   *
   * @param spark the session to register them in
   * @throws UnsupportedOperationException for a Spark Connect client's session, whose SQL runs
   *     on the server: set the extension there
   */
  public static void register(SparkSession spark) {
    if (spark instanceof org.apache.spark.sql.classic.SparkSession classic) {
      SqlFunctions.register(classic.sessionState().functionRegistry());
      ShardedSqlBuild.addTo(classic);
      return;
    }
    throw new UnsupportedOperationException("register needs a classic SparkSession, not a "
        + spark.getClass().getName() + ": set spark.sql.extensions=" + CuckooSparkExtensions.class.getName()
        + " on the Spark Connect server");
  }
}
