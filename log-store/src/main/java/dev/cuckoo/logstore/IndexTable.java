package dev.cuckoo.logstore;

import dev.cuckoo.engine.CuckooTable;
import dev.cuckoo.engine.PartialKeyHashing;
import dev.cuckoo.engine.SwarLanes;
import java.util.Arrays;

/**
 * The log store's index: a cuckoo table of buckets of four slots, each slot a 12-bit tag of a
 * key and the offset of the key's record in the log, 48 bits in all, so a slot takes 6 bytes.
 *
 * <p>An entry ({@link CuckooTable}) is {@code units << 12 | tag}: the tag, non-zero, in the low
 * 12 bits, and above it the record's offset in units of {@value #UNIT} bytes (records start on
 * such a boundary), below 2^36, so logs of up to 512 GiB are addressed. Bucket {@code k} is one
 * long of {@code tags} and two of {@code lows}:
 *
 * <pre>
 * tags[k]         bits  0..47  the four tags, slot s in bits [12s, 12s + 12); 0 is an empty slot
 *                 bits 48..63  the top 4 bits of the four offsets, slot s in bits [48 + 4s, 52 + 4s)
 * lows[2k]        the low 32 bits of the offsets of slots 0 (bits 0..31) and 1 (bits 32..63)
 * lows[2k + 1]    the same for slots 2 and 3
 * </pre>
 *
 * <p>So a lookup reads one long per bucket and finds the slots whose tag matches with one SWAR
 * test over the four 12-bit lanes; only a match reads {@code lows}. Keeping the tags in an array
 * of their own makes the part a lookup touches a third of the index, 8 bytes a bucket, as dense
 * as a 16-bit filter's table, so an absent key costs what a filter lookup costs. Nothing
 * allocates after construction. Not thread-safe: {@link LogStore} locks around it.
 */
final class IndexTable implements CuckooTable {
  /** Tag width in bits: a lookup of an absent key matches one of 8 slots with chance 8/4095. */
  static final int TAG_BITS = 12;
  /** Records start on multiples of this many bytes; offsets are stored in these units. */
  static final int UNIT = 8;
  /** Offset units take 36 bits: logs of up to {@code 2^36 · 8} bytes. */
  static final long MAX_UNITS = 1L << 36;
  /** Slots per bucket. */
  static final int SLOTS = 4;
  /** The most buckets: a Java array of {@code 2·buckets} longs. */
  static final long MAX_BUCKETS = (Integer.MAX_VALUE - 8) / 2 & ~1L;

  private static final long TAG_MASK = (1L << TAG_BITS) - 1;
  private static final long LO = SwarLanes.repeat(1, TAG_BITS, SLOTS);
  private static final long HI = LO << (TAG_BITS - 1);
  private static final long LOW = SwarLanes.repeat(TAG_MASK >>> 1, TAG_BITS, SLOTS);
  private static final long TAGS = SwarLanes.repeat(TAG_MASK, TAG_BITS, SLOTS);

  private final long buckets;
  private final long[] tags;
  private final long[] lows;

  /**
   * @param buckets an even bucket count, 2 to {@link #MAX_BUCKETS}
   */
  IndexTable(long buckets) {
    if (buckets < 2 || buckets > MAX_BUCKETS || (buckets & 1) != 0) {
      throw new IllegalArgumentException("an index of " + buckets + " buckets is out of range: an even count, 2.." + MAX_BUCKETS);
    }
    this.buckets = buckets;
    this.tags = new long[Math.toIntExact(buckets)];
    this.lows = new long[Math.toIntExact(2 * buckets)];
  }

  /** @return the bytes the slots take */
  long tableBytes() {
    return ((long) tags.length + lows.length) * Long.BYTES;
  }

  /**
   * @param tag a non-zero tag
   * @param offset a record's offset in the log, a multiple of {@link #UNIT}
   * @return the entry of a record at that offset
   */
  static long entry(int tag, long offset) {
    return (offset / UNIT) << TAG_BITS | tag;
  }

  /**
   * @param entry an entry
   * @return the offset of its record
   */
  static long offsetOf(long entry) {
    return (entry >>> TAG_BITS) * UNIT;
  }

  // ---------------------------------------------------------------- keys to buckets

  @Override
  public long bucketCount() {
    return buckets;
  }

  @Override
  public int slotsPerBucket() {
    return SLOTS;
  }

  @Override
  public long bucketIndex(long keyHash) {
    return PartialKeyHashing.bucketIndex(keyHash, buckets);
  }

  /** @return the key's tag, in {@code [1, 4095]} */
  @Override
  public int fingerprint(long keyHash) {
    return PartialKeyHashing.fingerprint(keyHash, TAG_BITS);
  }

  @Override
  public int fingerprintOf(long entry) {
    return (int) (entry & TAG_MASK);
  }

  // ---------------------------------------------------------------- lookups

  /**
   * @param bucket a bucket
   * @param tag a non-zero tag
   * @return the slots of the bucket holding the tag: slot {@code s} as bit {@code 12s + 11}
   */
  long matches(long bucket, int tag) {
    return SwarLanes.zeroLanes(tags[(int) bucket] ^ (tag * LO), LOW, HI);
  }

  /**
   * @param matches what {@link #matches} returned, not 0
   * @return the first matching slot
   */
  static int firstSlot(long matches) {
    return Long.numberOfTrailingZeros(matches) / TAG_BITS;
  }

  /**
   * @param matches what {@link #matches} returned, not 0
   * @return the matches without the first
   */
  static long nextMatches(long matches) {
    return matches & (matches - 1);
  }

  @Override
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    long pattern = fingerprint * LO;
    // Both words are loaded before either is tested, so the two cache misses overlap.
    long x1 = tags[(int) bucket1] ^ pattern;
    long x2 = tags[(int) bucket2] ^ pattern;
    return SwarLanes.anyZero(x1, x2, LO, HI) != 0;
  }

  @Override
  public int count(long bucket1, long bucket2, int fingerprint) {
    return Long.bitCount(matches(bucket1, fingerprint)) + Long.bitCount(matches(bucket2, fingerprint));
  }

  // ---------------------------------------------------------------- entries

  @Override
  public long entryAt(long bucket, int slot) {
    long word = tags[(int) bucket];
    long tag = word >>> (TAG_BITS * slot) & TAG_MASK;
    if (tag == 0) {
      return 0;
    }
    long high = word >>> (48 + 4 * slot) & 0xF;
    long low = lows[(int) (2 * bucket) + (slot >>> 1)] >>> (32 * (slot & 1)) & 0xFFFF_FFFFL;
    return (high << 32 | low) << TAG_BITS | tag;
  }

  /** Stores an entry (or 0, emptying the slot) in one slot. */
  private void set(long bucket, int slot, long entry) {
    int w = (int) bucket;
    long tag = entry & TAG_MASK;
    long units = entry >>> TAG_BITS;
    int tagShift = TAG_BITS * slot;
    int highShift = 48 + 4 * slot;
    tags[w] = (tags[w] & ~(TAG_MASK << tagShift) & ~(0xFL << highShift))
        | (tag << tagShift) | (((units >>> 32) & 0xF) << highShift);
    int lowWord = 2 * w + (slot >>> 1);
    int lowShift = 32 * (slot & 1);
    lows[lowWord] = (lows[lowWord] & ~(0xFFFF_FFFFL << lowShift)) | ((units & 0xFFFF_FFFFL) << lowShift);
  }

  /** @return the first slot of the bucket holding exactly this entry (0: an empty slot), or -1 */
  private int find(long bucket, long entry) {
    if (entry == 0) {
      long empty = SwarLanes.zeroLanes(tags[(int) bucket] & TAGS, LOW, HI);
      return empty == 0 ? -1 : firstSlot(empty);
    }
    for (long m = matches(bucket, fingerprintOf(entry)); m != 0; m = nextMatches(m)) {
      int slot = firstSlot(m);
      if (entryAt(bucket, slot) == entry) {
        return slot;
      }
    }
    return -1;
  }

  @Override
  public boolean insert(long bucket, long entry) {
    int slot = find(bucket, 0);
    if (slot < 0) {
      return false;
    }
    set(bucket, slot, entry);
    return true;
  }

  @Override
  public long evict(long bucket, int slot, long entry) {
    long old = entryAt(bucket, slot);
    set(bucket, slot, entry);
    return old;
  }

  @Override
  public void replace(long bucket, long entry, long replacement) {
    int slot = find(bucket, entry);
    if (slot < 0) {
      throw new IllegalStateException("bucket " + bucket + " does not hold entry " + Long.toHexString(entry));
    }
    set(bucket, slot, replacement);
  }

  @Override
  public boolean remove(long bucket, long entry) {
    int slot = find(bucket, entry);
    if (slot < 0) {
      return false;
    }
    set(bucket, slot, 0);
    return true;
  }

  @Override
  public void clear() {
    Arrays.fill(tags, 0L);
    Arrays.fill(lows, 0L);
  }
}
