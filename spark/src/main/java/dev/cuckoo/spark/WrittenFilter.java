package dev.cuckoo.spark;

/**
 * What {@link CuckooSpark#write} wrote: where, how many keys, and how many rows it skipped.
 *
 * @param path the filter file's path, as given
 * @param keys the distinct non-null keys stored
 * @param nullKeys the rows whose key was null, skipped (an accumulator's sum: a task that Spark
 *     ran twice counts twice)
 * @param shards the number of shards the filter was built in
 * @param bytes the file's length in bytes
 */
public record WrittenFilter(String path, long keys, long nullKeys, int shards, long bytes) {}
