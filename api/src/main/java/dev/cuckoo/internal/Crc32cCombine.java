package dev.cuckoo.internal;

/**
 * The algebra that lets a CRC32C be updated without rereading what did not change: the CRC of a
 * concatenation from the CRCs of its parts.
 *
 * <p>CRC32C (Castagnoli, reflected, initial value and final xor {@code 0xFFFFFFFF}) runs a
 * register {@code r} over the message; over GF(2) each byte maps {@code r} linearly, so after a
 * part {@code B} of {@code n} bytes the register is {@code M^n·r ⊕ L(B)}, where {@code M^n} is
 * multiplication by {@code x^(8n)} modulo the polynomial {@code P} and {@code L(B)} depends on
 * {@code B} alone. Writing {@code crc(X) = r_X ⊕ 0xFFFFFFFF} and expanding both sides gives
 *
 * <pre>
 * crc(A ‖ B) = x^(8·|B|)·crc(A) ⊕ crc(B)          (mod P)
 * crc(0^n)   = x^(8n)·0xFFFFFFFF ⊕ 0xFFFFFFFF      (n zero bytes)
 * </pre>
 *
 * <p>In the reflected form a 32-bit value's bit {@code 31 - k} is the coefficient of {@code
 * x^k}: multiplying by {@code x} is a shift right, and a coefficient carried past {@code x^31}
 * folds back as {@code P}'s low terms, {@code 0x82F63B78}. Powers {@code x^(8n)} are products of
 * the squares {@code x^(2^k)}, kept in a table, so a shift by any length costs at most 64
 * products of 32 steps each.
 */
final class Crc32cCombine {
  /** CRC32C's polynomial without its {@code x^32} term, reflected. */
  private static final int POLYNOMIAL = 0x82F63B78;
  /** {@code x^0}, the polynomial 1, reflected. */
  private static final int ONE = 0x80000000;
  /** {@code X_TO_2_TO[k]} is {@code x^(2^k)} modulo P, reflected. */
  private static final int[] X_TO_2_TO = new int[64];

  static {
    X_TO_2_TO[0] = ONE >>> 1; // x^1
    for (int k = 1; k < X_TO_2_TO.length; k++) {
      X_TO_2_TO[k] = multiply(X_TO_2_TO[k - 1], X_TO_2_TO[k - 1]);
    }
  }

  private Crc32cCombine() {}

  /** @return {@code a·b} modulo P, both reflected */
  static int multiply(int a, int b) {
    int product = 0;
    for (int bit = ONE; bit != 0 && a != 0; bit >>>= 1) {
      if ((a & bit) != 0) {
        product ^= b;
        a ^= bit;
      }
      b = (b & 1) != 0 ? (b >>> 1) ^ POLYNOMIAL : b >>> 1;
    }
    return product;
  }

  /**
   * @param bytes a length, at least 0
   * @return {@code x^(8·bytes)} modulo P, reflected: what a CRC is multiplied by when that many
   *     bytes follow its message
   */
  static int shiftFor(long bytes) {
    int power = ONE;
    long exponent = bytes; // of x^8: bit k of it picks x^(8·2^k) = x^(2^(k+3))
    for (int k = 3; exponent != 0; k++, exponent >>>= 1) {
      if ((exponent & 1) != 0) {
        power = multiply(power, X_TO_2_TO[k]);
      }
    }
    return power;
  }

  /**
   * @param crcA the CRC32C of a message A
   * @param crcB the CRC32C of a message B
   * @param lengthB B's length in bytes
   * @return the CRC32C of A followed by B
   */
  static int combine(int crcA, int crcB, long lengthB) {
    return multiply(shiftFor(lengthB), crcA) ^ crcB;
  }

  /**
   * {@link #combine} with the shift already computed, for many parts of one length.
   *
   * @param crcA the CRC32C of A
   * @param crcB the CRC32C of B
   * @param shiftB {@link #shiftFor} B's length
   * @return the CRC32C of A followed by B
   */
  static int combineShifted(int crcA, int crcB, int shiftB) {
    return multiply(shiftB, crcA) ^ crcB;
  }

  /**
   * @param bytes a length, at least 0
   * @return the CRC32C of that many zero bytes
   */
  static int ofZeros(long bytes) {
    return multiply(shiftFor(bytes), 0xFFFFFFFF) ^ 0xFFFFFFFF;
  }
}
