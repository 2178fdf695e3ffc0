package dev.cuckoo.semisorted;

import dev.cuckoo.engine.PackedBits;
import dev.cuckoo.engine.SwarLanes;

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

  Width17To32Table(long bucketCount, int bits, long[] words) {
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
    long d01 = (PackedBits.window(words, first) ^ highPattern) | ((nibbles & 0xFFFF_FFFFL) ^ nibblePattern);
    long d23 = (PackedBits.window(words, first + 2L * highBits) ^ highPattern) | ((nibbles >>> 32) ^ nibblePattern);
    return SwarLanes.zeroLanes(d01, low, hi) | SwarLanes.zeroLanes(d23, low, hi) << 1;
  }

  @Override
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    long highPattern = (fingerprint >>> 4 & 0x0FFF_FFFFL) * lo;
    long nibblePattern = (fingerprint & 0xF) * lo;
    return (matches(bucket1 * bucketBits, highPattern, nibblePattern)
        | matches(bucket2 * bucketBits, highPattern, nibblePattern)) != 0;
  }

  @Override
  public int count(long bucket1, long bucket2, int fingerprint) {
    long highPattern = (fingerprint >>> 4 & 0x0FFF_FFFFL) * lo;
    long nibblePattern = (fingerprint & 0xF) * lo;
    return Long.bitCount(matches(bucket1 * bucketBits, highPattern, nibblePattern))
        + Long.bitCount(matches(bucket2 * bucketBits, highPattern, nibblePattern));
  }
}
