package dev.cuckoo.classic;

import dev.cuckoo.engine.PartialKeyHashing;
import dev.cuckoo.engine.SwarLanes;
import dev.cuckoo.engine.TableWords;

/**
 * The default width, 12-bit fingerprints in buckets of 4: a bucket is 48 bits at any bit offset,
 * read as one 64-bit window and searched with one SWAR test, as {@link PackedBucketTable} does for
 * every shape, but with the lanes, the bucket's width and the fingerprint's as constants. Through
 * the generic class a lookup ran 155 instructions under callgrind where a 16-bit one runs 113
 * (docs/results.md): the widths and masks it loads from fields, and folds nothing of.
 */
final class TwelveBitBucketTable extends BucketTable {
  private static final long BUCKET_BITS = 48;
  private static final long LO = 0x0000_0010_0100_1001L;
  private static final long HI = LO << 11;
  private static final long LOW = LO * 0x7FF;
  private static final long MASK = 0xFFF;

  TwelveBitBucketTable(long bucketCount, TableWords words) {
    super(bucketCount, 4, 12, words);
  }

  @Override
  public int fingerprint(long keyHash) {
    return PartialKeyHashing.fingerprint(keyHash, 12);
  }

  @Override
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    long pattern = fingerprint * LO;
    // Both windows are loaded before either is tested, so the two cache misses overlap.
    return SwarLanes.anyZero(words.window(bucket1 * BUCKET_BITS) ^ pattern,
        words.window(bucket2 * BUCKET_BITS) ^ pattern, LO, HI) != 0;
  }

  /**
   * Looks up a block of key hashes in three passes, as {@link ShortBucketTable#containsHashes}
   * does, gathering windows ({@link TableWords#gatherWindows}).
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
    bucketOffsets(hashes, n, scratch);
    words.gatherWindows(scratch, 2 * n);
    return testGathered(hashes, n, scratch, results, at, LO, HI);
  }

  @Override
  public int count(long bucket1, long bucket2, int fingerprint) {
    long pattern = fingerprint * LO;
    return Long.bitCount(SwarLanes.zeroLanes(words.window(bucket1 * BUCKET_BITS) ^ pattern, LOW, HI))
        + Long.bitCount(SwarLanes.zeroLanes(words.window(bucket2 * BUCKET_BITS) ^ pattern, LOW, HI));
  }

  @Override
  long find(long bucket, int value) {
    long offset = bucket * BUCKET_BITS;
    long lanes = SwarLanes.zeroLanes(words.window(offset) ^ (value * LO), LOW, HI);
    return lanes == 0 ? -1 : offset + Long.numberOfTrailingZeros(lanes) - 11;
  }

  @Override
  int read(long offset) {
    return (int) (words.window(offset) & MASK);
  }

  @Override
  void write(long offset, int value) {
    words.write(offset, value, MASK);
  }

  @Override
  protected int occupied(long bucket) {
    return 4 - Long.bitCount(SwarLanes.zeroLanes(words.window(bucket * BUCKET_BITS), LOW, HI));
  }
}
