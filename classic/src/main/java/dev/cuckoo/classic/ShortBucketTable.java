package dev.cuckoo.classic;

import dev.cuckoo.engine.PartialKeyHashing;
import dev.cuckoo.engine.SwarLanes;
import dev.cuckoo.engine.TableWords;

/**
 * The fast path for 16-bit fingerprints in buckets of 4: a bucket is one table word, searched
 * with one SWAR test.
 */
final class ShortBucketTable extends BucketTable {
  private static final long LO = 0x0001_0001_0001_0001L;
  private static final long HI = 0x8000_8000_8000_8000L;
  private static final long LOW = 0x7FFF_7FFF_7FFF_7FFFL;

  ShortBucketTable(long bucketCount, TableWords words) {
    super(bucketCount, 4, 16, words);
  }

  @Override
  public int fingerprint(long keyHash) {
    return PartialKeyHashing.fingerprint(keyHash, 16);
  }

  @Override
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    // Both words are loaded before either is tested, so the two cache misses overlap.
    long pattern = fingerprint * LO;
    return SwarLanes.anyZero(words.get(bucket1) ^ pattern, words.get(bucket2) ^ pattern, LO, HI) != 0;
  }

  /**
   * Looks up a block of key hashes in three passes: both buckets of every key; their words,
   * gathered in one loop of loads and nothing else ({@link TableWords#gather}), so that the
   * processor keeps as many of their cache misses in flight as it holds loads; then the tests.
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
    words.gather(scratch, 2 * n);
    return testGathered(hashes, n, scratch, results, at, LO, HI);
  }

  @Override
  public int count(long bucket1, long bucket2, int fingerprint) {
    long pattern = fingerprint * LO;
    return Long.bitCount(SwarLanes.zeroLanes(words.get(bucket1) ^ pattern, LOW, HI))
        + Long.bitCount(SwarLanes.zeroLanes(words.get(bucket2) ^ pattern, LOW, HI));
  }

  @Override
  long find(long bucket, int value) {
    long lanes = SwarLanes.zeroLanes(words.get(bucket) ^ (value * LO), LOW, HI);
    return lanes == 0 ? -1 : (bucket << 6) + Long.numberOfTrailingZeros(lanes) - 15;
  }

  @Override
  int read(long offset) {
    return (int) (words.get(offset >>> 6) >>> offset) & 0xFFFF;
  }

  @Override
  void write(long offset, int value) {
    long w = offset >>> 6;
    words.set(w, (words.get(w) & ~(0xFFFFL << offset)) | ((long) value << offset));
  }

  @Override
  protected int occupied(long bucket) {
    return 4 - Long.bitCount(SwarLanes.zeroLanes(words.get(bucket), LOW, HI));
  }
}
