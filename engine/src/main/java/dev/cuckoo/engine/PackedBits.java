package dev.cuckoo.engine;

/**
 * Bit fields packed back to back in a {@code long[]}, read as one little-endian bit string: bit
 * {@code i} is bit {@code i % 64} of word {@code i / 64}. Offsets are {@code long} bit offsets,
 * so arrays of up to 2^31 words (2^37 bits) are addressed.
 *
 * <p>The contract: {@link #window} reads the 64 bits starting at any bit offset with two word
 * reads, and {@link #write} stores a field of 1 to 64 bits at any bit offset, changing no other
 * bit. A window reads word {@code offset / 64} and the word after it, so an array that fields
 * are read or written in holds one word past its last field's last word (a zero padding word);
 * a write stores only to the words its field occupies, so writers of fields in different words
 * never overwrite each other's bits.
 * Every method is static and allocation-free; {@link #isClearFrom} is the check a reader makes
 * that no bit is set past the last field.
 */
final class PackedBits {

  /*
   * Java takes a long's shift distance modulo 64, so x << 64 is x, not 0. A window at offset o
   * is word[o/64] >>> o | word[o/64 + 1] << (64 - o % 64), which at a word-aligned o must take
   * nothing from the next word: shifting left by 1 and then by ~o (63 - o % 64) shifts by
   * 64 - o % 64 in two steps and by 64 in all, to 0, when o % 64 is 0. A write splits the field
   * the same way: the part that does not fit in word[o/64] is value >>> 1 >>> ~o.
   *
   * A write leaves the next word alone when the field ends in word[o/64]: rewriting it with its
   * own bits would change nothing for one thread, but would undo a concurrent write to that word
   * by a thread holding the lock of the fields there (StripeLocks).
   */

  private PackedBits() {}

  /**
   * @param words the array, with at least one word after the one holding bit {@code offset}
   * @param offset a bit offset, at least 0
   * @return bits {@code [offset, offset + 64)}, bit {@code offset} in bit 0
   * @throws ArrayIndexOutOfBoundsException if the array ends before word {@code offset / 64 + 1}
   */
  public static long window(long[] words, long offset) {
    int w = (int) (offset >>> 6);
    return (words[w] >>> offset) | ((words[w + 1] << 1) << ~offset);
  }

  /**
   * Stores the low bits of {@code value} selected by {@code mask} at the bit offset, storing to
   * word {@code offset / 64 + 1} only when the field reaches into it.
   *
   * @param words the array, with at least one word after the one holding bit {@code offset}
   * @param offset a bit offset, at least 0
   * @param value the field; only the bits in {@code mask} are stored
   * @param mask the field's width as a mask of its low bits: {@code -1L >>> (64 - bits)}
   * @throws ArrayIndexOutOfBoundsException if the array ends before word {@code offset / 64 + 1}
   */
  public static void write(long[] words, long offset, long value, long mask) {
    int w = (int) (offset >>> 6);
    long v = value & mask;
    words[w] = (words[w] & ~(mask << offset)) | (v << offset);
    long spill = (mask >>> 1) >>> ~offset;
    if (spill != 0) {
      words[w + 1] = (words[w + 1] & ~spill) | ((v >>> 1) >>> ~offset);
    }
  }

  /**
   * @param words the array
   * @param bit a bit offset, at least 0
   * @return whether every bit of the array from {@code bit} on is zero
   */
  public static boolean isClearFrom(long[] words, long bit) {
    for (long w = bit >>> 6; w < words.length; w++) {
      // The first word may be partly used: its unused bits are those from bit % 64 up
      // (all of it when bit is a multiple of 64, as -1L << 0 is -1).
      long unused = w == bit >>> 6 ? -1L << bit : -1L;
      if ((words[(int) w] & unused) != 0) {
        return false;
      }
    }
    return true;
  }
}
