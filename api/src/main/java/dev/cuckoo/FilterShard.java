package dev.cuckoo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * One shard of a sharded filter ({@code shards=S} in its config), built apart from the others:
 * the way to build a filter that no one process holds whole. A key belongs to the shard {@link
 * ShardRouter#shardOf} names for its hash, and both of its buckets lie in that shard, so each
 * shard is filled alone, from key hashes, written with {@link #writeTo}, and the S shards'
 * bytes joined into one ordinary filter file by {@link CuckooFilters#joinShards}.
 *
 * <pre>{@code
 * ShardRouter router = CuckooFilters.keyHasher(config);
 * FilterShard shard = CuckooFilters.createShard(config, 3);
 * for (byte[] key : keysOfShard3) shard.addHash(router.hash(key));
 * shard.writeTo(out);
 * }</pre>
 *
 * <p>Not thread-safe. A shard holds only its own table: about {@code 1/S} of the filter's.
 */
public interface FilterShard {

  /** @return this shard's index, in {@code [0, shards())} */
  int index();

  /** @return the filter's shard count S, at least 1 */
  int shards();

  /** @return the whole filter's resolved spec, the same for every shard */
  FilterSpec spec();

  /**
   * Adds one copy of a key, given by its 64-bit hash as {@link ShardRouter#hash} computes it.
   *
   * @param keyHash the key's hash
   * @return {@code true} if stored; {@code false} if the shard cannot take it (it is full), and
   *     then nothing already stored is lost
   * @throws IllegalArgumentException if the hash belongs to another shard (the message names both)
   */
  boolean addHash(long keyHash);

  /** @return the items stored */
  long items();

  /** @return the bytes this shard's table takes, as it takes them in the joined file */
  long tableBytes();

  /**
   * Writes the shard: a small checksummed header with its stash, then its table (at most
   * {@link #tableBytes()} and a few hundred bytes in all), for {@link CuckooFilters#joinShards}.
   * The stream is flushed, not closed.
   *
   * @param out where to write
   * @throws IOException if writing fails
   */
  void writeTo(OutputStream out) throws IOException;

  /**
   * Opens the bytes of one shard ({@link #writeTo}) for {@link CuckooFilters#joinShards}: from a
   * file, an object store, a Spark task's output.
   */
  @FunctionalInterface
  interface Source {
    /**
     * @param index a shard's index, in {@code [0, S)}
     * @return a new stream of its bytes, which the caller closes
     * @throws IOException if it cannot be opened (a missing shard, say)
     */
    InputStream open(int index) throws IOException;
  }
}
