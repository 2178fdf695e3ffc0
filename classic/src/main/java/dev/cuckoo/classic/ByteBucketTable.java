package dev.cuckoo.classic;

import dev.cuckoo.engine.PartialKeyHashing;
import dev.cuckoo.engine.SwarLanes;
import dev.cuckoo.engine.TableWords;

/**
 * The fast path for 8-bit fingerprints in buckets of 4: a bucket is 32 bits, half a word (bucket
 * {@code k} is bits {@code [32k, 32k + 32)}, the low half of word {@code k / 2} for an even
 * {@code k}), read as one int ({@link TableWords#getInt}; on the heap its words are ints, {@link
 * TableWords#onHeapInts}) and searched with one SWAR test. A lookup tests both of its buckets at
 * once, as the two halves of one {@code long}.
 */
final class ByteBucketTable extends BucketTable {
  private static final long LO = 0x0101_0101_0101_0101L;
  private static final long HI = 0x8080_8080_8080_8080L;
  private static final long LOW = 0x7F7F_7F7F_7F7F_7F7FL;
  private static final long LO4 = 0x0101_0101L;
  private static final long HI4 = 0x8080_8080L;
  private static final long LOW4 = 0x7F7F_7F7FL;

  ByteBucketTable(long bucketCount, TableWords words) {
    super(bucketCount, 4, 8, words);
  }

  /** @return bucket {@code k}'s 32 bits, in the low half */
  private long bucket(long k) {
    return words.getInt(k);
  }

  @Override
  public int fingerprint(long keyHash) {
    return PartialKeyHashing.fingerprint(keyHash, 8);
  }

  @Override
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    long both = (bucket(bucket1) & 0xFFFF_FFFFL) | (bucket(bucket2) << 32);
    return SwarLanes.anyZero(both ^ (fingerprint * LO), LO, HI) != 0;
  }

  /**
   * Looks up a block of key hashes in three passes, as {@link ShortBucketTable#containsHashes}
   * does, gathering ints ({@link TableWords#gatherInts}).
   *
   * @param hashes the hashes, in {@code [0, n)}
   * @param n how many, at most {@code scratch.length / 2}
   * @param scratch at least {@code 2n} longs
   * @param results where answer {@code i} goes, at {@code at + i}
   * @param at where the block's answers start
   * @return how many are true
   */
  @Override
  public int containsHashes(long[] hashes, int n, long[] scratch, boolean[] results, int at) {
    bucketPairs(hashes, n, scratch);
    words.gatherInts(scratch, 2 * n);
    int found = 0;
    for (int i = 0; i < n; i++) {
      long both = scratch[2 * i] | (scratch[2 * i + 1] << 32);
      boolean r = SwarLanes.anyZero(both ^ (fingerprint(hashes[i]) * LO), LO, HI) != 0;
      results[at + i] = r;
      found += r ? 1 : 0;
    }
    return found;
  }

  @Override
  public int count(long bucket1, long bucket2, int fingerprint) {
    long both = (bucket(bucket1) & 0xFFFF_FFFFL) | (bucket(bucket2) << 32);
    return Long.bitCount(SwarLanes.zeroLanes(both ^ (fingerprint * LO), LOW, HI));
  }

  @Override
  long find(long bucket, int value) {
    long lanes = SwarLanes.zeroLanes((bucket(bucket) & 0xFFFF_FFFFL) ^ (value * LO4), LOW4, HI4);
    return lanes == 0 ? -1 : (bucket << 5) + Long.numberOfTrailingZeros(lanes) - 7;
  }

  @Override
  int read(long offset) {
    return (words.getInt(offset >>> 5) >>> offset) & 0xFF;
  }

  @Override
  void write(long offset, int value) {
    long k = offset >>> 5;
    words.setInt(k, (words.getInt(k) & ~(0xFF << offset)) | (value << offset));
  }

  @Override
  protected int occupied(long bucket) {
    return 4 - Long.bitCount(SwarLanes.zeroLanes(bucket(bucket) & 0xFFFF_FFFFL, LOW4, HI4));
  }
}
