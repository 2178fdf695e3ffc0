package dev.cuckoo.engine.sharded;

import dev.cuckoo.engine.CuckooTable;
import dev.cuckoo.engine.PartialKeyHashing;

/**
 * A table split into S shards of {@code m_s} buckets each, placing keys so that both buckets of
 * a key lie in one shard: the layout of a filter built in shards ({@code shards=S}). It wraps
 * the table that stores the buckets, either the whole table of {@code S·m_s} buckets ({@link
 * #whole}) or one shard's {@code m_s} ({@link #shard}); either way its bucket indexes are those
 * of the whole table, so that a stash and a kick path over it hold the indexes the file holds.
 *
 * <p>The layout, for a key hash {@code h}, fingerprint {@code fp} and whole table of {@code m =
 * S·m_s} buckets:
 * <ul>
 *   <li>first bucket {@code i1 = PartialKeyHashing.bucketIndex(h, m)}, as in a table that is
 *       not sharded; its shard is {@code bucketIndex(h, S) == floor(i1 / m_s)};
 *   <li>the alternate of bucket {@code i}: with {@code base = floor(i / m_s)·m_s}, {@code base +
 *       reflect(i - base, alternateOffset(fp, m_s), m_s)}: the alternate of a table of {@code
 *       m_s} buckets, within the shard. With {@code S = 1} that is the formula of old.
 * </ul>
 *
 * <p>A variant takes this generic path only for sharded tables: the heap path of a table that is
 * not sharded stays the table's own. For a wrapper of one shard, {@link #bucketCount} is the
 * shard's {@code m_s} while its indexes run from the shard's first bucket.
 */
public final class ShardedTable implements CuckooTable {
  private final CuckooTable table;
  private final long tableBuckets;
  private final long shardBuckets;
  private final int shards;
  /** The whole table's index of the wrapped table's bucket 0: 0, or a lone shard's first. */
  private final long first;
  private final boolean lone;
  /** {@link PartialKeyHashing#alternateOffsets} for a shard's bucket count, or {@code null}. */
  private final int[] offsets;

  private ShardedTable(CuckooTable table, long tableBuckets, int shards, long first, int fingerprintBits,
      long tableBytes) {
    if (tableBuckets % shards != 0) {
      throw new IllegalArgumentException(tableBuckets + " buckets do not split into " + shards + " shards");
    }
    this.table = table;
    this.tableBuckets = tableBuckets;
    this.shardBuckets = tableBuckets / shards;
    this.shards = shards;
    this.first = first;
    this.lone = table.bucketCount() == shardBuckets && shards > 1;
    this.offsets = PartialKeyHashing.alternateOffsets(shardBuckets, fingerprintBits, tableBytes);
  }

  /**
   * @param table the whole table, of {@code S·m_s} buckets
   * @param shards S, at least 1, dividing the table's bucket count
   * @param fingerprintBits the fingerprint width
   * @param tableBytes the bytes the table takes (to judge whether offsets are worth keeping)
   * @return the whole table, placing keys by the sharded layout
   */
  public static ShardedTable whole(CuckooTable table, int shards, int fingerprintBits, long tableBytes) {
    return new ShardedTable(table, table.bucketCount(), shards, 0, fingerprintBits, tableBytes);
  }

  /**
   * @param table one shard's table, of {@code m_s} buckets
   * @param shards S, at least 1
   * @param index the shard, in {@code [0, S)}
   * @param fingerprintBits the fingerprint width
   * @param tableBytes the bytes the shard's table takes
   * @return the shard, its indexes those of the whole table: {@code [index·m_s, (index + 1)·m_s)}
   */
  public static ShardedTable shard(CuckooTable table, int shards, int index, int fingerprintBits, long tableBytes) {
    long shardBuckets = table.bucketCount();
    return new ShardedTable(table, shardBuckets * shards, shards, index * shardBuckets, fingerprintBits, tableBytes);
  }


  /** @return the table the buckets lie in */
  public CuckooTable table() {
    return table;
  }

  /** @return S */
  public int shards() {
    return shards;
  }

  /** @return {@code m_s}, the buckets of one shard */
  public long shardBuckets() {
    return shardBuckets;
  }

  /** @return the whole table's index of this wrapper's first bucket: 0, or a lone shard's first */
  public long firstBucket() {
    return first;
  }

  /**
   * @param keyHash a key's hash
   * @return its shard, {@code PartialKeyHashing.bucketIndex(keyHash, S)}
   */
  public int shardOf(long keyHash) {
    return (int) PartialKeyHashing.bucketIndex(keyHash, shards);
  }

  /** @return the buckets held: the whole table's, or one shard's */
  @Override
  public long bucketCount() {
    return table.bucketCount();
  }

  @Override
  public int slotsPerBucket() {
    return table.slotsPerBucket();
  }

  /** @return the key's first bucket in the whole table */
  @Override
  public long bucketIndex(long keyHash) {
    return PartialKeyHashing.bucketIndex(keyHash, tableBuckets);
  }

  @Override
  public int fingerprint(long keyHash) {
    return table.fingerprint(keyHash);
  }

  /** {@inheritDoc} Within the bucket's shard (see the class comment). */
  @Override
  public long alternate(long bucket, int fingerprint) {
    // A division, on the kick path only: lookups find the base from the hash.
    long base = lone ? first : bucket - bucket % shardBuckets;
    return base + reflect(bucket - base, fingerprint);
  }

  private long reflect(long local, int fingerprint) {
    long offset = offsets != null ? offsets[fingerprint] : PartialKeyHashing.alternateOffset(fingerprint, shardBuckets);
    return PartialKeyHashing.reflect(local, offset, shardBuckets);
  }

  @Override
  public long movedEntry(long entry) {
    return table.movedEntry(entry);
  }

  @Override
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    return table.contains(bucket1 - first, bucket2 - first, fingerprint);
  }

  /** {@inheritDoc} The shard's first bucket from the hash: one multiply instead of a division. */
  @Override
  public boolean containsHash(long keyHash) {
    long bucket1 = bucketIndex(keyHash);
    int fingerprint = fingerprint(keyHash);
    long base = PartialKeyHashing.bucketIndex(keyHash, shards) * shardBuckets;
    long bucket2 = base + reflect(bucket1 - base, fingerprint);
    return table.contains(bucket1 - first, bucket2 - first, fingerprint);
  }

  @Override
  public int count(long bucket1, long bucket2, int fingerprint) {
    return table.count(bucket1 - first, bucket2 - first, fingerprint);
  }

  @Override
  public int fingerprintOf(long entry) {
    return table.fingerprintOf(entry);
  }

  @Override
  public long entryAt(long bucket, int slot) {
    return table.entryAt(bucket - first, slot);
  }

  @Override
  public Object entryEncoding() {
    return table.entryEncoding();
  }

  @Override
  public boolean insert(long bucket, long entry) {
    return table.insert(bucket - first, entry);
  }

  @Override
  public long evict(long bucket, int slot, long entry) {
    return table.evict(bucket - first, slot, entry);
  }

  @Override
  public void replace(long bucket, long entry, long replacement) {
    table.replace(bucket - first, entry, replacement);
  }

  @Override
  public boolean remove(long bucket, long entry) {
    return table.remove(bucket - first, entry);
  }

  @Override
  public void clear() {
    table.clear();
  }

  @Override
  public boolean isolatesSlotWrites() {
    return table.isolatesSlotWrites();
  }
}
