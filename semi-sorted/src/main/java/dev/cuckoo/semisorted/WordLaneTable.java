package dev.cuckoo.semisorted;

import dev.cuckoo.spi.PackedBits;
import dev.cuckoo.spi.SwarLanes;

/**
 * The fast path for fingerprints of 8 to 16 bits (buckets of 28 to 60 bits): one 64-bit window
 * holds a whole bucket, and one SWAR test over four lanes of {@code f - 4} bits searches it,
 * with no decoding of the bucket into fingerprints.
 */
final class WordLaneTable extends SemiSortedTable {

  /*
   * A slot holds fingerprint v = (high << 4) | nibble exactly when its high bits equal v's and
   * its nibble equals v's. The high bits of the four slots already lie side by side in the
   * bucket, as lanes of h = f - 4 bits (h >= 4); SemiSortCodec.laneNibbles(h) gives the code's
   * nibbles in the same lanes. So the lanes of
   *
   *   (highs ^ repeat(v >>> 4)) | (laneNibbles[code] ^ repeat(v & 15))
   *
   * are zero exactly at the slots holding v, and one SwarLanes test answers the lookup. Empty
   * slots are lanes of zeros in both parts and never match, as v is never 0.
   */

  private final long[] lanes;
  private final long lo;
  private final long hi;
  private final long low;

  WordLaneTable(long bucketCount, int bits, long[] words) {
    super(bucketCount, bits, words);
    this.lanes = SemiSortCodec.laneNibbles(highBits, false);
    this.lo = SwarLanes.repeat(1L, highBits, SLOTS);
    this.hi = lo << (highBits - 1);
    this.low = SwarLanes.repeat(highMask >>> 1, highBits, SLOTS);
  }

  /** @return the lanes of the bucket at this offset that are zero where a slot holds the fingerprint */
  private long difference(long offset, long highPattern, long nibblePattern) {
    long x = PackedBits.window(words, offset);
    return ((x >>> SemiSortCodec.CODE_BITS) ^ highPattern)
        | (lanes[(int) x & SemiSortCodec.CODE_MASK] ^ nibblePattern);
  }

  @Override
  boolean contains(long bucket1, long bucket2, int fingerprint) {
    long highPattern = (fingerprint >>> 4) * lo;
    long nibblePattern = (fingerprint & 0xF) * lo;
    long d1 = difference(bucket1 * bucketBits, highPattern, nibblePattern);
    long d2 = difference(bucket2 * bucketBits, highPattern, nibblePattern);
    return (SwarLanes.anyZero(d1, lo, hi) | SwarLanes.anyZero(d2, lo, hi)) != 0;
  }

  @Override
  int count(long bucket1, long bucket2, int fingerprint) {
    long highPattern = (fingerprint >>> 4) * lo;
    long nibblePattern = (fingerprint & 0xF) * lo;
    return Long.bitCount(SwarLanes.zeroLanes(difference(bucket1 * bucketBits, highPattern, nibblePattern), low, hi))
        + Long.bitCount(SwarLanes.zeroLanes(difference(bucket2 * bucketBits, highPattern, nibblePattern), low, hi));
  }
}
