package dev.cuckoo.classic;

import dev.cuckoo.engine.PartialKeyHashing;
import dev.cuckoo.engine.SwarLanes;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * The fast path for 8-bit fingerprints in buckets of 4: a bucket is one {@code int}, searched
 * with one SWAR test. A lookup tests both of its buckets at once, as the two halves of one
 * {@code long}.
 *
 * <p>The buckets are kept in an {@code int[]}, one per element, rather than two to a {@code
 * long} as the payload layout has them: on a little-endian bit string bucket {@code k} is bits
 * {@code [32k, 32k + 32)}, so the payload's word {@code i} is bucket {@code 2i} in its low half
 * and bucket {@code 2i + 1} in its high half, and the file is the same. A lookup then reads a
 * bucket with one load instead of a load, a shift and a mask, which at 10M keys made 8-bit
 * lookups about 10% faster (docs/results.md). Tables of more than {@link
 * BucketTable#MAX_INT_BUCKETS} buckets take {@link PackedBucketTable} instead.
 */
final class ByteBucketTable extends BucketTable {
  private static final long LO = 0x0101_0101_0101_0101L;
  private static final long HI = 0x8080_8080_8080_8080L;
  private static final long LOW = 0x7F7F_7F7F_7F7F_7F7FL;
  private static final long LO4 = 0x0101_0101L;
  private static final long HI4 = 0x8080_8080L;
  private static final long LOW4 = 0x7F7F_7F7FL;

  /** Bucket {@code k} in element {@code k}, slot {@code s} in bits {@code [8s, 8s + 8)}. */
  private final int[] buckets;

  /**
   * @param bucketCount at most {@link BucketTable#MAX_INT_BUCKETS}
   * @param buckets {@code bucketCount} ints
   */
  ByteBucketTable(long bucketCount, int[] buckets) {
    super(bucketCount, 4, 8, (long) buckets.length * Integer.BYTES);
    if (buckets.length != bucketCount) {
      throw new IllegalArgumentException(buckets.length + " ints do not hold " + bucketCount + " buckets");
    }
    this.buckets = buckets;
  }

  /**
   * @param bucketCount at most {@link BucketTable#MAX_INT_BUCKETS}
   * @param words the table in the payload layout, {@link #payloadWords} longs
   * @return a table holding the same buckets
   */
  static ByteBucketTable fromWords(long bucketCount, long[] words) {
    int[] buckets = new int[(int) bucketCount];
    for (int k = 0; k < buckets.length; k++) {
      buckets[k] = (int) (words[k >>> 1] >>> (k << 5));
    }
    return new ByteBucketTable(bucketCount, buckets);
  }

  @Override
  public int fingerprint(long keyHash) {
    return PartialKeyHashing.fingerprint(keyHash, 8);
  }

  @Override
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    long both = (buckets[(int) bucket1] & 0xFFFF_FFFFL) | ((long) buckets[(int) bucket2] << 32);
    return SwarLanes.anyZero(both ^ (fingerprint * LO), LO, HI) != 0;
  }

  @Override
  public int count(long bucket1, long bucket2, int fingerprint) {
    long both = (buckets[(int) bucket1] & 0xFFFF_FFFFL) | ((long) buckets[(int) bucket2] << 32);
    return Long.bitCount(SwarLanes.zeroLanes(both ^ (fingerprint * LO), LOW, HI));
  }

  @Override
  long find(long bucket, int value) {
    // Bits above the four lanes (the sign extension of the int) do not change the result.
    long lanes = SwarLanes.zeroLanes(buckets[(int) bucket] ^ (value * LO4), LOW4, HI4);
    return lanes == 0 ? -1 : (bucket << 5) + Long.numberOfTrailingZeros(lanes) - 7;
  }

  @Override
  int read(long offset) {
    return (buckets[(int) (offset >>> 5)] >>> offset) & 0xFF;
  }

  @Override
  void write(long offset, int value) {
    int k = (int) (offset >>> 5);
    buckets[k] = (buckets[k] & ~(0xFF << offset)) | (value << offset);
  }

  @Override
  int occupied(long bucket) {
    return 4 - Long.bitCount(SwarLanes.zeroLanes(buckets[(int) bucket], LOW4, HI4));
  }

  @Override
  long tableBytes() {
    return (long) buckets.length * Integer.BYTES;
  }

  @Override
  long payloadWord(long index) {
    int k = (int) (index << 1);
    long high = k + 1 < buckets.length ? buckets[k + 1] : 0;
    return (buckets[k] & 0xFFFF_FFFFL) | (high << 32);
  }

  @Override
  void writePayloadWords(PayloadOutput out) throws IOException {
    long words = payloadWords(bucketCount, slots, bits);
    for (long i = 0; i < words; i++) {
      out.writeLong(payloadWord(i));
    }
  }

  /** {@inheritDoc} Always: the ints hold the buckets and nothing after them. */
  @Override
  boolean tailIsClear() {
    return true;
  }

  @Override
  public void clear() {
    Arrays.fill(buckets, 0);
  }
}
