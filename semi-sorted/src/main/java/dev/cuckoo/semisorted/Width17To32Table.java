package dev.cuckoo.semisorted;

import dev.cuckoo.engine.SwarLanes;
import dev.cuckoo.engine.TableWords;

/**
 * The path for fingerprints of 17 to 32 bits (buckets of 64 to 124 bits): the high bits of
 * slots 0 and 1, and of slots 2 and 3, are each read as one 64-bit window and searched as two
 * lanes of {@code f - 4} bits, as in {@link Width8To15Table}.
 */
final class Width17To32Table extends SemiSortedTable {
  private final long[] lanes;
  private final long lo;
  private final long hi;
  private final long low;

  Width17To32Table(long bucketCount, int bits, TableWords words) {
    super(bucketCount, bits, words);
    this.lanes = SemiSortCodec.laneNibbles(highBits, true);
    this.lo = SwarLanes.repeat(1L, highBits, 2);
    this.hi = lo << (highBits - 1);
    this.low = SwarLanes.repeat(highMask >>> 1, highBits, 2);
  }

  /** @return the matching slots of the bucket at this offset, as the top bits of its lanes */
  private long matches(long offset, long highPattern, long nibblePattern) {
    long nibbles = lanes[code(offset)];
    long first = offset + SemiSortCodec.CODE_BITS;
    long d01 = (words.window(first) ^ highPattern) | ((nibbles & 0xFFFF_FFFFL) ^ nibblePattern);
    long d23 = (words.window(first + 2L * highBits) ^ highPattern) | ((nibbles >>> 32) ^ nibblePattern);
    return SwarLanes.zeroLanes(d01, low, hi) | SwarLanes.zeroLanes(d23, low, hi) << 1;
  }

  /**
   * {@inheritDoc} The high bits of the two buckets' slots first, as {@link Width8To15Table} does:
   * the nibbles come from {@code lanes[code]}, a load that waits for the bucket's own miss, so a
   * lookup that reads them pays a second, dependent load. A key never added matches some slot's
   * high bits with probability about 8/2^(f-4), so most negative lookups return without it;
   * the others reuse the high bits' differences and add the nibbles'.
   */
  @Override
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    long highPattern = (fingerprint >>> 4 & 0x0FFF_FFFFL) * lo;
    long b1 = bucket1 * bucketBits;
    long b2 = bucket2 * bucketBits;
    long d01 = words.window(b1 + SemiSortCodec.CODE_BITS) ^ highPattern;
    long d23 = words.window(b1 + SemiSortCodec.CODE_BITS + 2L * highBits) ^ highPattern;
    long e01 = words.window(b2 + SemiSortCodec.CODE_BITS) ^ highPattern;
    long e23 = words.window(b2 + SemiSortCodec.CODE_BITS + 2L * highBits) ^ highPattern;
    if ((SwarLanes.anyZero(d01, d23, lo, hi) | SwarLanes.anyZero(e01, e23, lo, hi)) == 0) {
      return false;
    }
    long nibblePattern = (fingerprint & 0xF) * lo;
    long n1 = lanes[code(b1)];
    long n2 = lanes[code(b2)];
    return (SwarLanes.anyZero(d01 | ((n1 & 0xFFFF_FFFFL) ^ nibblePattern), d23 | ((n1 >>> 32) ^ nibblePattern), lo, hi)
        | SwarLanes.anyZero(e01 | ((n2 & 0xFFFF_FFFFL) ^ nibblePattern), e23 | ((n2 >>> 32) ^ nibblePattern), lo, hi))
        != 0;
  }

  @Override
  public int count(long bucket1, long bucket2, int fingerprint) {
    long highPattern = (fingerprint >>> 4 & 0x0FFF_FFFFL) * lo;
    long nibblePattern = (fingerprint & 0xF) * lo;
    return Long.bitCount(matches(bucket1 * bucketBits, highPattern, nibblePattern))
        + Long.bitCount(matches(bucket2 * bucketBits, highPattern, nibblePattern));
  }
}
