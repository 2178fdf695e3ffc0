package dev.cuckoo.spark;

import java.io.Serializable;

/**
 * What the task that built one shard reports to the driver.
 *
 * @param index the shard
 * @param keys the distinct keys routed to it
 * @param refused how many of them the shard could not take (0 unless the capacity is too small)
 * @param bytes the shard's bytes ({@code FilterShard.writeTo}) when they travel to the driver,
 *     else null
 * @param file the file the task wrote them to, else null
 */
// A message from a task to the driver, read once and never compared: the array's identity
// semantics in equals do not matter.
@SuppressWarnings("ArrayRecordComponent")
record ShardOutcome(int index, long keys, long refused, byte[] bytes, String file) implements Serializable {
  private static final long serialVersionUID = 1L;
}
