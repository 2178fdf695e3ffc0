package dev.cuckoo.classic;

import dev.cuckoo.engine.CuckooTable;
import dev.cuckoo.engine.PartialKeyHashing;
import dev.cuckoo.engine.TablePayload;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;

/**
 * The table of a classic filter: {@code bucketCount} buckets of {@code slots} fingerprints of
 * {@code bits} bits. Slot {@code s} of bucket {@code k} holds bits {@code [(k·slots + s)·bits,
 * (k·slots + s + 1)·bits)} of the table read as one little-endian bit string (bit {@code i} is
 * bit {@code i % 64} of word {@code i / 64}); that is the payload layout, whatever
 * implementation holds the table and however it stores it in memory.
 *
 * <p>Implementations differ in how fast they search: {@link #create} picks one for the shape.
 * Positions inside the table are absolute bit offsets ({@code long}), so tables of more than
 * 2^31 slots work. Nothing here allocates after construction. An entry of this table is its
 * fingerprint: no value rides beside it.
 */
abstract sealed class BucketTable implements CuckooTable permits ByteBucketTable, WordBucketTable {
  /** The most longs a table on the heap may hold: one array. */
  static final long MAX_WORDS = TablePayload.MAX_HEAP_WORDS;
  /** The most buckets {@link ByteBucketTable} holds, one {@code int} each. */
  static final long MAX_INT_BUCKETS = Integer.MAX_VALUE - 8;

  final long bucketCount;
  final int slots;
  final int bits;
  /**
   * The {@link PartialKeyHashing#alternateOffset} of every fingerprint, when that takes at most
   * 1/64 of the table's memory (short fingerprints in large tables) and the bucket count fits
   * an int; otherwise {@code null}. A load from this small array replaces the fingerprint hash.
   */
  private final int[] offsets;

  /**
   * @param tableBytes the bytes the implementation stores the slots in
   */
  BucketTable(long bucketCount, int slots, int bits, long tableBytes) {
    this.bucketCount = bucketCount;
    this.slots = slots;
    this.bits = bits;
    this.offsets = PartialKeyHashing.alternateOffsets(bucketCount, bits, tableBytes);
  }

  /** @return the bytes the slots take in memory, with any padding */
  abstract long tableBytes();

  /**
   * @param index a word of the payload layout, below {@link #payloadWords}
   * @return bits {@code [64·index, 64·index + 64)} of the table's bit string
   */
  abstract long payloadWord(long index);

  /**
   * Writes the table in the payload layout: its {@link #payloadWords} words.
   *
   * @param out where to write them
   * @throws IOException if writing fails
   */
  abstract void writePayloadWords(PayloadOutput out) throws IOException;

  /**
   * @return whether the bits after the last slot (to the end of the storage) are all zero, as a
   *     table written by this class has them
   */
  abstract boolean tailIsClear();

  /** @return the bytes held besides the slots */
  final long extraBytes() {
    return offsets == null ? 0 : (long) offsets.length * Integer.BYTES;
  }

  /**
   * @param bucketCount the number of buckets
   * @param slots slots per bucket
   * @param bits fingerprint width
   * @return the longs the table's bits take, without padding
   */
  static long payloadWords(long bucketCount, int slots, int bits) {
    return (bucketCount * slots * bits + 63) >>> 6;
  }

  /**
   * @return the longs a {@link WordBucketTable} of this shape allocates (its payload words and
   *     any padding)
   */
  static long allocatedWords(long bucketCount, int slots, int bits) {
    return payloadWords(bucketCount, slots, bits) + (isPacked(bucketCount, slots, bits) ? 1 : 0);
  }

  /**
   * @return the most words past {@link #payloadWords} a table of this shape allocates, at any
   *     bucket count
   */
  static long maxPaddingWords(int slots, int bits) {
    return slots == 4 && bits == 16 ? 0 : 1;
  }

  /** @return whether the shape takes the generic {@link PackedBucketTable} */
  private static boolean isPacked(long bucketCount, int slots, int bits) {
    return slots != 4 || (bits != 8 && bits != 16) || (bits == 8 && bucketCount > MAX_INT_BUCKETS);
  }

  /**
   * Creates an empty table, choosing the fastest implementation for the shape.
   *
   * @param bucketCount an even bucket count, with {@link #allocatedWords} at most {@link
   *     #MAX_WORDS}
   * @param slots 1, 2, 4 or 8
   * @param bits 4..32
   * @return the table
   */
  static BucketTable create(long bucketCount, int slots, int bits) {
    if (!isPacked(bucketCount, slots, bits) && bits == 8) {
      return new ByteBucketTable(bucketCount, new int[(int) bucketCount]);
    }
    return wrap(bucketCount, slots, bits, new long[Math.toIntExact(allocatedWords(bucketCount, slots, bits))]);
  }

  /**
   * Wraps words holding a table (read from a file, say), choosing the fastest implementation
   * for the shape; {@link ByteBucketTable} copies them into its own array.
   *
   * @param words {@link #allocatedWords} longs in the layout described above
   * @return the table
   */
  static BucketTable wrap(long bucketCount, int slots, int bits, long[] words) {
    if (words.length != allocatedWords(bucketCount, slots, bits)) {
      throw new IllegalArgumentException(
          words.length + " words do not hold " + bucketCount + " buckets of " + slots + " " + bits + "-bit slots");
    }
    if (isPacked(bucketCount, slots, bits)) {
      return new PackedBucketTable(bucketCount, slots, bits, words);
    }
    return bits == 8 ? ByteBucketTable.fromWords(bucketCount, words) : new ShortBucketTable(bucketCount, words);
  }

  // ---------------------------------------------------------------- keys to buckets

  /*
   * A key's buckets and fingerprint are computed here rather than in the filter so that each
   * implementation's fingerprint width is a constant where it has one: inlined into a fast
   * table, PartialKeyHashing folds into a few instructions. Fewer instructions per lookup also
   * let the processor keep more lookups, and so more cache misses, in flight.
   */

  /** @return the key's first bucket */
  @Override
  public final long bucketIndex(long keyHash) {
    return PartialKeyHashing.bucketIndex(keyHash, bucketCount);
  }

  /** @return the key's fingerprint */
  @Override
  public abstract int fingerprint(long keyHash);

  /**
   * {@inheritDoc} From a precomputed offset when the table has them.
   */
  @Override
  public final long alternate(long bucket, int fingerprint) {
    return PartialKeyHashing.alternateBucket(offsets, bucket, fingerprint, bucketCount);
  }

  /** @return whether either bucket of the key holds its fingerprint */
  @Override
  public final boolean containsHash(long keyHash) {
    long bucket1 = bucketIndex(keyHash);
    int fingerprint = fingerprint(keyHash);
    return contains(bucket1, alternate(bucket1, fingerprint), fingerprint);
  }

  // ---------------------------------------------------------------- searches, per encoding

  /**
   * @return whether either bucket holds the fingerprint
   */
  @Override
  public abstract boolean contains(long bucket1, long bucket2, int fingerprint);

  /**
   * @return the copies of the fingerprint in the two buckets together
   */
  @Override
  public abstract int count(long bucket1, long bucket2, int fingerprint);

  /**
   * @return the bit offset of a slot of the bucket holding {@code value} (0: an empty slot), or
   *     -1 if none does
   */
  abstract long find(long bucket, int value);

  /**
   * @return the fingerprint in the slot at this bit offset
   */
  abstract int read(long offset);

  /**
   * Stores a fingerprint (or 0) in the slot at this bit offset, storing only to the words the
   * slot occupies and keeping their other bits ({@link #isolatesSlotWrites}).
   */
  abstract void write(long offset, int value);

  /**
   * @return the occupied slots of the bucket
   */
  abstract int occupied(long bucket);

  // ---------------------------------------------------------------- operations on top of them

  @Override
  public final long bucketCount() {
    return bucketCount;
  }

  @Override
  public final int slotsPerBucket() {
    return slots;
  }

  /*
   * An entry is its fingerprint, an unsigned int in a long: (int) entry is the fingerprint, and
   * a fingerprint read back is widened without its sign.
   */

  @Override
  public final boolean insert(long bucket, long entry) {
    long at = find(bucket, 0);
    if (at < 0) {
      return false;
    }
    write(at, (int) entry);
    return true;
  }

  /**
   * Removes one copy of the fingerprint from the bucket.
   *
   * @return {@code false} if the bucket does not hold it
   */
  @Override
  public final boolean remove(long bucket, long entry) {
    long at = find(bucket, (int) entry);
    if (at < 0) {
      return false;
    }
    write(at, 0);
    return true;
  }

  @Override
  public final long entryAt(long bucket, int slot) {
    return Integer.toUnsignedLong(read(slotOffset(bucket, slot)));
  }

  /** {@inheritDoc} One for every table of this variant: they differ in where their words are, not in what an entry is. */
  @Override
  public final Object entryEncoding() {
    return BucketTable.class;
  }

  @Override
  public final long evict(long bucket, int slot, long entry) {
    long at = slotOffset(bucket, slot);
    int old = read(at);
    write(at, (int) entry);
    return Integer.toUnsignedLong(old);
  }

  @Override
  public final void replace(long bucket, long entry, long replacement) {
    long at = find(bucket, (int) entry);
    if (at < 0) {
      throw new IllegalStateException(
          "bucket " + bucket + " does not hold fingerprint " + Integer.toUnsignedString((int) entry));
    }
    write(at, (int) replacement);
  }

  /** @return the bit offset of a slot */
  final long slotOffset(long bucket, int slot) {
    return (bucket * slots + slot) * bits;
  }

  /** @return the slots in use, counted bucket by bucket */
  final long occupiedSlots() {
    long n = 0;
    for (long b = 0; b < bucketCount; b++) {
      n += occupied(b);
    }
    return n;
  }

  /**
   * {@inheritDoc} Yes: {@link #write} stores only to the words of its slot and keeps every other
   * bit of them.
   */
  @Override
  public final boolean isolatesSlotWrites() {
    return true;
  }

  /** Empties every slot. */
  @Override
  public abstract void clear();
}
