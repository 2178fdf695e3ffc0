/**
 * Cuckoo filters on Apache Spark: {@link dev.cuckoo.spark.CuckooSpark} builds a filter from a
 * Dataset's column across the cluster, writes it to a Hadoop FileSystem, filters Datasets by
 * it, and takes keys back out; {@link dev.cuckoo.spark.CuckooSparkExtensions} (set as {@code
 * spark.sql.extensions}) gives every session the SQL functions {@code cuckoo_build}, {@code
 * cuckoo_might_contain} and {@code cuckoo_key}.
 */
package dev.cuckoo.spark;
