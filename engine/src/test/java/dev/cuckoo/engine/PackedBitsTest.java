package dev.cuckoo.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.testkit.TestSeed;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PackedBitsTest {

  /** The array as one little-endian bit string. */
  private static BigInteger bits(long[] words) {
    BigInteger x = BigInteger.ZERO;
    for (int i = words.length - 1; i >= 0; i--) {
      x = x.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(words[i])));
    }
    return x;
  }

  @Test
  void windowsAndWritesAtEveryOffsetAndWidthMatchABitString() {
    SplittableRandom r = TestSeed.random("packed windows and writes");
    long[] words = new long[6];
    for (int i = 0; i < words.length; i++) {
      words[i] = r.nextLong();
    }
    BigInteger mask64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    for (int width = 1; width <= 64; width++) {
      long mask = -1L >>> (64 - width);
      for (int offset = 0; offset <= 4 * 64 - width; offset++) {
        BigInteger before = bits(words);
        assertEquals(before.shiftRight(offset).and(mask64).longValue(), PackedBits.window(words, offset),
            "window at " + offset + ", " + TestSeed.rerun());
        long value = r.nextLong();
        PackedBits.write(words, offset, value, mask);
        BigInteger field = BigInteger.valueOf(value & mask).and(mask64);
        if (width == 64) {
          field = new BigInteger(Long.toUnsignedString(value));
        }
        BigInteger fieldMask = BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE).shiftLeft(offset);
        BigInteger expected = before.andNot(fieldMask).or(field.shiftLeft(offset));
        assertEquals(expected, bits(words), "write of " + width + " bits at " + offset + ", " + TestSeed.rerun());
      }
    }
  }

  @Test
  void aWriteTouchesOnlyTheWordsItsFieldOccupies() {
    // A store of unchanged bits to the next word cannot be seen in one thread, but it undoes a
    // concurrent writer's change there; an array without that word shows whether it is touched.
    for (int width = 1; width <= 64; width++) {
      long mask = -1L >>> (64 - width);
      for (int offset = 0; offset + width <= 64; offset++) {
        long[] words = {0x5555_5555_5555_5555L};
        PackedBits.write(words, offset, -1L, mask);
        assertEquals(0x5555_5555_5555_5555L | (mask << offset), words[0], width + " bits at " + offset);
      }
    }
  }

  @Test
  void isClearFromLooksAtEveryBitFromTheOffsetOn() {
    long[] words = new long[3];
    assertTrue(PackedBits.isClearFrom(words, 0));
    words[1] = 1L << 5;
    assertTrue(PackedBits.isClearFrom(words, 64 + 6));
    assertFalse(PackedBits.isClearFrom(words, 64 + 5));
    assertFalse(PackedBits.isClearFrom(words, 3));
    words[1] = 0;
    words[2] = Long.MIN_VALUE;
    assertFalse(PackedBits.isClearFrom(words, 128));
    assertTrue(PackedBits.isClearFrom(words, 3 * 64));
  }
}
