package dev.cuckoo.engine;

import dev.cuckoo.CorruptFilterException;

/**
 * A {@link CuckooTable} whose buckets are packed back to back, {@link #bucketBits} bits each, in
 * the bit string of a {@link TableWords}: bucket {@code k} is bits {@code [k·bucketBits, (k +
 * 1)·bucketBits)}. It is the table of a variant built on {@link TableProvider}, which reads and
 * writes it, maps it from a file and checks it through this class, whatever the storage; the
 * table's words are its payload, {@link #payloadWords} longs written and mapped as they are.
 *
 * <p>A variant's subclass encodes a bucket and searches it ({@link #contains}, {@link #count},
 * {@link #occupied} and the entry operations); this class keeps what every encoding shares:
 * placing keys ({@link #bucketIndex}, {@link #alternate}, from precomputed offsets where they are
 * small), the lookup of a key ({@link #containsHash}, final, so that a call on a final subclass
 * inlines whole), and the table's sizes and checks. Nothing here allocates after construction.
 */
public abstract class BitStringTable implements CuckooTable {
  /** The number of buckets. */
  protected final long bucketCount;
  /** The fingerprint width. */
  protected final int bits;
  /** Bits of one bucket. */
  protected final long bucketBits;
  /** The bit string, {@link #payloadWords} longs. */
  protected final TableWords words;
  /**
   * The {@link PartialKeyHashing#alternateOffset} of every fingerprint, when that takes at most
   * 1/64 of the table's memory (short fingerprints in large tables) and the bucket count fits
   * an int; otherwise {@code null}. A load from this small array replaces the fingerprint hash.
   */
  private final int[] offsets;

  /**
   * @param bucketCount the number of buckets, even
   * @param bits the fingerprint width
   * @param bucketBits the bits of one bucket
   * @param words {@link #payloadWords} longs
   * @throws IllegalArgumentException if the words are not that many
   */
  protected BitStringTable(long bucketCount, int bits, long bucketBits, TableWords words) {
    if (words.length() != payloadWords(bucketCount, bucketBits)) {
      throw new IllegalArgumentException(words.length() + " words do not hold " + bucketCount + " buckets of "
          + bucketBits + " bits");
    }
    this.bucketCount = bucketCount;
    this.bits = bits;
    this.bucketBits = bucketBits;
    this.words = words;
    this.offsets = PartialKeyHashing.alternateOffsets(bucketCount, bits, words.bytes());
  }

  /**
   * @param bucketCount a bucket count
   * @param bucketBits the bits of one bucket
   * @return the longs those buckets take, packed, without padding
   */
  public static long payloadWords(long bucketCount, long bucketBits) {
    return (bucketCount * bucketBits + 63) >>> 6;
  }

  @Override
  public final long bucketCount() {
    return bucketCount;
  }

  /** @return the fingerprint width */
  public final int fingerprintBits() {
    return bits;
  }

  /** @return the words the bit string lives in */
  public final TableWords words() {
    return words;
  }

  /** @return the bits of one bucket */
  public final long bucketBits() {
    return bucketBits;
  }

  /** @return the bytes the table holds besides its words: the alternate offsets, if any */
  public final long extraBytes() {
    return offsets == null ? 0 : (long) offsets.length * Integer.BYTES;
  }

  // ---------------------------------------------------------------- keys to buckets

  /*
   * A key's buckets and fingerprint are computed in the table rather than in the filter so that
   * a final subclass whose fingerprint width is a constant folds PartialKeyHashing into a few
   * instructions. Fewer instructions per lookup also let the processor keep more lookups, and so
   * more cache misses, in flight.
   */

  /** @return the key's first bucket */
  @Override
  public final long bucketIndex(long keyHash) {
    return PartialKeyHashing.bucketIndex(keyHash, bucketCount);
  }

  /** @return the key's fingerprint; a subclass whose width is a constant says so, for speed */
  @Override
  public int fingerprint(long keyHash) {
    return PartialKeyHashing.fingerprint(keyHash, bits);
  }

  /** {@inheritDoc} From a precomputed offset when the table has them. */
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

  /**
   * Looks up a block of key hashes: answer {@code i} is {@link #containsHash}{@code (hashes[i])}.
   * A table whose bucket is one load may read every key's buckets first and test them after, so
   * that the loads, independent of one another, overlap their cache misses.
   *
   * @param hashes the hashes, in {@code [0, n)}
   * @param n how many
   * @param scratch at least {@code 2n} longs
   * @param results where answer {@code i} goes, at {@code at + i}
   * @param at where the block's answers start
   * @return how many are true
   */
  public int containsHashes(long[] hashes, int n, long[] scratch, boolean[] results, int at) {
    int found = 0;
    for (int i = 0; i < n; i++) {
      boolean r = containsHash(hashes[i]);
      results[at + i] = r;
      found += r ? 1 : 0;
    }
    return found;
  }

  /**
   * Reads the first word of both buckets of every key of a block, in one loop of loads ({@link
   * TableWords#gather}), and nothing else: the adds that follow, key by key, find their buckets
   * in the cache, where each would otherwise wait for its own miss in turn.
   *
   * @param hashes the hashes, in {@code [0, n)}
   * @param n how many
   * @param scratch at least {@code 2n} longs, overwritten
   */
  public final void fetchBuckets(long[] hashes, int n, long[] scratch) {
    bucketOffsets(hashes, n, scratch);
    for (int i = 0; i < 2 * n; i++) {
      scratch[i] >>>= 6;
    }
    words.gather(scratch, 2 * n);
  }

  /**
   * The first pass of a block of lookups: both buckets of every key, {@code scratch[2i]} and
   * {@code scratch[2i + 1]} for key {@code i}.
   *
   * @param hashes the hashes, in {@code [0, n)}
   * @param n how many
   * @param scratch at least {@code 2n} longs
   */
  protected final void bucketPairs(long[] hashes, int n, long[] scratch) {
    for (int i = 0; i < n; i++) {
      long keyHash = hashes[i];
      long bucket1 = bucketIndex(keyHash);
      scratch[2 * i] = bucket1;
      scratch[2 * i + 1] = alternate(bucket1, fingerprint(keyHash));
    }
  }

  /**
   * {@link #bucketPairs} as the bit offsets where the buckets begin.
   *
   * @param hashes the hashes, in {@code [0, n)}
   * @param n how many
   * @param scratch at least {@code 2n} longs
   */
  protected final void bucketOffsets(long[] hashes, int n, long[] scratch) {
    bucketPairs(hashes, n, scratch);
    for (int i = 0; i < 2 * n; i++) {
      scratch[i] *= bucketBits;
    }
  }

  /**
   * The last pass of a block of lookups, for a table whose bucket is one SWAR word of lanes:
   * key {@code i} is present if either of its gathered buckets, {@code gathered[2i]} and {@code
   * gathered[2i + 1]}, has a lane equal to its fingerprint.
   *
   * @param hashes the hashes, in {@code [0, n)}
   * @param n how many
   * @param gathered both buckets of every key, as {@link TableWords#gather} or {@link
   *     TableWords#gatherWindows} left them
   * @param results where answer {@code i} goes, at {@code at + i}
   * @param at where the block's answers start
   * @param lo the lowest bit of each lane
   * @param hi the highest bit of each lane
   * @return how many are true
   */
  protected final int testGathered(long[] hashes, int n, long[] gathered, boolean[] results, int at, long lo, long hi) {
    int found = 0;
    for (int i = 0; i < n; i++) {
      long pattern = (fingerprint(hashes[i]) & 0xFFFF_FFFFL) * lo;
      boolean r = SwarLanes.anyZero(gathered[2 * i] ^ pattern, gathered[2 * i + 1] ^ pattern, lo, hi) != 0;
      results[at + i] = r;
      found += r ? 1 : 0;
    }
    return found;
  }

  // ---------------------------------------------------------------- sizes and checks

  /**
   * @param bucket a bucket
   * @return its occupied slots
   */
  protected abstract int occupied(long bucket);

  /** @return the slots in use, counted bucket by bucket */
  public final long occupiedSlots() {
    long n = 0;
    for (long b = 0; b < bucketCount; b++) {
      n += occupied(b);
    }
    return n;
  }

  /**
   * @return whether the bits after the last bucket (to the end of the storage) are all zero, as a
   *     table written by the variant has them
   */
  public final boolean tailIsClear() {
    return words.isClearFrom(bucketCount * bucketBits);
  }

  /**
   * Checks what only this encoding can tell of a table read or mapped from a file (that every
   * bucket is one the variant writes, say); by default nothing.
   *
   * @param where what a message begins with: the variant, or the file and the variant
   * @throws CorruptFilterException naming the first thing that is not as the variant writes it
   */
  public void requireEncoding(String where) throws CorruptFilterException {}

  /** Empties every slot. */
  @Override
  public final void clear() {
    words.clear();
  }
}
