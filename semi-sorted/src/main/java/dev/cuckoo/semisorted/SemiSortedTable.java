package dev.cuckoo.semisorted;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.engine.BitStringTable;
import dev.cuckoo.engine.CuckooSizing;
import dev.cuckoo.engine.TableWords;

/**
 * The table of a semi-sorted filter: {@code bucketCount} buckets of four {@code f}-bit
 * fingerprints, each bucket {@code 4f - 4} bits, packed back to back into a {@code long[]} read
 * as one little-endian bit string (bit {@code i} is bit {@code i % 64} of word {@code i / 64}).
 * This is also the payload layout, whatever implementation holds the table.
 *
 * <p>Bucket {@code k} starts at bit {@code k·(4f - 4)}. Its four fingerprints are kept in order
 * of {@code (nibble, high)}, where a fingerprint is {@code high << 4 | nibble}; the bucket holds
 * the 12-bit {@link SemiSortCodec} code of the four nibbles in its bits {@code [0, 12)}, then
 * the {@code f - 4} high bits of slot {@code i} in bits {@code [12 + i(f-4), 12 + (i+1)(f-4))}.
 * An empty slot is fingerprint 0 (nibble 0, high 0), which no key has, so empty slots come first
 * and a fingerprint whose nibble is 0 is told from an empty slot by its non-zero high bits.
 * Every multiset of four fingerprints has exactly one such bucket: a table read from a file is
 * checked with {@link #isCanonical}.
 *
 * <p>The bit string lives in {@link TableWords}, on the heap or in a mapped file, and the code
 * is the same for both. A table mapped from a file is not checked bucket by bucket when it opens,
 * so a forged code above the last one ({@link SemiSortCodec#CODES}) is read as four empty
 * nibbles, never past the codec's tables; {@code verify()} reports it. Implementations differ
 * only in how fast they search: {@link #wrap} picks one for the width. Positions are {@code
 * long} bit offsets, so tables of more than 2^31 slots work. Nothing
 * here allocates after construction. Not thread-safe for writes, but a write stores only to
 * the words of its own bucket and keeps no scratch state in the table, so writers of buckets in
 * different words may run at once; lookups only read. An entry of this table is its
 * fingerprint: no value rides beside it.
 */
abstract sealed class SemiSortedTable extends BitStringTable
    permits Width5To7Table, Width8To15Table, Width16Table, Width17To32Table {
  /*
   * Semi-sorting after Fan et al. [1], section 5.2: of each fingerprint only its high f - 4 bits
   * are stored per slot, and the four low nibbles, sorted, as one SemiSortCodec code, so a
   * bucket takes 12 + 4(f - 4) = 4f - 4 bits. Fingerprint 0 means an empty slot and no key has
   * it (PartialKeyHashing), so an empty slot is the one slot whose nibble and high bits are both
   * 0; a stored fingerprint with nibble 0 has non-zero high bits. Keeping the slots in order of
   * (nibble, high), not of the nibble alone, makes the encoding of a bucket unique, which lets
   * the reader of a file reject anything this class would not have written.
   *
   * Buckets are packed back to back with no padding (bit offsets are longs), so a bucket of at
   * most 64 bits is read with one two-word window (PackedBits); for f = 16, 60-bit buckets fill
   * 15 words per 16 buckets. The reference code of [1] decodes a bucket into four fingerprints
   * for every lookup, and its lookup is right only for f = 13; here lookups never decode
   * (Width8To15Table), and the tests check every width from 5 to 32 against every code.
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   */

  /** The most longs a table on the heap may hold: one array. */
  static final long MAX_WORDS = CuckooSizing.MAX_HEAP_WORDS;
  /** Slots per bucket: semi-sorting encodes exactly four nibbles. */
  static final int SLOTS = 4;
  /** The narrowest and widest fingerprints: at least one high bit, and an int. */
  static final int MIN_BITS = 5;
  static final int MAX_BITS = 32;

  /** The high bits stored per slot: f - 4. */
  final int highBits;
  final long highMask;

  SemiSortedTable(long bucketCount, int bits, TableWords words) {
    super(bucketCount, requireWidth(bits), bucketBits(bits), words);
    this.highBits = bits - 4;
    this.highMask = -1L >>> (64 - highBits);
  }

  private static int requireWidth(int bits) {
    if (bits < MIN_BITS || bits > MAX_BITS) {
      throw new IllegalArgumentException("no semi-sorted bucket has " + bits + "-bit fingerprints");
    }
    return bits;
  }

  /** @return the 64 bits of the table from bit {@code offset} ({@link TableWords#window}) */
  final long window(long offset) {
    return words.window(offset);
  }

  /** Stores a field of the table ({@link TableWords#write}). */
  final void write(long offset, long value, long mask) {
    words.write(offset, value, mask);
  }

  /** @return the bits of one bucket of {@code f}-bit fingerprints: {@code 4f - 4} */
  static long bucketBits(int bits) {
    return SLOTS * (bits - 1L);
  }

  /**
   * @return the longs the buckets take, without padding
   */
  static long payloadWords(long bucketCount, int bits) {
    return BitStringTable.payloadWords(bucketCount, bucketBits(bits));
  }

  /**
   * @return the longs a table of this shape allocates on the heap: its payload words and the
   *     padding word of {@link TableWords#onHeap}
   */
  static long allocatedWords(long bucketCount, int bits) {
    return payloadWords(bucketCount, bits) + 1;
  }

  /**
   * Creates an empty table on the heap, choosing the fastest implementation for the width.
   *
   * @param bucketCount an even bucket count, with {@link #allocatedWords} at most {@link
   *     #MAX_WORDS}
   * @param bits 5..32
   * @return the table
   */
  static SemiSortedTable create(long bucketCount, int bits) {
    return wrap(bucketCount, bits, TableWords.onHeap(payloadWords(bucketCount, bits)));
  }

  /**
   * Wraps words holding a table (read or mapped from a file, say), choosing the fastest
   * implementation for the width.
   *
   * @param words {@link #payloadWords} longs in the layout described above
   * @return the table, typed as the engine's base class: a caller's verification then loads no
   *     class of this variant (the provider's, when ServiceLoader makes it to learn its name)
   * @throws IllegalArgumentException if the width or the words' length does not fit
   */
  static BitStringTable of(long bucketCount, int bits, TableWords words) {
    return wrap(bucketCount, bits, words);
  }

  /**
   * {@link #of}, typed as this class, for code of this package.
   *
   * @param words {@link #payloadWords} longs in the layout described above
   * @return the table
   */
  static SemiSortedTable wrap(long bucketCount, int bits, TableWords words) {
    if (bits < 8) {
      return new Width5To7Table(bucketCount, bits, words);
    }
    if (bits == 16) {
      return new Width16Table(bucketCount, words);
    }
    if (bits <= 16) {
      return new Width8To15Table(bucketCount, bits, words);
    }
    return new Width17To32Table(bucketCount, bits, words);
  }

  // ---------------------------------------------------------------- searches, per width

  /**
   * @return whether either bucket holds the (non-zero) fingerprint
   */
  @Override
  public abstract boolean contains(long bucket1, long bucket2, int fingerprint);

  /**
   * @return the copies of the (non-zero) fingerprint in the two buckets together
   */
  @Override
  public abstract int count(long bucket1, long bucket2, int fingerprint);

  // ---------------------------------------------------------------- sort keys and buckets

  /*
   * A slot's sort key is (nibble << 32) | high: ordering sort keys orders fingerprints by
   * (nibble, high), the order of a bucket, and an empty slot is sort key 0, the smallest.
   */

  /** @return the sort key of a fingerprint */
  static long sortKey(int fingerprint) {
    return (fingerprint & 0xFL) << 32 | (fingerprint & 0xFFFF_FFFFL) >>> 4;
  }

  /** @return the fingerprint of a sort key */
  static int fingerprintOfSortKey(long sortKey) {
    return (int) (sortKey << 4 | sortKey >>> 32);
  }

  /** @return the bit offset of a bucket */
  final long offset(long bucket) {
    return bucket * bucketBits;
  }

  /** @return the code of the bucket at this offset (any 12 bits, in a table not checked: {@link SemiSortCodec#nibbles} reads every one) */
  final int code(long offset) {
    return (int) window(offset) & SemiSortCodec.CODE_MASK;
  }

  /**
   * The sorted nibbles of the bucket at this offset, n0 in bits 0-3 up to n3 in bits 12-15, for
   * {@link #sortKeyAt}.
   */
  final int nibblesAt(long offset) {
    return SemiSortCodec.nibbles(code(offset));
  }

  /**
   * The sort key of one slot of the bucket at this offset: its nibble from {@link #nibblesAt},
   * its high bits from the slot's field. The operations that rewrite a bucket read its sort keys
   * into locals, not into a scratch array of the table, so that threads writing different
   * buckets (under different locks) share nothing but the words of their own buckets.
   */
  final long sortKeyAt(long offset, int nibbles, int slot) {
    long high = window(offset + SemiSortCodec.CODE_BITS + (long) slot * highBits) & highMask;
    return (long) (nibbles >>> (4 * slot) & 0xF) << 32 | high;
  }

  /** Sorts four sort keys and stores them as the bucket at this offset. */
  final void store(long offset, long a, long b, long c, long d) {
    // A sorting network of five compare-exchanges (Knuth, TAOCP 5.3.4), each without a branch:
    // the sort keys are random, so a branch would be mispredicted half the time. They are below
    // 2^36, so the differences cannot overflow; (x - y) >> 63 is all ones exactly when x < y.
    long t = (b - a) & ((b - a) >> 63);
    a += t;
    b -= t;
    t = (d - c) & ((d - c) >> 63);
    c += t;
    d -= t;
    t = (c - a) & ((c - a) >> 63);
    a += t;
    c -= t;
    t = (d - b) & ((d - b) >> 63);
    b += t;
    d -= t;
    t = (c - b) & ((c - b) >> 63);
    b += t;
    c -= t;
    long code = SemiSortCodec.encode((int) (a >>> 32), (int) (b >>> 32), (int) (c >>> 32), (int) (d >>> 32));
    int h = highBits;
    long m = highMask;
    int undo = openUndo(offset);
    if (bucketBits <= 64) {
      long bucket = code | (a & m) << 12 | (b & m) << (12 + h) | (c & m) << (12 + 2 * h) | (d & m) << (12 + 3 * h);
      write(offset, bucket, -1L >>> (64 - bucketBits));
    } else {
      // Three fields of at most 56 bits: code and slot 0, slots 1 and 2, slot 3.
      write(offset, code | (a & m) << 12, -1L >>> (64 - 12 - h));
      write(offset + 12 + h, (b & m) | (c & m) << h, -1L >>> (64 - 2 * h));
      write(offset + 12 + 3L * h, d & m, m);
    }
    words.closeUndo(undo);
  }

  /**
   * Before a bucket is rewritten: every slot's bits change, in as many words as the bucket
   * touches, and a process that died between two of those stores would leave a bucket that
   * holds none of its fingerprints. {@link TableWords#openUndo} keeps the bucket's words as they
   * were until {@link TableWords#closeUndo}, for the next writer to put back (a mapped file);
   * a heap table keeps nothing.
   */
  private int openUndo(long offset) {
    return words.openUndo(offset >>> 6, (offset + bucketBits - 1) >>> 6);
  }

  // ---------------------------------------------------------------- CuckooTable

  @Override
  public final int slotsPerBucket() {
    return SLOTS;
  }

  /*
   * An entry is its fingerprint, an unsigned int in a long: (int) entry is the fingerprint, and
   * a fingerprint read back is widened without its sign.
   */

  /** {@inheritDoc} The empty slots are the first ones, so the bucket has room if slot 0 is empty. */
  @Override
  public final boolean insert(long bucket, long entry) {
    int fingerprint = (int) entry;
    long o = offset(bucket);
    if (bucketBits > 64) {
      int n = nibblesAt(o);
      if (sortKeyAt(o, n, 0) != 0) {
        return false;
      }
      store(o, sortKey(fingerprint), sortKeyAt(o, n, 1), sortKeyAt(o, n, 2), sortKeyAt(o, n, 3));
      return true;
    }
    // The bucket is one window: move the sort keys of slots 1..p down one slot and put the new
    // one in slot p, where p is how many of them are smaller, then encode the nibbles anew. This
    // is the insert path, so it avoids decoding into sort keys and sorting all four.
    long x = window(o);
    int n = SemiSortCodec.nibbles((int) x & SemiSortCodec.CODE_MASK);
    long highs = x >>> SemiSortCodec.CODE_BITS;
    int h = highBits;
    long m = highMask;
    if ((n & 0xF) != 0 || (highs & m) != 0) {
      return false;
    }
    long k = sortKey(fingerprint);
    long k1 = (long) (n >>> 4 & 0xF) << 32 | (highs >>> h & m);
    long k2 = (long) (n >>> 8 & 0xF) << 32 | (highs >>> (2 * h) & m);
    long k3 = (long) (n >>> 12) << 32 | (highs >>> (3 * h) & m);
    // (k_i - k) >>> 63 is 1 exactly when k_i < k (the sort keys are below 2^36).
    int p = (int) ((k1 - k) >>> 63) + (int) ((k2 - k) >>> 63) + (int) ((k3 - k) >>> 63);
    long below = (1L << (p * h)) - 1;
    long newHighs = (highs >>> h & below) | (k & m) << (p * h) | (highs & -1L << ((p + 1) * h));
    int nibbleBelow = (1 << (4 * p)) - 1;
    int newNibbles = (n >>> 4 & nibbleBelow) | (int) (k >>> 32) << (4 * p) | (n & (-1 << (4 * (p + 1))));
    long code = SemiSortCodec.encode(newNibbles & 0xF, newNibbles >>> 4 & 0xF, newNibbles >>> 8 & 0xF, newNibbles >>> 12);
    int undo = openUndo(o);
    write(o, code | newHighs << SemiSortCodec.CODE_BITS, -1L >>> (64 - bucketBits));
    words.closeUndo(undo);
    return true;
  }

  @Override
  public final long entryAt(long bucket, int slot) {
    long o = offset(bucket);
    return Integer.toUnsignedLong(fingerprintOfSortKey(sortKeyAt(o, nibblesAt(o), slot)));
  }

  /** {@inheritDoc} One for every table of this variant: they differ in where their words are, not in what an entry is. */
  @Override
  public final Object entryEncoding() {
    return SemiSortedTable.class;
  }

  @Override
  public final long evict(long bucket, int slot, long entry) {
    long o = offset(bucket);
    int n = nibblesAt(o);
    long k0 = sortKeyAt(o, n, 0);
    long k1 = sortKeyAt(o, n, 1);
    long k2 = sortKeyAt(o, n, 2);
    long k3 = sortKeyAt(o, n, 3);
    long k = sortKey((int) entry);
    long old = slot == 0 ? k0 : slot == 1 ? k1 : slot == 2 ? k2 : k3;
    store(o, slot == 0 ? k : k0, slot == 1 ? k : k1, slot == 2 ? k : k2, slot == 3 ? k : k3);
    return Integer.toUnsignedLong(fingerprintOfSortKey(old));
  }

  @Override
  public final void replace(long bucket, long entry, long replacement) {
    if (!swap(bucket, sortKey((int) entry), sortKey((int) replacement))) {
      throw new IllegalStateException(
          "bucket " + bucket + " does not hold fingerprint " + Integer.toUnsignedString((int) entry));
    }
  }

  /**
   * Removes one copy of the fingerprint from the bucket.
   *
   * @return {@code false} if the bucket does not hold it
   */
  @Override
  public final boolean remove(long bucket, long entry) {
    return swap(bucket, sortKey((int) entry), 0);
  }

  /** Replaces one slot holding sort key {@code from} by {@code to}; false if none holds it. */
  private boolean swap(long bucket, long from, long to) {
    long o = offset(bucket);
    int n = nibblesAt(o);
    long k0 = sortKeyAt(o, n, 0);
    long k1 = sortKeyAt(o, n, 1);
    long k2 = sortKeyAt(o, n, 2);
    long k3 = sortKeyAt(o, n, 3);
    if (k0 == from) {
      k0 = to;
    } else if (k1 == from) {
      k1 = to;
    } else if (k2 == from) {
      k2 = to;
    } else if (k3 == from) {
      k3 = to;
    } else {
      return false;
    }
    store(o, k0, k1, k2, k3);
    return true;
  }

  /** @return the occupied slots of the bucket */
  @Override
  protected final int occupied(long bucket) {
    long o = offset(bucket);
    int nibbles = nibblesAt(o);
    int n = 0;
    for (int slot = 0; slot < SLOTS; slot++) {
      n += sortKeyAt(o, nibbles, slot) != 0 ? 1 : 0;
    }
    return n;
  }

  /**
   * @return whether the bucket is one this class writes: a valid code and its slots in order
   */
  final boolean isCanonical(long bucket) {
    long o = offset(bucket);
    if (((int) window(o) & SemiSortCodec.CODE_MASK) >= SemiSortCodec.CODES) {
      return false;
    }
    int n = nibblesAt(o);
    return sortKeyAt(o, n, 0) <= sortKeyAt(o, n, 1) && sortKeyAt(o, n, 1) <= sortKeyAt(o, n, 2) && sortKeyAt(o, n, 2) <= sortKeyAt(o, n, 3);
  }

  /**
   * {@inheritDoc} That every bucket is a semi-sorted bucket, as this class writes them: a file's
   * table is checked whole when it is read, and by {@code verify()} when it is mapped.
   */
  @Override
  public final void requireEncoding(String where) throws CorruptFilterException {
    for (long b = 0; b < bucketCount; b++) {
      if (!isCanonical(b)) {
        throw new CorruptFilterException(
            where + " payload bucket " + b + " is not a semi-sorted bucket: its code is above "
                + (SemiSortCodec.CODES - 1) + " or its fingerprints are out of order");
      }
    }
  }
}
