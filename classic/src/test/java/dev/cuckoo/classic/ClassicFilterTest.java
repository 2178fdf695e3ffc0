package dev.cuckoo.classic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.spi.CuckooSizing;
import dev.cuckoo.testkit.AllocationMeter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the issue asks of the classic filter beyond the contract kit: load at the first refusal,
 * memory per item, the false-positive rate, the capacity guarantee across shapes, and hot paths
 * that allocate nothing.
 */
class ClassicFilterTest {

  /** The SplitMix64 finalizer: a bijection, so distinct inputs are distinct keys. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  static CuckooFilter roundTrip(CuckooFilter f) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return CuckooFilters.read(new ByteArrayInputStream(out.toByteArray()));
  }

  /** Table load: items in the table over its slots (the stash is left out). */
  static double tableLoad(CuckooFilter f) {
    ClassicFilter c = (ClassicFilter) f;
    return (double) (f.size() - c.stash().size()) / (c.table().bucketCount * c.table().slots);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "classic?capacity=200000&bucketSize=4&fingerprintBits=12, 0.95",
    "classic?capacity=200000&bucketSize=4&fingerprintBits=8, 0.95",
    "classic?capacity=200000&bucketSize=4&fingerprintBits=16, 0.95",
    "classic?capacity=200000&bucketSize=4&fingerprintBits=13, 0.95",
    "classic?capacity=200000&bucketSize=8&fingerprintBits=12, 0.98",
    "classic?capacity=200000&bucketSize=8&fingerprintBits=7, 0.98",
    "classic?capacity=200000&bucketSize=2&fingerprintBits=12, 0.84",
    "classic?capacity=200000&bucketSize=1&fingerprintBits=24, 0.48",
  })
  void fillingToTheFirstRefusalReachesThePapersLoadAndKeepsEveryKey(String config, double minLoad) throws IOException {
    CuckooFilter f = CuckooFilters.create(config);
    long salt = new SplittableRandom().nextLong();
    long n = 0;
    while (f.add(mix(salt + n))) {
      n++;
    }
    int b = f.spec().bucketSize().getAsInt();
    int bits = f.spec().fingerprintBits().getAsInt();
    double load = tableLoad(f);
    double bitsPerItem = 8.0 * f.sizeInBytes() / f.size();
    String at = config + " (salt " + salt + "): " + n + " keys, table load " + load + ", "
        + bitsPerItem + " bits/item";
    assertTrue(n >= f.spec().capacity().getAsLong(), at + ": refused below capacity");
    assertTrue(load >= minLoad, at);
    assertTrue(bitsPerItem <= bits / minLoad * 1.001, at);
    if (b == 4) {
      assertTrue(bitsPerItem <= bits / 0.95, at);
    }
    CuckooFilter g = roundTrip(f);
    for (long i = 0; i < n; i++) {
      if (!g.mightContain(mix(salt + i))) {
        fail(at + ": false negative for key " + i + " after write/read");
      }
    }
    for (long i = 0; i < n; i += 2) {
      assertTrue(g.remove(mix(salt + i)), at + ": remove of key " + i);
    }
    for (long i = 1; i < n; i += 2) {
      if (!g.mightContain(mix(salt + i))) {
        fail(at + ": false negative for key " + i + " after removing half");
      }
    }
    System.out.printf("%s: first refusal after %d keys, table load %.4f, %.2f bits/item (f/load %.2f)%n",
        config, n, load, bitsPerItem, bits / load);
  }

  @ParameterizedTest(name = "f={0}")
  @ValueSource(ints = {4, 6, 8, 10, 12, 13, 16})
  void measuredFalsePositiveRateIsWithinTheBound(int bits) {
    for (int b : new int[] {1, 2, 4, 8}) {
      CuckooFilter f = CuckooFilters.create("classic?capacity=100000&fingerprintBits=" + bits + "&bucketSize=" + b);
      long salt = new SplittableRandom().nextLong();
      for (long i = 0; i < 100_000; i++) {
        assertTrue(f.add(mix(salt + i)));
      }
      int queries = 1_000_000;
      long positives = 0;
      for (long i = 0; i < queries; i++) {
        positives += f.mightContain(mix(salt + (1L << 40) + i)) ? 1 : 0;
      }
      double rate = (double) positives / queries;
      double bound = Math.min(1.0, 2.0 * b / Math.scalb(1.0, bits));
      double expected = f.expectedFpp();
      String at = "b=" + b + " f=" + bits + " salt " + salt + ": rate " + rate + ", expected " + expected + ", bound " + bound;
      // Within the bound, give or take 5 standard deviations of the count.
      double mean = bound * queries;
      assertTrue(positives <= mean + 5 * Math.sqrt(mean) + 5, at);
      // The prediction from the load is close: within 5 standard deviations (and 3%).
      double sd = Math.sqrt(expected * (1 - expected) / queries);
      assertTrue(Math.abs(rate - expected) <= 5 * sd + 0.03 * expected, at);
      System.out.printf("b=%d f=%2d: measured FPP %.6f, expected %.6f, bound 2b/2^f %.6f%n", b, bits, rate, expected, bound);
    }
  }

  @Test
  void everyShapeTakesItsCapacityInDistinctKeys() {
    SplittableRandom r = new SplittableRandom();
    long salt = r.nextLong();
    for (int b : new int[] {1, 2, 4, 8}) {
      for (int bits : new int[] {4, 5, 6, 7, 8, 9, 12, 16, 17, 24, 32}) {
        for (long capacity : new long[] {1, 7, 500, 30_000}) {
          CuckooFilter f = CuckooFilters.create(
              "classic?capacity=" + capacity + "&fingerprintBits=" + bits + "&bucketSize=" + b + "&seed=" + r.nextInt());
          for (long i = 0; i < capacity; i++) {
            if (!f.add(mix(salt + i))) {
              fail(f.spec() + " (salt " + salt + ") refused distinct key " + (i + 1) + " of its capacity");
            }
          }
        }
      }
    }
  }

  @Test
  void usualShapesUseAFewPercentOverTheOptimalMemory() {
    for (int b : new int[] {2, 4, 8}) {
      for (int bits : new int[] {8, 12, 16, 32}) {
        long capacity = 1_000_000;
        CuckooFilter f = CuckooFilters.create("classic?capacity=" + capacity + "&fingerprintBits=" + bits + "&bucketSize=" + b);
        double optimal = capacity * bits / CuckooSizing.maxLoad(b) / 8;
        double ratio = f.sizeInBytes() / optimal;
        // The design load is 2% below the paper's, and the alternate offsets take up to 1/64.
        assertTrue(ratio >= 1 && ratio <= 1.04, "b=" + b + " f=" + bits + ": " + f.sizeInBytes() + " bytes, " + ratio + " of optimal");
      }
    }
  }

  @Test
  void theStashTakesWhatTheTableCannotAndGivesItBack() throws IOException {
    // One key added 2b + 3 times: both of its buckets fill, then the stash takes the rest.
    ClassicFilter f = (ClassicFilter) CuckooFilters.create("classic?capacity=1000&fingerprintBits=12&bucketSize=2&maxKicks=50");
    for (int i = 0; i < 7; i++) {
      assertTrue(f.add("same"), "copy " + i);
    }
    assertEquals(3, f.stash().size());
    assertEquals(7, f.count("same"));
    assertEquals(7, f.size());
    CuckooFilter g = roundTrip(f);
    assertEquals(7, g.count("same"));
    assertEquals(3, ((ClassicFilter) g).stash().size());
    for (int i = 0; i < 7; i++) {
      assertTrue(f.mightContain("same"));
      assertTrue(f.remove("same"), "remove " + i);
      assertTrue(f.stash().size() <= Math.max(0, 6 - i - 4), "a freed slot takes back a stashed copy");
    }
    assertFalse(f.mightContain("same"));
    for (int i = 0; i < 12; i++) {
      f.add("again");
    }
    assertEquals(12, f.size(), "4 in the table, 8 in the stash");
    assertFalse(f.add("again"), "stash full");
    assertEquals(12, f.count("again"));
    f.clear();
    assertEquals(0, f.stash().size());
    assertEquals(0, f.count("again"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
    "classic?capacity=100000&fingerprintBits=8",
    "classic?capacity=100000&fingerprintBits=16",
    "classic?capacity=100000&fingerprintBits=12",
    "classic?capacity=100000&fingerprintBits=13&bucketSize=8",
    "classic?capacity=100000&fingerprintBits=32&bucketSize=2",
  })
  void addMightContainAndRemoveAllocateNothing(String config) {
    CuckooFilter f = CuckooFilters.create(config);
    long[] keys = new long[200_000];
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < keys.length; i++) {
      keys[i] = r.nextLong();
    }
    long bytes = AllocationMeter.allocatedByOperations(f, keys);
    assertTrue(bytes < 1024, config + ": " + bytes + " bytes allocated by 1,000,000 operations");
  }

  @Test
  void capacitiesBeyondOneArrayAreRejectedWithTheLimit() {
    long max = ClassicProvider.maxCapacity(4, 32);
    CuckooFilters.provider("classic").validate(dev.cuckoo.FilterSpec.parse("classic?capacity=" + max + "&fingerprintBits=32"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.create("classic?capacity=" + (max + 1) + "&fingerprintBits=32"));
    assertTrue(e.getMessage().contains("capacity=" + (max + 1)) && e.getMessage().contains("classic")
        && e.getMessage().contains("1.." + max), e.getMessage());
    long words = BucketTable.allocatedWords(CuckooSizing.bucketCount(max, 4, 32), 4, 32);
    assertTrue(words <= BucketTable.MAX_WORDS && words > BucketTable.MAX_WORDS - 64, words + " words");
    // The largest 8-bit table has more buckets than an int[] holds: it is packed, with padding.
    long max8 = ClassicProvider.maxCapacity(4, 8);
    long words8 = BucketTable.allocatedWords(CuckooSizing.bucketCount(max8, 4, 8), 4, 8);
    assertTrue(words8 <= BucketTable.MAX_WORDS && words8 > BucketTable.MAX_WORDS - 64, words8 + " words");
    assertTrue(ClassicProvider.maxCapacity(8, 4) > 30_000_000_000L);
    assertTrue(ClassicProvider.maxCapacity(1, 32) > 2_000_000_000L);
  }
}
