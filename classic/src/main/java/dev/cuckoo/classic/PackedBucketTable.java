package dev.cuckoo.classic;

import dev.cuckoo.engine.SwarLanes;
import dev.cuckoo.engine.TableWords;

/**
 * The generic path, for every fingerprint width and bucket size: slots packed back to back
 * with no alignment, a bucket read as one or more 64-bit windows at any bit offset and searched
 * with SWAR tests over lanes of the fingerprint's width.
 */
final class PackedBucketTable extends BucketTable {
  /** Slots searched per window: a power of two dividing the bucket size, at most 64 bits. */
  private final int lanes;
  /** Windows per bucket. */
  final int windows;
  /** Bits of one window's lanes. */
  private final long windowBits;
  private final long laneMask;
  final long lo;
  final long hi;
  private final long low;
  /**
   * PartialKeyHashing.fingerprint's constants for this width, computed once: the width is not
   * a constant here, and the formula with it folded is four instructions instead of eleven.
   */
  private final long fingerprintSource;
  private final long fingerprintValues;
  private final int fingerprintShift;

  PackedBucketTable(long bucketCount, int slots, int bits, TableWords words) {
    super(bucketCount, slots, bits, words);
    this.lanes = Math.min(slots, Integer.highestOneBit(64 / bits));
    this.windows = slots / lanes;
    this.windowBits = (long) lanes * bits;
    this.laneMask = -1L >>> (64 - bits);
    this.lo = SwarLanes.repeat(1L, bits, lanes);
    this.hi = lo << (bits - 1);
    this.low = SwarLanes.repeat(laneMask >>> 1, bits, lanes);
    this.fingerprintShift = Math.min(bits + 8, 32);
    this.fingerprintSource = -1L >>> (64 - fingerprintShift);
    this.fingerprintValues = (1L << bits) - 1;
  }

  /** @return the 64 bits of the table starting at bit {@code offset} */
  private long window(long offset) {
    return words.window(offset);
  }

  /** {@return PartialKeyHashing.fingerprint(keyHash, bits)}, from precomputed constants */
  @Override
  public int fingerprint(long keyHash) {
    return (int) (((keyHash & fingerprintSource) * fingerprintValues) >>> fingerprintShift) + 1;
  }

  @Override
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    long pattern = (fingerprint & 0xFFFF_FFFFL) * lo;
    long o1 = bucket1 * bucketBits;
    long o2 = bucket2 * bucketBits;
    long hit = SwarLanes.anyZero(window(o1) ^ pattern, lo, hi) | SwarLanes.anyZero(window(o2) ^ pattern, lo, hi);
    if (windows == 1) {
      return hit != 0; // most shapes: a bucket is at most 64 bits
    }
    for (int k = 1; k < windows; k++) {
      o1 += windowBits;
      o2 += windowBits;
      hit |= SwarLanes.anyZero(window(o1) ^ pattern, lo, hi) | SwarLanes.anyZero(window(o2) ^ pattern, lo, hi);
    }
    return hit != 0;
  }

  @Override
  public int count(long bucket1, long bucket2, int fingerprint) {
    long pattern = (fingerprint & 0xFFFF_FFFFL) * lo;
    return matches(bucket1 * bucketBits, pattern) + matches(bucket2 * bucketBits, pattern);
  }

  /** @return the lanes of the bucket at this offset equal to the pattern's lane */
  private int matches(long offset, long pattern) {
    int n = 0;
    for (int k = 0; k < windows; k++, offset += windowBits) {
      n += Long.bitCount(SwarLanes.zeroLanes(window(offset) ^ pattern, low, hi));
    }
    return n;
  }

  @Override
  long find(long bucket, int value) {
    long pattern = (value & 0xFFFF_FFFFL) * lo;
    long offset = bucket * bucketBits;
    for (int k = 0; k < windows; k++, offset += windowBits) {
      long found = SwarLanes.zeroLanes(window(offset) ^ pattern, low, hi);
      if (found != 0) {
        return offset + Long.numberOfTrailingZeros(found) - (bits - 1);
      }
    }
    return -1;
  }

  @Override
  int read(long offset) {
    return (int) (window(offset) & laneMask);
  }

  @Override
  void write(long offset, int value) {
    words.write(offset, value, laneMask);
  }

  /**
   * Looks up a block of key hashes in three passes, as {@link ShortBucketTable#containsHashes}
   * does: both buckets of every key, their windows gathered ({@link TableWords#gatherWindows}),
   * the tests. Shapes whose bucket is more than one window look
   * up key by key.
   *
   * @param hashes the hashes, in {@code [0, n)}
   * @param n how many
   * @param scratch at least {@code 2n} longs
   * @param results where answer {@code i} goes, at {@code at + i}
   * @param at where the block's answers start
   * @return how many are true
   */
  @Override
  public int containsHashes(long[] hashes, int n, long[] scratch, boolean[] results, int at) {
    if (windows != 1) {
      return super.containsHashes(hashes, n, scratch, results, at);
    }
    bucketOffsets(hashes, n, scratch);
    words.gatherWindows(scratch, 2 * n);
    return testGathered(hashes, n, scratch, results, at, lo, hi);
  }

  @Override
  protected int occupied(long bucket) {
    return slots - matches(bucket * bucketBits, 0L);
  }
}
