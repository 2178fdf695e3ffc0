package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import java.io.Serializable;

/**
 * How one build splits its filter: the config every shard is created from (with {@code capacity}
 * and {@code shards} filled in) and the sizes of the chunks the map side ships. Made on the
 * driver, shipped to every task.
 *
 * <p>S is the user's {@code shards} if the config has it; otherwise the smallest count that
 * keeps a shard's table under {@value #SHARD_TABLE_BYTES} bytes and its keys under {@value
 * #SHARD_KEYS} (a building task holds its shard's table and its hashes, 8 bytes each, at once),
 * and at least the cluster's default parallelism, so every core builds.
 */
final class ShardPlan implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The most bytes of table one shard gets when S is chosen here. */
  static final long SHARD_TABLE_BYTES = 32L << 20;
  /** The most keys (hashes held while its shard is built) one shard gets when S is chosen here. */
  static final long SHARD_KEYS = 4L << 20;
  /** The most shards chosen here; a user may ask for more, up to the variant's limit. */
  static final int MAX_CHOSEN_SHARDS = 1 << 16;
  /** What one map task's chunk buffers may hold in all, across the shards. */
  private static final long CHUNK_BUFFER_BYTES = 16L << 20;
  /** Keys whose filter is built to measure the bytes per key of a config. */
  private static final long PROBE_CAPACITY = 1L << 16;

  final String config;
  final int shards;
  final int chunkLongs;
  final KeyColumn key;

  private ShardPlan(String config, int shards, KeyColumn key) {
    this.config = config;
    this.shards = shards;
    this.key = key;
    this.chunkLongs = (int) Math.max(256, Math.min(8192, CHUNK_BUFFER_BYTES / 8 / shards));
  }

  /**
   * @param spec the user's spec, with a capacity
   * @param parallelism the cluster's default parallelism
   */
  static ShardPlan of(FilterSpec spec, int parallelism, KeyColumn key) {
    long capacity = spec.capacity().orElseThrow();
    int shards;
    if (spec.option(FilterSpec.SHARDS).isPresent()) {
      shards = Integer.parseInt(spec.option(FilterSpec.SHARDS).get());
    } else {
      double bytesPerKey = bytesPerKey(spec);
      long byTable = (long) Math.ceil(capacity * bytesPerKey / SHARD_TABLE_BYTES);
      long byKeys = (capacity + SHARD_KEYS - 1) / SHARD_KEYS;
      shards = (int) Math.min(MAX_CHOSEN_SHARDS, Math.max(Math.max(byTable, byKeys), Math.max(1, parallelism)));
    }
    String config = spec.toBuilder().set(FilterSpec.SHARDS, Integer.toString(shards)).build().toString();
    // The variant checks the config (and that it can be sharded) here, on the driver.
    CuckooFilters.createShard(config, 0);
    return new ShardPlan(config, shards, key);
  }

  /** The table bytes per key of the spec, from a small filter of the same shape. */
  private static double bytesPerKey(FilterSpec spec) {
    long probe = Math.min(PROBE_CAPACITY, spec.capacity().orElseThrow());
    FilterSpec small = spec.toBuilder().capacity(probe).build();
    CuckooFilter f = CuckooFilters.create(small);
    return (double) f.sizeInBytes() / probe;
  }
}
