package dev.cuckoo.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CuckooSizingTest {
  private static final int[] BUCKET_SIZES = {1, 2, 4, 8};

  @Test
  void loadsAreThePapersAndTheDesignLoadsSitJustBelowButForBucketsOfFour() {
    double[] paper = {0.5, 0.84, 0.95, 0.98};
    for (int i = 0; i < 4; i++) {
      int b = BUCKET_SIZES[i];
      assertEquals(paper[i], CuckooSizing.maxLoad(b));
      assertTrue(CuckooSizing.legacyDesignLoad(b) < CuckooSizing.maxLoad(b));
      assertTrue(CuckooSizing.legacyDesignLoad(b) > CuckooSizing.maxLoad(b) - 0.03, "legacy design load of b=" + b);
      if (b != 4) {
        assertEquals(CuckooSizing.legacyDesignLoad(b), CuckooSizing.designLoad(b), "design load of b=" + b);
      }
    }
    // Buckets of 4 with the longer walk: past the paper's 95%, below the 97.7% limit of two
    // choices, and with room for f / 0.95 bits per key after the alternate offsets' 1/64.
    assertEquals(0.965, CuckooSizing.designLoad(4));
    assertTrue(CuckooSizing.MIN_KICKS >= 2000);
    for (int b : new int[] {0, 3, 5, 16}) {
      assertThrows(IllegalArgumentException.class, () -> CuckooSizing.maxLoad(b));
      assertThrows(IllegalArgumentException.class, () -> CuckooSizing.bucketCount(100, b, 12));
    }
    assertThrows(IllegalArgumentException.class, () -> CuckooSizing.bucketCount(0, 4, 12));
  }

  @Test
  void bucketCountsAreEvenAndWithinAFewPercentOfTheDesignLoadForUsualShapes() {
    long[] capacities = {1, 2, 3, 10, 999, 1_000_000, 123_456_789, 10_000_000_000L};
    for (int b : BUCKET_SIZES) {
      for (int bits : new int[] {8, 12, 16, 24, 32}) {
        if ((b == 1 && bits < 16) || (b == 2 && bits < 12)) {
          continue; // short fingerprints for their bucket size: see the next test
        }
        for (long n : capacities) {
          if (b == 1 && n > 1_000_000_000L) {
            continue; // beyond what one table array holds for b = 1
          }
          long m = CuckooSizing.bucketCount(n, b, bits);
          String at = "b=" + b + " f=" + bits + " n=" + n + ": " + m + " buckets";
          assertEquals(0, m % 2, at);
          assertTrue(m >= 2 && m * b * CuckooSizing.designLoad(b) >= n, at);
          if (n >= 1000) {
            assertTrue(m * b * CuckooSizing.designLoad(b) <= n * 1.001 + 2 * b, at);
          }
        }
      }
    }
    // Not rounded to a power of two.
    assertEquals(259_068, CuckooSizing.bucketCount(1_000_000, 4, 8));
    assertEquals(268_818, CuckooSizing.legacyBucketCount(1_000_000, 4, 8));
    assertEquals(CuckooSizing.bucketCount(1_000_000, 2, 12), CuckooSizing.legacyBucketCount(1_000_000, 2, 12));
  }

  @Test
  void shortFingerprintsGetLargerTablesUntilTheOverflowRiskIsLow() {
    for (int b : BUCKET_SIZES) {
      for (int bits = 4; bits <= 32; bits++) {
        long previous = 0;
        for (long n = 100; n <= 100_000_000L; n *= 10) {
          long m = CuckooSizing.bucketCount(n, b, bits);
          String at = "b=" + b + " f=" + bits + " n=" + n + ": " + m + " buckets";
          assertTrue(CuckooSizing.overflowRisk(n, m, b, bits) <= 1e-6, at);
          assertTrue(m >= previous, at + " is smaller than for fewer items");
          previous = m;
        }
      }
    }
    // Four-bit fingerprints in single-slot buckets cannot hold three keys that share both
    // buckets: the table must grow faster than the capacity.
    long small = CuckooSizing.bucketCount(1_000, 1, 4);
    long large = CuckooSizing.bucketCount(100_000, 1, 4);
    assertTrue(large > 300 * small, small + " then " + large);
    // Twelve-bit fingerprints in buckets of 4 never need it.
    assertEquals(CuckooSizing.bucketCount(1_000_000_000L, 4, 32), CuckooSizing.bucketCount(1_000_000_000L, 4, 12));
  }

  @Test
  void expectedFppFollowsTheLoad() {
    assertEquals(0.0, CuckooSizing.expectedFpp(0.0, 4, 12));
    for (int b : BUCKET_SIZES) {
      for (int bits = 4; bits <= 32; bits++) {
        double bound = 2.0 * b / Math.scalb(1.0, bits);
        double atMax = CuckooSizing.expectedFpp(CuckooSizing.maxLoad(b), b, bits);
        assertTrue(atMax > 0 && atMax <= bound, "b=" + b + " f=" + bits + ": " + atMax + " vs " + bound);
        double half = CuckooSizing.expectedFpp(CuckooSizing.maxLoad(b) / 2, b, bits);
        assertTrue(half < atMax);
      }
    }
    // Small rates keep their precision: 1 - (1 - q)^4 = 4q - 6q^2 + ... with q = 1/(2^32 - 1).
    double q = 1.0 / (Math.scalb(1.0, 32) - 1);
    assertEquals(4 * q - 6 * q * q, CuckooSizing.expectedFpp(0.5, 4, 32), 1e-24);
  }

  @Test
  void maxCapacityIsTheLastCapacityWhoseTableFits() {
    for (int b : new int[] {1, 2, 4, 8}) {
      for (int f : new int[] {4, 8, 13, 16, 32}) {
        for (long maxBuckets : new long[] {2, 3, 1_000, 123_457, 1L << 33}) {
          long max = CuckooSizing.maxCapacity(b, f, maxBuckets);
          String at = "b=" + b + " f=" + f + " maxBuckets=" + maxBuckets + ": " + max;
          assertTrue(max >= 1 || CuckooSizing.bucketCount(1, b, f) > maxBuckets, at);
          assertTrue(max == 0 || CuckooSizing.bucketCount(max, b, f) <= maxBuckets, at);
          assertTrue(CuckooSizing.bucketCount(max + 1, b, f) > maxBuckets, at);
        }
      }
    }
    assertEquals(0, CuckooSizing.maxCapacity(4, 16, 1));
    assertEquals(0, CuckooSizing.maxCapacity(4, 16, -5));
    assertThrows(IllegalArgumentException.class, () -> CuckooSizing.maxCapacity(3, 16, 100));
  }

  @Test
  void aNewTableOfFingerprintsTooShortForItsCapacityIsRefusedNamingAWidthThatCostsLess() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CuckooSizing.bucketCountForNewTable(1_000_000, 1, 4, 32));
    assertTrue(e.getMessage().startsWith("fingerprintBits=4 with bucketSize=1 takes 109635454 slots for capacity=1000000,"
        + " 438.5 bits per key, where fingerprintBits=10 takes 21.1"), e.getMessage());
    assertEquals(109_635_454L, CuckooSizing.bucketCount(1_000_000, 1, 4), "files of that shape still read");
    for (long capacity : new long[] {1, 40, 1_500, 4_000}) { // a little dearer than wider ones, not twice
      assertEquals(CuckooSizing.bucketCount(capacity, 1, 4), CuckooSizing.bucketCountForNewTable(capacity, 1, 4, 32));
    }
    for (int b : new int[] {1, 2, 4, 8}) {
      for (int f : new int[] {12, 16, 32}) {
        assertEquals(CuckooSizing.bucketCount(10_000_000, b, f), CuckooSizing.bucketCountForNewTable(10_000_000, b, f, 32));
      }
    }
    assertEquals(CuckooSizing.bucketCount(100_000_000, 4, 4), CuckooSizing.bucketCountForNewTable(100_000_000, 4, 4, 32),
        "buckets of 4 grow little: no wider width is half as dear");
  }
}
