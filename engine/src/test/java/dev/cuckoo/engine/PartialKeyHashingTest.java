package dev.cuckoo.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.testkit.TestSeed;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PartialKeyHashingTest {
  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  @Test
  void reduceIsTheHighWordOfTheUnsignedProduct() {
    SplittableRandom r = TestSeed.random("reduce");
    long[] sizes = {1, 2, 3, 1000, (1L << 31) - 1, 1L << 31, 1L << 40, Long.MAX_VALUE};
    for (int i = 0; i < 20_000; i++) {
      long x = r.nextLong();
      long n = i < sizes.length ? sizes[i] : 1 + (r.nextLong() >>> (1 + r.nextInt(63)));
      BigInteger ux = new BigInteger(Long.toUnsignedString(x));
      long expected = ux.multiply(BigInteger.valueOf(n)).divide(TWO_64).longValueExact();
      String at = "reduce(" + x + ", " + n + "), " + TestSeed.rerun();
      assertEquals(expected, PartialKeyHashing.reduce(x, n), at);
      assertTrue(expected >= 0 && expected < n, at);
    }
    for (int i = 0; i < 20_000; i++) {
      long h = r.nextLong();
      long m = 1 + (r.nextLong() >>> (2 + r.nextInt(62)));
      assertEquals(PartialKeyHashing.reduce(h & ~1L, m), PartialKeyHashing.bucketIndex(h, m),
          "bucketIndex(" + h + ", " + m + "), " + TestSeed.rerun());
    }
    assertEquals((1L << 62) - 2, PartialKeyHashing.bucketIndex(-1L, (1L << 62) - 1));
    assertEquals(0, PartialKeyHashing.reduce(0, 12345));
    assertEquals(12344, PartialKeyHashing.reduce(-1L, 12345));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 4, 7, 8, 12, 13, 16, 24, 25, 31, 32})
  void fingerprintsAreNonZeroInRangeAndFromTheLowBitsOnly(int bits) {
    SplittableRandom r = TestSeed.random("fingerprints of " + bits + " bits");
    long max = (1L << bits) - 1;
    long low = -1L >>> (64 - Math.min(bits + 8, 32));
    for (int i = 0; i < 100_000; i++) {
      long h = r.nextLong();
      long fp = PartialKeyHashing.fingerprint(h, bits) & 0xFFFF_FFFFL;
      assertTrue(fp >= 1 && fp <= max, "fingerprint " + fp + " of " + h + " at " + bits + " bits, " + TestSeed.rerun());
      assertEquals(fp, PartialKeyHashing.fingerprint(h & low, bits) & 0xFFFF_FFFFL,
          "fingerprint of " + h + " depends on bits above the low " + Long.bitCount(low) + ", " + TestSeed.rerun());
    }
    assertEquals(1, PartialKeyHashing.fingerprint(0L, bits));
    assertEquals(max, PartialKeyHashing.fingerprint(-1L, bits) & 0xFFFF_FFFFL);
  }

  @Test
  void shortFingerprintsAreEvenlySpread() {
    int bits = 4;
    long[] seen = new long[16];
    SplittableRandom r = TestSeed.random("spread of 4-bit fingerprints");
    int n = 1_500_000;
    for (int i = 0; i < n; i++) {
      seen[PartialKeyHashing.fingerprint(r.nextLong(), bits)]++;
    }
    assertEquals(0, seen[0], TestSeed.rerun());
    double expected = n / 15.0;
    double chiSquare = 0;
    for (int v = 1; v < 16; v++) {
      chiSquare += (seen[v] - expected) * (seen[v] - expected) / expected;
    }
    // 14 degrees of freedom: P(chi^2 > 55) is below 1e-6. The seed changes every run, so the
    // bound is set where a fair hash fails about once in a million builds, not once in 4,000
    // (as 40 would); a value favoured by 3% still lands near 90.
    assertTrue(chiSquare < 55, "chi-square " + chiSquare + " over " + java.util.Arrays.toString(seen) + ", " + TestSeed.rerun());
    assertEquals(1.0 / 15, PartialKeyHashing.matchProbability(bits), 1e-15);
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 7, 10, 97, 1_000_003, 999_999_937, (1L << 31) - 1, 1L << 31,
      (1L << 31) + 1, 4_294_967_311L, (1L << 40) + 7, 1L << 40, 1L << 62, (1L << 62) + 1})
  void alternateBucketIsAnInvolutionForAnyBucketCount(long buckets) {
    SplittableRandom r = TestSeed.random("alternates in " + buckets + " buckets");
    for (int i = 0; i < 50_000; i++) {
      long bucket = switch (i % 4) {
        case 0 -> 0;
        case 1 -> buckets - 1;
        default -> PartialKeyHashing.reduce(r.nextLong(), buckets);
      };
      int fp = i % 3 == 0 ? 1 + r.nextInt(15) : r.nextInt();
      long alt = PartialKeyHashing.alternateBucket(bucket, fp, buckets);
      String at = "fingerprint " + fp + ", " + buckets + " buckets, " + TestSeed.rerun();
      assertTrue(alt >= 0 && alt < buckets, "alternate " + alt + " of " + bucket + " outside 0.." + buckets + ": " + at);
      assertEquals(bucket, PartialKeyHashing.alternateBucket(alt, fp, buckets),
          "not an involution: " + bucket + " -> " + alt + " with " + at);
      if (buckets % 2 == 0) {
        assertNotEquals(bucket, alt, "an even bucket count maps " + bucket + " to itself: " + at);
      }
    }
  }

  @Test
  void alternatesOfShortFingerprintsAreSpreadOverTheTable() {
    // The 15 four-bit fingerprints give a bucket 15 alternates. A linear hash of the fingerprint
    // puts them in arithmetic progression, which costs a tenth of the load at first refusal;
    // the differences between alternates must look random.
    long buckets = 1_000_000;
    java.util.Set<Long> differences = new java.util.HashSet<>();
    long[] alt = new long[16];
    for (int fp = 1; fp < 16; fp++) {
      alt[fp] = PartialKeyHashing.alternateBucket(0, fp, buckets);
    }
    for (int a = 1; a < 16; a++) {
      for (int b = 1; b < 16; b++) {
        if (a != b) {
          differences.add(Math.floorMod(alt[a] - alt[b], buckets));
        }
      }
    }
    assertTrue(differences.size() > 200, differences.size() + " distinct differences of 210");
  }

  @Test
  void offsetTablesGiveTheSameAlternatesAndAreMadeOnlyWhenSmall() {
    long buckets = 1_000_002;
    // 4·4096 bytes of offsets and a stash's may take 1.5% of the table.
    long smallest = (4 * 4096 + FingerprintStash.memoryBytes(FingerprintStash.DEFAULT_SLOTS)) * 200 / 3 + 1;
    int[] offsets = PartialKeyHashing.alternateOffsets(buckets, 12, smallest);
    assertEquals(4096, offsets.length);
    for (int fp = 1; fp < 4096; fp++) {
      for (long b : new long[] {0, 1, 77, buckets - 1}) {
        assertEquals(PartialKeyHashing.alternateBucket(b, fp, buckets), PartialKeyHashing.alternateBucket(offsets, b, fp, buckets));
        assertEquals(PartialKeyHashing.alternateBucket(b, fp, buckets), PartialKeyHashing.alternateBucket(null, b, fp, buckets));
      }
    }
    assertEquals(null, PartialKeyHashing.alternateOffsets(buckets, 12, smallest - 2), "more than 1.5% of the table");
    assertEquals(null, PartialKeyHashing.alternateOffsets(buckets, 17, Long.MAX_VALUE), "wider than 16 bits");
    assertEquals(null, PartialKeyHashing.alternateOffsets(1L << 31, 8, Long.MAX_VALUE), "more buckets than an int");
  }
}
