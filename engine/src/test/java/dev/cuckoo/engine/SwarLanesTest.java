package dev.cuckoo.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cuckoo.testkit.TestSeed;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SwarLanesTest {

  /** Lane values biased towards the hard cases: 0, 1, the top bit alone, all ones. */
  private static long lane(SplittableRandom r, int width) {
    long mask = -1L >>> (64 - width);
    return switch (r.nextInt(6)) {
      case 0 -> 0;
      case 1 -> 1;
      case 2 -> 1L << (width - 1);
      case 3 -> mask;
      default -> r.nextLong() & mask;
    };
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 16, 17, 21, 24, 31, 32})
  void zeroLaneTestsAreExactForEveryWidth(int width) {
    SplittableRandom r = TestSeed.random("zero lanes of width " + width);
    for (int lanes = 1; lanes * width <= 64; lanes++) {
      long lo = SwarLanes.repeat(1L, width, lanes);
      long hi = lo << (width - 1);
      long low = SwarLanes.repeat((-1L >>> (64 - width)) >>> 1, width, lanes);
      int used = lanes * width;
      for (int i = 0; i < 20_000; i++) {
        long x = 0;
        long expectedLanes = 0;
        for (int k = 0; k < lanes; k++) {
          long v = lane(r, width);
          x |= v << (k * width);
          if (v == 0) {
            expectedLanes |= 1L << (k * width + width - 1);
          }
        }
        if (used < 64) {
          x |= r.nextLong() << used; // bits above the lanes must not matter
        }
        String at = "width " + width + ", " + lanes + " lanes, x=" + Long.toHexString(x) + ", " + TestSeed.rerun();
        assertEquals(expectedLanes, SwarLanes.zeroLanes(x, low, hi), at);
        assertEquals(expectedLanes != 0, SwarLanes.anyZero(x, lo, hi) != 0, at);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 8, 12, 16, 32})
  void aLaneEqualToAValueIsAZeroLaneOfTheXor(int width) {
    SplittableRandom r = TestSeed.random("lanes equal to a value, width " + width);
    int lanes = 64 / width;
    long lo = SwarLanes.repeat(1L, width, lanes);
    long hi = lo << (width - 1);
    long low = SwarLanes.repeat((-1L >>> (64 - width)) >>> 1, width, lanes);
    for (int i = 0; i < 20_000; i++) {
      long value = lane(r, width);
      long x = 0;
      int matches = 0;
      for (int k = 0; k < lanes; k++) {
        long v = r.nextInt(3) == 0 ? value : lane(r, width);
        matches += v == value ? 1 : 0;
        x |= v << (k * width);
      }
      long pattern = value * lo;
      String at = "width " + width + ", x=" + Long.toHexString(x) + " value=" + Long.toHexString(value) + ", "
          + TestSeed.rerun();
      assertEquals(matches, Long.bitCount(SwarLanes.zeroLanes(x ^ pattern, low, hi)), at);
      assertEquals(matches > 0, SwarLanes.anyZero(x ^ pattern, lo, hi) != 0, at);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {8, 16, 32})
  void aCodeEndedByItsLowestSetBitMatchesEveryLaneItIsAPrefixOf(int width) {
    SplittableRandom r = TestSeed.random("code prefixes, width " + width);
    int lanes = 64 / width;
    long laneMask = -1L >>> (64 - width);
    long lo = SwarLanes.repeat(1L, width, lanes);
    long hi = lo << (width - 1);
    long low = SwarLanes.repeat(laneMask >>> 1, width, lanes);
    for (int i = 0; i < 20_000; i++) {
      long x = 0;
      long p = 0;
      int matches = 0;
      for (int k = 0; k < lanes; k++) {
        long full = r.nextLong() & laneMask;
        int padding = r.nextInt(width); // the marker's place: 0..width-1
        long code = (full >>> padding >>> 1 << 1 | 1) << padding;
        // The pattern shares the code's bits above the marker, or differs in one of them.
        long pl = full;
        if (padding < width - 1 && r.nextBoolean()) {
          pl ^= 1L << (padding + 1 + r.nextInt(width - 1 - padding));
        }
        boolean prefix = ((code ^ pl) >>> padding >>> 1) == 0;
        matches += prefix ? 1 : 0;
        x |= code << (k * width);
        p |= pl << (k * width);
      }
      long d = SwarLanes.codeMismatch(x, p, lo);
      String at = "width " + width + ", x=" + Long.toHexString(x) + " p=" + Long.toHexString(p) + ", " + TestSeed.rerun();
      assertEquals(matches, Long.bitCount(SwarLanes.zeroLanes(d, low, hi)), at);
      assertEquals(matches > 0, SwarLanes.anyZero(d, lo, hi) != 0, at);
    }
  }
}
