package dev.cuckoo;

import dev.cuckoo.spi.HashStrategy;
import java.util.Objects;

/**
 * Hashes keys exactly as a filter of one config hashes them, and names the shard each key
 * belongs to: what a job building a sharded filter ({@link FilterShard}) routes its keys by.
 * {@link CuckooFilters#keyHasher} makes one; it is cheap, so build one per task from the config
 * string rather than shipping it (the hash inside need not be serializable).
 *
 * <p>Key encoding is the library's one rule ({@link CuckooFilter}): {@code hash(key)} is the
 * hash {@code filter.add(key)} uses. The shard of a hash is its top bits scaled to {@code [0,
 * shards())}: {@code floor((keyHash >>> 1) · S / 2^63)}, which is also the bucket index's shard
 * (the guide's file-format chapter).
 */
public final class ShardRouter {
  private final HashStrategy hash;
  private final int shards;

  ShardRouter(HashStrategy hash, int shards) {
    this.hash = Objects.requireNonNull(hash, "hash");
    this.shards = shards;
  }

  /**
   * @param key the key's bytes
   * @return its 64-bit hash, as the filter computes it
   */
  public long hash(byte[] key) {
    return hash.hashBytes(key, 0, key.length);
  }

  /**
   * @param key an array holding the key's bytes
   * @param off where they start
   * @param len how many there are
   * @return the hash of those bytes, as the filter computes it
   * @throws IndexOutOfBoundsException if the range is outside the array
   */
  public long hash(byte[] key, int off, int len) {
    Objects.checkFromIndexSize(off, len, key.length);
    return hash.hashBytes(key, off, len);
  }

  /**
   * @param keyHash a key's 64-bit hash
   * @return the shard the key belongs to, in {@code [0, shards())}
   */
  public int shardOf(long keyHash) {
    // The rule of PartialKeyHashing.bucketIndex with S buckets: the high word of (h >>> 1)·2S.
    return (int) Math.multiplyHigh(keyHash >>> 1, (long) shards << 1);
  }

  /** @return the filter's shard count S, 1 for a filter that is not sharded */
  public int shards() {
    return shards;
  }

  @Override
  public String toString() {
    return "ShardRouter[" + hash.name() + ", shards=" + shards + "]";
  }
}
