package dev.cuckoo.semisorted;

/**
 * The 12-bit code of a sorted 4-tuple of 4-bit values: there are {@link #CODES} = C(19, 4) =
 * 3876 such tuples (values may repeat), so 12 bits hold what takes 16 unsorted. {@link #encode}
 * and {@link #nibbles} are inverse bijections between the sorted tuples and {@code [0, CODES)};
 * {@link #laneNibbles} lays each code's tuple out in SWAR lanes for lookups. Every table is
 * built once per JVM; no method allocates after that.
 */
final class SemiSortCodec {

  /*
   * Fan et al. [1], section 5.2, "semi-sorting buckets": in a bucket of four fingerprints the
   * order of the slots carries no information, so a bucket may keep its fingerprints sorted by
   * their 4 most significant bits and store those four 4-bit prefixes as the index of the sorted
   * tuple among all C(16 + 4 - 1, 4) = 3876, in 12 bits instead of 16. We take the low 4 bits of
   * a fingerprint as its "prefix" (any fixed 4 bits serve: fingerprints are uniform), so that a
   * fingerprint is (high << 4) | nibble.
   *
   * The reference code ranks tuples through a 65536-entry table. We rank them arithmetically:
   * a sorted tuple n0 <= n1 <= n2 <= n3 becomes the strictly increasing a_i = n_i + i in
   * [0, 19), and its colexicographic rank in the combinatorial number system [2] is
   * C(a0, 1) + C(a1, 2) + C(a2, 3) + C(a3, 4): four loads from tables of 19 ints that stay in
   * cache. Decoding is one load from a 3876-entry table of the four nibbles, built by ranking
   * every tuple once.
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   * [2] D. E. Knuth, The Art of Computer Programming, volume 4A, section 7.2.1.3, Theorem L
   *     (the combinatorial number system).
   */

  /** How many sorted 4-tuples of 4-bit values there are: C(19, 4). */
  static final int CODES = 3876;
  /** The bits of a code. */
  static final int CODE_BITS = 12;
  /** The mask of a code's bits. */
  static final int CODE_MASK = (1 << CODE_BITS) - 1;

  /** C(a + 1, 2), C(a + 2, 3) and C(a + 3, 4) for a nibble a: the terms of the rank. */
  private static final int[] RANK1 = new int[16];
  private static final int[] RANK2 = new int[16];
  private static final int[] RANK3 = new int[16];
  /** A code's sorted nibbles, n0 in bits 0-3 up to n3 in bits 12-15. */
  private static final char[] NIBBLES = new char[1 << CODE_BITS];
  /** The lane tables made so far, by lane width, then the paired ones; see {@link #laneNibbles}. */
  private static final long[][] LANES = new long[64][];

  static {
    for (int a = 0; a < 16; a++) {
      RANK1[a] = binomial(a + 1, 2);
      RANK2[a] = binomial(a + 2, 3);
      RANK3[a] = binomial(a + 3, 4);
    }
    boolean[] seen = new boolean[CODES];
    for (int n0 = 0; n0 < 16; n0++) {
      for (int n1 = n0; n1 < 16; n1++) {
        for (int n2 = n1; n2 < 16; n2++) {
          for (int n3 = n2; n3 < 16; n3++) {
            int code = encode(n0, n1, n2, n3);
            if (seen[code]) {
              throw new AssertionError("code " + code + " given twice");
            }
            seen[code] = true;
            NIBBLES[code] = (char) (n0 | n1 << 4 | n2 << 8 | n3 << 12);
          }
        }
      }
    }
  }

  private SemiSortCodec() {}

  private static int binomial(int n, int k) {
    long c = 1;
    for (int i = 0; i < k; i++) {
      c = c * (n - i) / (i + 1);
    }
    return (int) c;
  }

  /**
   * @param n0 the smallest nibble, 0..15
   * @param n1 the next, {@code n0 <= n1 <= 15}
   * @param n2 the next, {@code n1 <= n2 <= 15}
   * @param n3 the largest, {@code n2 <= n3 <= 15}
   * @return the tuple's code, in {@code [0, CODES)} (meaningless for unsorted input)
   */
  static int encode(int n0, int n1, int n2, int n3) {
    return n0 + RANK1[n1] + RANK2[n2] + RANK3[n3];
  }

  /**
   * @param code a code, any 12 bits
   * @return its sorted nibbles, the smallest in bits 0-3 and the largest in bits 12-15; 0 (four
   *     empty nibbles) for a value past the last code, which only a damaged or forged table holds
   */
  static int nibbles(int code) {
    return NIBBLES[code];
  }

  /**
   * The nibbles of every code laid out in SWAR lanes of {@code laneBits} bits: nibble {@code i}
   * in the low bits of lane {@code i}. Unpaired, the four lanes fill one long from bit 0;
   * paired, lanes 0 and 1 start at bit 0 and lanes 2 and 3 at bit 32. The table has an entry
   * for every 12-bit value, 0 past the last code, so that indexing it with 12 bits needs no
   * bounds check. Made once per layout and shared; callers must not change it.
   *
   * @param laneBits the lane width: 4..16 unpaired, 4..28 paired
   * @param paired whether the lanes come in pairs
   * @return the table, indexed by code, of {@code 2^12} entries
   * @throws IllegalArgumentException for another width
   */
  static synchronized long[] laneNibbles(int laneBits, boolean paired) {
    if (laneBits < 4 || laneBits > (paired ? 28 : 16)) {
      throw new IllegalArgumentException(
          (paired ? "pairs of lanes" : "four lanes") + " of " + laneBits + " bits do not fit");
    }
    int index = laneBits + (paired ? 32 : 0);
    long[] lanes = LANES[index];
    if (lanes == null) {
      lanes = new long[1 << CODE_BITS];
      for (int code = 0; code < CODES; code++) {
        long n = NIBBLES[code];
        long entry = 0;
        for (int i = 0; i < 4; i++) {
          long nibble = (n >>> (4 * i)) & 0xF;
          entry |= paired ? nibble << (32 * (i / 2) + laneBits * (i % 2)) : nibble << (laneBits * i);
        }
        lanes[code] = entry;
      }
      LANES[index] = lanes;
    }
    return lanes;
  }
}
