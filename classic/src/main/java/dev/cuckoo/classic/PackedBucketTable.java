package dev.cuckoo.classic;

import dev.cuckoo.engine.PackedBits;
import dev.cuckoo.engine.SwarLanes;

/**
 * The generic path, for every fingerprint width and bucket size: slots packed back to back
 * with no alignment, a bucket read as one or more 64-bit windows at any bit offset and searched
 * with SWAR tests over lanes of the fingerprint's width.
 *
 * <p>Its one subclass, {@link MappedBucketTable}, reads the same bit string from a mapped file by
 * overriding {@link #window} and {@link #write}: while no mapped table is loaded, the JIT sees one
 * implementation of each and inlines it as before, so the heap path pays nothing for the seam.
 */
sealed class PackedBucketTable extends WordBucketTable permits MappedBucketTable {
  /** Bits of one bucket. */
  final long bucketBits;
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

  /**
   * @param words the table, with one more word than the slots need: the window read at the
   *     last slot may look one word past them
   */
  PackedBucketTable(long bucketCount, int slots, int bits, long[] words) {
    this(bucketCount, slots, bits, words, (long) words.length * Long.BYTES);
  }

  /** For {@link MappedBucketTable}, whose words are a file's and whose bytes are its table's. */
  PackedBucketTable(long bucketCount, int slots, int bits, long[] words, long tableBytes) {
    super(bucketCount, slots, bits, words, tableBytes);
    this.bucketBits = (long) slots * bits;
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

  /**
   * @return the 64 bits of the table starting at bit {@code offset}
   */
  long window(long offset) {
    return PackedBits.window(words, offset);
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
    PackedBits.write(words, offset, value, laneMask);
  }

  @Override
  int occupied(long bucket) {
    return slots - matches(bucket * bucketBits, 0L);
  }
}
