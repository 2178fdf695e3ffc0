package dev.cuckoo.semisorted;

import dev.cuckoo.engine.SwarLanes;
import dev.cuckoo.engine.TableWords;

/**
 * The path for fingerprints of 5 to 7 bits, whose 1 to 3 high bits per slot are too narrow a
 * lane for a nibble: the high bits are spread into lanes of 4 bits, then searched as in
 * {@link Width8To15Table}.
 */
final class Width5To7Table extends SemiSortedTable {
  private static final long LO = 0x1111L;
  private static final long HI = 0x8888L;
  private static final long LOW = 0x7777L;

  private final long[] lanes = SemiSortCodec.laneNibbles(4, false);

  Width5To7Table(long bucketCount, int bits, TableWords words) {
    super(bucketCount, bits, words);
  }

  /** @return the lanes of the bucket at this offset that are zero where a slot holds the fingerprint */
  private long difference(long offset, long highPattern, long nibblePattern) {
    long x = words.window(offset);
    long highs = x >>> SemiSortCodec.CODE_BITS;
    int h = highBits;
    long m = highMask;
    long spread = (highs & m) | (highs >>> h & m) << 4 | ((highs >>> (2 * h)) & m) << 8 | ((highs >>> (3 * h)) & m) << 12;
    return (spread ^ highPattern) | (lanes[(int) x & SemiSortCodec.CODE_MASK] ^ nibblePattern);
  }

  @Override
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    return count(bucket1, bucket2, fingerprint) != 0;
  }

  @Override
  public int count(long bucket1, long bucket2, int fingerprint) {
    long highPattern = (fingerprint >>> 4) * LO;
    long nibblePattern = (fingerprint & 0xF) * LO;
    return Long.bitCount(SwarLanes.zeroLanes(difference(bucket1 * bucketBits, highPattern, nibblePattern), LOW, HI))
        + Long.bitCount(SwarLanes.zeroLanes(difference(bucket2 * bucketBits, highPattern, nibblePattern), LOW, HI));
  }
}
