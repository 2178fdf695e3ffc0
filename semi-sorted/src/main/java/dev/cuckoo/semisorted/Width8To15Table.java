package dev.cuckoo.semisorted;

import dev.cuckoo.engine.SwarLanes;
import dev.cuckoo.engine.TableWords;

/**
 * The fast path for fingerprints of 8 to 15 bits (buckets of 28 to 56 bits): one 64-bit window
 * holds a whole bucket, and one SWAR test over four lanes of {@code f - 4} bits searches it,
 * with no decoding of the bucket into fingerprints. Its searches also serve {@link Width16Table},
 * with that width's constants.
 */
final class Width8To15Table extends SemiSortedTable {

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
   *
   * A lookup first tests the high bits alone, and reads the code's lanes only if some slot's
   * high bits match: a key never added passes that test with probability about 8/2^(f-4), so
   * most negative lookups skip the two table loads. Medians of repeated JMH runs at 10^7 keys
   * and f = 16: negative lookups 140 ns without the test, 97 with it; positive ones, which
   * always pay for both tests, 111 and 106 (with the alternate-offset table). The test is a
   * branch, predicted well when lookups are mostly negative or mostly positive.
   */

  private final long[] lanes;
  private final long lo;
  private final long hi;
  private final long low;

  Width8To15Table(long bucketCount, int bits, TableWords words) {
    super(bucketCount, bits, words);
    this.lanes = SemiSortCodec.laneNibbles(highBits, false);
    this.lo = SwarLanes.repeat(1L, highBits, SLOTS);
    this.hi = lo << (highBits - 1);
    this.low = SwarLanes.repeat(highMask >>> 1, highBits, SLOTS);
  }

  @Override
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    return contains(words, lanes, bucket1 * bucketBits, bucket2 * bucketBits, fingerprint, lo, hi);
  }

  @Override
  public int count(long bucket1, long bucket2, int fingerprint) {
    return count(words, lanes, bucket1 * bucketBits, bucket2 * bucketBits, fingerprint, lo, hi, low);
  }

  /*
   * The searches are static and take the lane layout as arguments, so that a table of a fixed
   * width (Width16Table) passes constants and the compiler folds them in.
   */

  /** @return the lanes of the bucket at this offset that are zero where a slot holds the fingerprint */
  private static long difference(TableWords words, long[] lanes, long offset, long highPattern, long nibblePattern) {
    long x = words.window(offset);
    return ((x >>> SemiSortCodec.CODE_BITS) ^ highPattern)
        | (lanes[(int) x & SemiSortCodec.CODE_MASK] ^ nibblePattern);
  }

  /**
   * @param lanes {@link SemiSortCodec#laneNibbles} for four lanes of the high bits' width
   * @param lo bit 0 of each of the four lanes
   * @param hi the top bit of each
   * @return whether either bucket, at these bit offsets, holds the fingerprint
   */
  static boolean contains(TableWords words, long[] lanes, long offset1, long offset2, int fingerprint, long lo, long hi) {
    // Both windows are read before either is tested, so the two cache misses overlap.
    return containsIn(words.window(offset1), words.window(offset2), lanes, fingerprint, lo, hi);
  }

  /**
   * @param x1 the first bucket's window (its bits from its offset)
   * @param x2 the second's
   * @return whether either bucket holds the fingerprint
   * @see #contains(TableWords, long[], long, long, int, long, long)
   */
  static boolean containsIn(long x1, long x2, long[] lanes, int fingerprint, long lo, long hi) {
    long highPattern = (fingerprint >>> 4) * lo;
    long h1 = (x1 >>> SemiSortCodec.CODE_BITS) ^ highPattern;
    long h2 = (x2 >>> SemiSortCodec.CODE_BITS) ^ highPattern;
    if ((SwarLanes.anyZero(h1, lo, hi) | SwarLanes.anyZero(h2, lo, hi)) == 0) {
      return false;
    }
    long nibblePattern = (fingerprint & 0xF) * lo;
    long d1 = h1 | (lanes[(int) x1 & SemiSortCodec.CODE_MASK] ^ nibblePattern);
    long d2 = h2 | (lanes[(int) x2 & SemiSortCodec.CODE_MASK] ^ nibblePattern);
    return (SwarLanes.anyZero(d1, lo, hi) | SwarLanes.anyZero(d2, lo, hi)) != 0;
  }

  /**
   * @param low every bit of each lane but its top one
   * @return the copies of the fingerprint in the buckets at these bit offsets
   * @see #contains(TableWords, long[], long, long, int, long, long)
   */
  static int count(TableWords words, long[] lanes, long offset1, long offset2, int fingerprint, long lo, long hi, long low) {
    long highPattern = (fingerprint >>> 4) * lo;
    long nibblePattern = (fingerprint & 0xF) * lo;
    return Long.bitCount(SwarLanes.zeroLanes(difference(words, lanes, offset1, highPattern, nibblePattern), low, hi))
        + Long.bitCount(SwarLanes.zeroLanes(difference(words, lanes, offset2, highPattern, nibblePattern), low, hi));
  }
}
