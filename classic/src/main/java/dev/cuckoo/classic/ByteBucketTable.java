package dev.cuckoo.classic;

import dev.cuckoo.spi.PartialKeyHashing;
import dev.cuckoo.spi.SwarLanes;

/**
 * The fast path for 8-bit fingerprints in buckets of 4: a bucket is one {@code int}, half of a
 * table word, searched with one SWAR test. A lookup tests both of its buckets at once, as the
 * two halves of one {@code long}.
 */
final class ByteBucketTable extends BucketTable {
  private static final long LO = 0x0101_0101_0101_0101L;
  private static final long HI = 0x8080_8080_8080_8080L;
  private static final long LOW = 0x7F7F_7F7F_7F7F_7F7FL;
  private static final long HI4 = 0x8080_8080L;
  private static final long LOW4 = 0x7F7F_7F7FL;

  ByteBucketTable(long bucketCount, long[] words) {
    super(bucketCount, 4, 8, words);
  }

  /** @return the bucket's 32 bits in the low half (the high half is not cleared) */
  private long bucketBits(long bucket) {
    // Bucket k is word k / 2 shifted by 32 * (k % 2); a long shift uses only the low 6 bits of
    // its distance, and (k << 5) & 63 is exactly 32 * (k % 2).
    return words[(int) (bucket >>> 1)] >>> (bucket << 5);
  }

  @Override
  public int fingerprint(long keyHash) {
    return PartialKeyHashing.fingerprint(keyHash, 8);
  }

  @Override
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    long both = (bucketBits(bucket1) & 0xFFFF_FFFFL) | (bucketBits(bucket2) << 32);
    return SwarLanes.anyZero(both ^ (fingerprint * LO), LO, HI) != 0;
  }

  @Override
  public int count(long bucket1, long bucket2, int fingerprint) {
    long both = (bucketBits(bucket1) & 0xFFFF_FFFFL) | (bucketBits(bucket2) << 32);
    return Long.bitCount(SwarLanes.zeroLanes(both ^ (fingerprint * LO), LOW, HI));
  }

  @Override
  long find(long bucket, int value) {
    long lanes = SwarLanes.zeroLanes(bucketBits(bucket) ^ (value * LO), LOW4, HI4);
    return lanes == 0 ? -1 : (bucket << 5) + Long.numberOfTrailingZeros(lanes) - 7;
  }

  @Override
  int read(long offset) {
    return (int) (words[(int) (offset >>> 6)] >>> offset) & 0xFF;
  }

  @Override
  void write(long offset, int value) {
    int w = (int) (offset >>> 6);
    words[w] = (words[w] & ~(0xFFL << offset)) | ((long) value << offset);
  }

  @Override
  int occupied(long bucket) {
    return 4 - Long.bitCount(SwarLanes.zeroLanes(bucketBits(bucket), LOW4, HI4));
  }
}
