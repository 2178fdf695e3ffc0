package dev.cuckoo.spark;

import org.apache.spark.Partitioner;

/** Sends shard i's chunks to partition i: one shuffle partition, and so one task, per shard. */
final class ShardPartitioner extends Partitioner {
  private static final long serialVersionUID = 1L;

  private final int shards;

  ShardPartitioner(int shards) {
    this.shards = shards;
  }

  @Override
  public int numPartitions() {
    return shards;
  }

  @Override
  public int getPartition(Object key) {
    return (Integer) key;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ShardPartitioner p && p.shards == shards;
  }

  @Override
  public int hashCode() {
    return shards;
  }
}
