package dev.cuckoo.spark;

import org.apache.spark.sql.SparkSessionExtensions;
import scala.Function1;
import scala.jdk.javaapi.FunctionConverters;
import scala.runtime.BoxedUnit;

/**
 * The SQL functions as a Spark session extension: set {@code
 * spark.sql.extensions=dev.cuckoo.spark.CuckooSparkExtensions} (with this module's jar on the
 * class path) and every session has them, from SQL, PySpark, the Thrift server or a Spark
 * Connect server, with no code. {@link CuckooSpark#register} adds the same functions to a
 * session that is already running.
 *
 * <ul>
 *   <li>{@code cuckoo_build(key, 'config')}: an aggregate; the file bytes (BINARY) of a filter of
 *       the distinct non-null keys, null if there are none. Without a {@code capacity} the filter
 *       is sized for the distinct keys. A query whose only aggregate is the build is planned
 *       as {@link CuckooSpark#build}'s sharded build ({@link ShardedSqlBuild}); beside other
 *       aggregates it is an aggregate whose last task holds 8 bytes per distinct key.
 *   <li>{@code cuckoo_might_contain(filter, key)}: true where the key might be in the filter;
 *       false for a null key or a null filter. The filter is given once for the query, as a
 *       literal or a scalar subquery ({@code (SELECT cuckoo_build(url, 'classic') FROM seen)}, or
 *       a written file: {@code (SELECT content FROM binaryFile.`/filters/seen.cuckoo`)}), and is
 *       read once per executor; a filter column of a join is refused, naming that form.
 *   <li>{@code cuckoo_key(value)}: a key's bytes by the library's rule, null for null.
 * </ul>
 *
 * <p>Keys are {@code string}, {@code binary}, {@code bigint} or {@code int} (see {@link
 * CuckooSpark}). Every check is made when the query is analysed, on the driver, with Spark's
 * error classes: the argument count ({@code WRONG_NUM_ARGS}), a key's type ({@code
 * DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE}), a config that is not a literal ({@code
 * DATATYPE_MISMATCH.NON_FOLDABLE_INPUT}) or that the library refuses ({@code
 * INVALID_PARAMETER_VALUE}, with the library's message). {@code DESCRIBE FUNCTION} shows each
 * one's usage.
 */
public final class CuckooSparkExtensions implements Function1<SparkSessionExtensions, BoxedUnit> {

  /** Made by Spark, from the class name in {@code spark.sql.extensions}. */
  public CuckooSparkExtensions() {}

  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    SqlFunctions.inject(extensions);
    extensions.injectPlannerStrategy(FunctionConverters.asScalaFromFunction(session -> new ShardedSqlBuild()));
    return BoxedUnit.UNIT;
  }
}
