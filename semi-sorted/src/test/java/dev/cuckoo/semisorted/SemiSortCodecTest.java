package dev.cuckoo.semisorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The codec over all 3876 codes: a bijection with the sorted 4-tuples of nibbles. */
class SemiSortCodecTest {

  private static int nibble(int nibbles, int i) {
    return (nibbles >>> (4 * i)) & 0xF;
  }

  @Test
  void everyCodeDecodesToASortedTupleThatEncodesBackToIt() {
    for (int code = 0; code < SemiSortCodec.CODES; code++) {
      int n = SemiSortCodec.nibbles(code);
      assertEquals(0, n >>> 16, "code " + code);
      assertTrue(nibble(n, 0) <= nibble(n, 1) && nibble(n, 1) <= nibble(n, 2) && nibble(n, 2) <= nibble(n, 3),
          "code " + code + " decodes to an unsorted tuple " + Integer.toHexString(n));
      assertEquals(code, SemiSortCodec.encode(nibble(n, 0), nibble(n, 1), nibble(n, 2), nibble(n, 3)));
    }
  }

  @Test
  void everySortedTupleHasItsOwnCodeInRange() {
    boolean[] seen = new boolean[SemiSortCodec.CODES];
    int tuples = 0;
    for (int n0 = 0; n0 < 16; n0++) {
      for (int n1 = n0; n1 < 16; n1++) {
        for (int n2 = n1; n2 < 16; n2++) {
          for (int n3 = n2; n3 < 16; n3++) {
            int code = SemiSortCodec.encode(n0, n1, n2, n3);
            assertTrue(code >= 0 && code < SemiSortCodec.CODES, "code " + code);
            assertTrue(!seen[code], "code " + code + " twice");
            seen[code] = true;
            assertEquals(n0 | n1 << 4 | n2 << 8 | n3 << 12, SemiSortCodec.nibbles(code));
            tuples++;
          }
        }
      }
    }
    assertEquals(3876, tuples, "C(19, 4)");
    assertEquals(0, SemiSortCodec.encode(0, 0, 0, 0), "an empty bucket is code 0");
    assertEquals(3875, SemiSortCodec.encode(15, 15, 15, 15));
    assertTrue(SemiSortCodec.CODES <= 1 << SemiSortCodec.CODE_BITS);
    // Any 12 bits decode, a value past the last code (a forged table's) as four empty nibbles.
    assertEquals(0, SemiSortCodec.nibbles(SemiSortCodec.CODES));
    assertEquals(0, SemiSortCodec.nibbles((1 << SemiSortCodec.CODE_BITS) - 1));
  }

  @Test
  void laneTablesPutNibbleIInLaneIForEveryWidth() {
    for (int paired = 0; paired < 2; paired++) {
      for (int width = 4; width <= (paired == 1 ? 28 : 16); width++) {
        long[] lanes = SemiSortCodec.laneNibbles(width, paired == 1);
        assertSame(lanes, SemiSortCodec.laneNibbles(width, paired == 1), "built once");
        for (int code = 0; code < SemiSortCodec.CODES; code++) {
          int n = SemiSortCodec.nibbles(code);
          long expected = 0;
          for (int i = 0; i < 4; i++) {
            int at = paired == 1 ? 32 * (i / 2) + width * (i % 2) : width * i;
            expected |= (long) nibble(n, i) << at;
          }
          assertEquals(expected, lanes[code], "width " + width + " code " + code);
        }
      }
    }
    assertThrows(IllegalArgumentException.class, () -> SemiSortCodec.laneNibbles(17, false));
    assertThrows(IllegalArgumentException.class, () -> SemiSortCodec.laneNibbles(3, true));
    assertThrows(IllegalArgumentException.class, () -> SemiSortCodec.laneNibbles(29, true));
  }
}
