package dev.cuckoo.engine;

/**
 * Partial-key cuckoo hashing: how a key's 64-bit hash becomes a bucket index and a fingerprint,
 * and how either candidate bucket is found from the other and the fingerprint alone. Shared by
 * the variants that size their tables freely (not to a power of two), so that they place keys
 * alike.
 *
 * <p>The contract, for a table of {@code m} buckets ({@code 1 <= m < 2^62}):
 * <ul>
 *   <li>{@link #bucketIndex} is in {@code [0, m)}, uniform over it for uniform hashes, and
 *       decided by the high bits of the hash;
 *   <li>{@link #fingerprint} is in {@code [1, 2^bits - 1]} (0 is left to mean "empty"), about
 *       uniform over it, and decided by the low {@code min(bits + 8, 32)} bits of the hash, so
 *       that it is independent of the bucket index in every table of at most 2^32 buckets;
 *   <li>{@link #alternateBucket} is an involution for every {@code m}: {@code
 *       alternateBucket(alternateBucket(i, fp, m), fp, m) == i}; when {@code m} is even, the
 *       alternate bucket always differs from {@code i}.
 * </ul>
 *
 * <p>Every method is static, allocation-free and small enough to be inlined into a variant's
 * hot path; with a constant {@code bits}, {@link #fingerprint} folds into four instructions.
 */
public final class PartialKeyHashing {

  /*
   * Fan et al. [1], section 3.1, store only an f-bit fingerprint of each key and find its two
   * candidate buckets as i1 = hash(x) and i2 = i1 XOR hash(fingerprint), so that an item can be
   * moved to its other bucket without the key. XOR is an involution only for a power-of-two
   * bucket count, and rounding a table up to one can waste half its memory. Any involution of
   * [0, m) does as well: we use the reflection i2 = (h - i1) mod m, with h = hash(fingerprint)
   * reduced to [0, m); applying it twice gives h - (h - i1) = i1. When m is even, h is made odd,
   * so that i1 + i2 ≡ h is odd and the two buckets never coincide (FastFilter's Cuckoo8 [3]
   * uses the same trick): an item whose buckets coincide would have half the room.
   *
   * hash(fingerprint) must not be linear in the fingerprint. With h = fp·C (a single multiply),
   * the offsets of consecutive fingerprints form an arithmetic progression modulo m, the 2^f
   * alternates of a bucket are all a few multiples of one stride apart, and a table of 4-bit
   * fingerprints in buckets of 4 refused its first key at 85% load instead of 95%. A multiply,
   * xor-shift and multiply (the first half of SplitMix64's finalizer) removes the structure.
   *
   * Reductions to [0, n) use the high word of the 128-bit product x·n (Lemire's multiply-shift
   * [2]) rather than a modulo: one multiplication instead of a division, and a bias of at most
   * n / 2^64. Java 17 has only the signed Math.multiplyHigh: reduce corrects it for negative x
   * with one masked add, and bucketIndex avoids the correction by multiplying x >>> 1 by 2n.
   *
   * The bucket index comes from the high bits of the hash and the fingerprint from its low
   * bits, so that the two are independent, as the false-positive analysis of [1] (section 5.1)
   * assumes. The fingerprint maps the low bits + 8 (at most 32) onto [1, 2^f - 1] by the same
   * multiply-shift: 0 stays free for "empty", and each value has probability 1/(2^f - 1) within
   * a factor of 1 ± 2^-8. (The reference code of [1] turns 0 into 1 instead, which makes one
   * value about twice as likely: with 4-bit fingerprints in buckets of 4, nine keys sharing a
   * bucket pair through that value, an overflow no kick can resolve, become some 300 times more
   * likely.)
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   * [2] D. Lemire, "Fast Random Integer Generation in an Interval", ACM TOMACS 29(1), 2019.
   * [3] T. Mueller Graf, D. Lemire, FastFilter (Java), class org.fastfilter.cuckoo.Cuckoo8.
   */

  /** Odd multipliers of the fingerprint hash (2^64 / golden ratio, and SplitMix64's). */
  private static final long FINGERPRINT_MIX = 0x9E3779B97F4A7C15L;
  private static final long FINGERPRINT_MIX_2 = 0xBF58476D1CE4E5B9L;

  private PartialKeyHashing() {}

  /**
   * Maps {@code x}, taken as an unsigned 64-bit number, onto {@code [0, n)}: the high 64 bits of
   * the 128-bit product {@code x·n}. Uniform {@code x} gives a uniform result; the result is
   * mostly decided by the high bits of {@code x}.
   *
   * @param x any value, read as unsigned
   * @param n the size of the range, at least 1
   * @return a value in {@code [0, n)} (for {@code n <= 0} the result is meaningless)
   */
  public static long reduce(long x, long n) {
    return Math.multiplyHigh(x, n) + ((x >> 63) & n);
  }

  /**
   * The key's first candidate bucket: {@code reduce(keyHash & ~1, bucketCount)}, computed as
   * the signed high word of {@code (keyHash >>> 1) · 2·bucketCount}, which needs no unsigned
   * correction.
   *
   * @param keyHash the key's 64-bit hash
   * @param bucketCount the table's bucket count, 1 to 2^62 - 1
   * @return the bucket index in {@code [0, bucketCount)}
   */
  public static long bucketIndex(long keyHash, long bucketCount) {
    return Math.multiplyHigh(keyHash >>> 1, bucketCount << 1);
  }

  /**
   * The key's fingerprint: the low {@code min(bits + 8, 32)} bits of its hash mapped onto
   * {@code [1, 2^bits - 1]} (0 means "empty"), each value about equally likely.
   *
   * @param keyHash the key's 64-bit hash
   * @param bits the fingerprint width, 1..32 (fingerprints of 32 bits may be negative ints;
   *     read them as unsigned)
   * @return the fingerprint, in {@code [1, 2^bits - 1]} as an unsigned int
   */
  public static int fingerprint(long keyHash, int bits) {
    int width = Math.min(bits + 8, 32);
    long low = keyHash & (-1L >>> (64 - width));
    // low·(2^bits - 1) < 2^(width + bits) <= 2^64: read unsigned, the shift cannot overflow.
    return (int) ((low * ((1L << bits) - 1)) >>> width) + 1;
  }

  /**
   * The probability that a stored fingerprint matches the fingerprint of a random key: {@code
   * 1 / (2^bits - 1)}, as fingerprints are spread evenly over the non-zero values.
   *
   * @param bits the fingerprint width, 1..32
   * @return the chance that one stored fingerprint matches a random key's
   */
  public static double matchProbability(int bits) {
    return 1.0 / (Math.scalb(1.0, bits) - 1.0);
  }

  /**
   * The other candidate bucket of a fingerprint stored in {@code bucket}: an involution on
   * {@code [0, bucketCount)} for every bucket count, with no fixed point when the count is even.
   * Equal to {@code reflect(bucket, alternateOffset(fingerprint, bucketCount), bucketCount)}.
   *
   * @param bucket one candidate bucket, in {@code [0, bucketCount)}
   * @param fingerprint the fingerprint (any int; read as unsigned)
   * @param bucketCount the table's bucket count, at least 1
   * @return the other candidate bucket, in {@code [0, bucketCount)}
   */
  public static long alternateBucket(long bucket, int fingerprint, long bucketCount) {
    return reflect(bucket, alternateOffset(fingerprint, bucketCount), bucketCount);
  }

  /**
   * The part of {@link #alternateBucket} that depends on the fingerprint alone, for tables that
   * precompute it per fingerprint: a hash of the fingerprint reduced to {@code [0, bucketCount)},
   * odd when the bucket count is even.
   *
   * @param fingerprint the fingerprint (any int; read as unsigned)
   * @param bucketCount the table's bucket count, at least 1
   * @return the offset, in {@code [0, bucketCount)}
   */
  public static long alternateOffset(int fingerprint, long bucketCount) {
    long x = (fingerprint & 0xFFFF_FFFFL) * FINGERPRINT_MIX;
    x = (x ^ (x >>> 32)) * FINGERPRINT_MIX_2;
    // Made odd when m is even: ~m & 1 is 1 exactly then, and the largest value, m - 1, is then
    // odd already, so the offset stays below m.
    return reduce(x, bucketCount) | (~bucketCount & 1);
  }

  /**
   * The {@link #alternateOffset} of every fingerprint of {@code bits} bits, for a table that
   * looks offsets up instead of hashing the fingerprint: one load from a small array in place of
   * two multiplications, worth it only while the array is small next to the table. So it is made
   * only when it and a default stash take at most 1.5% of the table's bytes, the fingerprints
   * have at most 16 bits and the bucket count fits an int. The 1.5% is the slack CuckooSizing's
   * 96.5% design load leaves under the 95% of [1] for buckets of 4: a filter built that way
   * still takes at most {@code f / 0.95} bits per key in all.
   *
   * @param bucketCount the table's bucket count, at least 1
   * @param bits the fingerprint width, 1..32
   * @param tableBytes the bytes the table takes
   * @return the offsets indexed by fingerprint (entry 0 unused), or {@code null} where the
   *     conditions above do not hold
   */
  public static int[] alternateOffsets(long bucketCount, int bits, long tableBytes) {
    if (alternateOffsetsBytes(bucketCount, bits, tableBytes) == 0) {
      return null;
    }
    int[] offsets = new int[1 << bits];
    for (int fp = 1; fp < offsets.length; fp++) {
      offsets[fp] = (int) alternateOffset(fp, bucketCount);
    }
    return offsets;
  }

  /**
   * @param bucketCount the table's bucket count, at least 1
   * @param bits the fingerprint width, 1..32
   * @param tableBytes the bytes the table takes
   * @return the bytes of the array {@link #alternateOffsets} makes for such a table, 0 if none
   */
  public static long alternateOffsetsBytes(long bucketCount, int bits, long tableBytes) {
    long bytes = (long) Integer.BYTES << Math.min(bits, 16);
    long overhead = bytes + FingerprintStash.memoryBytes(FingerprintStash.DEFAULT_SLOTS);
    return bits > 16 || bucketCount > Integer.MAX_VALUE || overhead > tableBytes * 3 / 200 ? 0 : bytes;
  }

  /**
   * {@link #alternateBucket}, with the offset from {@link #alternateOffsets} when the table has
   * them.
   *
   * @param offsets the table's offsets, or {@code null} to compute the offset
   * @param bucket one candidate bucket, in {@code [0, bucketCount)}
   * @param fingerprint the fingerprint, below the length of {@code offsets} if it is not null
   * @param bucketCount the table's bucket count, at least 1
   * @return the other candidate bucket, equal to {@code alternateBucket(bucket, fingerprint,
   *     bucketCount)}
   */
  public static long alternateBucket(int[] offsets, long bucket, int fingerprint, long bucketCount) {
    long offset = offsets != null ? offsets[fingerprint] : alternateOffset(fingerprint, bucketCount);
    return reflect(bucket, offset, bucketCount);
  }

  /**
   * The reflection {@code (offset - bucket) mod bucketCount}: the alternate bucket, given the
   * fingerprint's {@link #alternateOffset}.
   *
   * @param bucket a bucket, in {@code [0, bucketCount)}
   * @param offset an offset, in {@code [0, bucketCount)}
   * @param bucketCount the table's bucket count, at least 1
   * @return the reflected bucket, in {@code [0, bucketCount)}
   */
  public static long reflect(long bucket, long offset, long bucketCount) {
    long d = offset - bucket;
    return d + ((d >> 63) & bucketCount);
  }
}
