package dev.cuckoo.classic;

import dev.cuckoo.engine.BitStringTable;
import dev.cuckoo.engine.CuckooSizing;
import dev.cuckoo.engine.TableWords;

/**
 * The table of a classic filter: {@code bucketCount} buckets of {@code slots} fingerprints of
 * {@code bits} bits. Slot {@code s} of bucket {@code k} holds bits {@code [(k·slots + s)·bits,
 * (k·slots + s + 1)·bits)} of the table read as one little-endian bit string (bit {@code i} is
 * bit {@code i % 64} of word {@code i / 64}); that is the payload layout, whatever
 * implementation holds the table and however it stores it in memory.
 *
 * <p>The bit string lives in {@link TableWords}, on the heap or in a mapped file: the table's
 * code is the same for both. Implementations differ in how fast they search: {@link #wrap}
 * picks one for the shape. Positions inside the table are absolute bit offsets ({@code long}),
 * so tables of more than 2^31 slots work. Nothing here allocates after construction. An entry of
 * this table is its fingerprint: no value rides beside it.
 */
abstract sealed class BucketTable extends BitStringTable
    permits ByteBucketTable, ShortBucketTable, TwelveBitBucketTable, PackedBucketTable {
  /** The most longs a table on the heap may hold: one array. */
  static final long MAX_WORDS = CuckooSizing.MAX_HEAP_WORDS;

  final int slots;

  BucketTable(long bucketCount, int slots, int bits, TableWords words) {
    super(bucketCount, bits, (long) slots * bits, words);
    this.slots = slots;
  }

  /**
   * @param bucketCount the number of buckets
   * @param slots slots per bucket
   * @param bits fingerprint width
   * @return the longs the table's bits take, without padding
   */
  static long payloadWords(long bucketCount, int slots, int bits) {
    return BitStringTable.payloadWords(bucketCount, (long) slots * bits);
  }

  /**
   * @return the longs a table of this shape allocates on the heap: its payload words and the
   *     padding word of {@link TableWords#onHeap}
   */
  static long allocatedWords(long bucketCount, int slots, int bits) {
    return payloadWords(bucketCount, slots, bits) + 1;
  }

  /**
   * Creates an empty table on the heap, choosing the fastest implementation for the shape.
   *
   * @param bucketCount an even bucket count, with {@link #allocatedWords} at most {@link
   *     #MAX_WORDS}
   * @param slots 1, 2, 4 or 8
   * @param bits 4..32
   * @return the table
   */
  static BucketTable create(long bucketCount, int slots, int bits) {
    return wrap(bucketCount, slots, bits, newHeapWords(slots, bits, payloadWords(bucketCount, slots, bits)));
  }

  /**
   * @param length the longs of a table of the shape
   * @return zeroed words on the heap as the shape's table reads them fastest: buckets of four
   *     8-bit fingerprints are one int each ({@link TableWords#onHeapInts}), made so at once rather
   *     than copied there by {@link #wrap}
   */
  static TableWords newHeapWords(int slots, int bits, long length) {
    return slots == 4 && bits == 8 ? TableWords.onHeapInts(length) : TableWords.onHeap(length);
  }

  /**
   * Wraps words holding a table (read or mapped from a file, say), choosing the fastest
   * implementation for the shape.
   *
   * @param words {@link #payloadWords} longs in the layout described above
   * @return the table, typed as the engine's base class: a caller's verification then loads no
   *     class of this variant (the provider's, when ServiceLoader makes it to learn its name)
   * @throws IllegalArgumentException if the words are not that many
   */
  static BitStringTable of(long bucketCount, int slots, int bits, TableWords words) {
    return wrap(bucketCount, slots, bits, words);
  }

  /**
   * {@link #of}, typed as this class, for code of this package.
   *
   * @param words {@link #payloadWords} longs in the layout described above
   * @return the table
   */
  static BucketTable wrap(long bucketCount, int slots, int bits, TableWords words) {
    if (slots == 4 && bits == 8) {
      return new ByteBucketTable(bucketCount, words.withFastInts());
    }
    if (slots == 4 && bits == 16) {
      return new ShortBucketTable(bucketCount, words);
    }
    if (slots == 4 && bits == 12) {
      return new TwelveBitBucketTable(bucketCount, words);
    }
    return new PackedBucketTable(bucketCount, slots, bits, words);
  }

  /** @return the key's fingerprint, of the table's width */
  @Override
  public abstract int fingerprint(long keyHash);

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
  @Override
  protected abstract int occupied(long bucket);

  // ---------------------------------------------------------------- operations on top of them

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

  /**
   * {@inheritDoc} Yes: {@link #write} stores only to the words of its slot and keeps every other
   * bit of them.
   */
  @Override
  public final boolean isolatesSlotWrites() {
    return true;
  }
}
