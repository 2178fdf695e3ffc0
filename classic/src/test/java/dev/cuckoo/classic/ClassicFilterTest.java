package dev.cuckoo.classic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.engine.CuckooSizing;
import dev.cuckoo.engine.TableFilter;
import dev.cuckoo.testkit.Filters;
import dev.cuckoo.testkit.TestSeed;
import java.io.IOException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What classic filters promise beyond the contract kit (which also checks their false-positive
 * rate and allocations): the paper's load at the first refusal and the memory per item, the
 * capacity guarantee across shapes and capacities, the stash, the lookup class per shape, and the
 * one-array limit, whole and in shards.
 */
class ClassicFilterTest {

  /** Table load: items in the table over its slots (the stash is left out). */
  static double tableLoad(CuckooFilter f) {
    TableFilter c = (TableFilter) f;
    return (double) (f.size() - c.stash().size()) / (c.table().bucketCount() * c.table().slotsPerBucket());
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
    long salt = TestSeed.random("fill " + config).nextLong();
    long n = 0;
    while (f.add(Filters.mix(salt + n))) {
      n++;
    }
    int b = f.spec().bucketSize().getAsInt();
    int bits = f.spec().fingerprintBits().getAsInt();
    double load = tableLoad(f);
    double bitsPerItem = 8.0 * f.sizeInBytes() / f.size();
    String at = config + " (" + TestSeed.rerun() + "): " + n + " keys, table load " + load + ", "
        + bitsPerItem + " bits/item";
    assertTrue(n >= f.spec().capacity().getAsLong(), at + ": refused below capacity");
    assertTrue(load >= minLoad, at);
    assertTrue(bitsPerItem <= bits / minLoad * 1.001, at);
    if (b == 4) {
      assertTrue(bitsPerItem <= bits / 0.95, at);
    }
    CuckooFilter g = Filters.roundTrip(f);
    for (long i = 0; i < n; i++) {
      if (!g.mightContain(Filters.mix(salt + i))) {
        fail(at + ": false negative for key " + i + " after write/read");
      }
    }
    for (long i = 0; i < n; i += 2) {
      assertTrue(g.remove(Filters.mix(salt + i)), at + ": remove of key " + i);
    }
    for (long i = 1; i < n; i += 2) {
      if (!g.mightContain(Filters.mix(salt + i))) {
        fail(at + ": false negative for key " + i + " after removing half");
      }
    }
    System.out.printf("%s: first refusal after %d keys, table load %.4f, %.2f bits/item (f/load %.2f)%n",
        config, n, load, bitsPerItem, bits / load);
  }

  @Test
  void everyShapeTakesItsCapacityInDistinctKeys() {
    SplittableRandom r = TestSeed.random("every shape");
    long salt = r.nextLong();
    for (int b : new int[] {1, 2, 4, 8}) {
      for (int bits : new int[] {4, 5, 6, 7, 8, 9, 12, 16, 17, 24, 32}) {
        for (long capacity : new long[] {1, 7, 500, 30_000}) {
          String config = "classic?capacity=" + capacity + "&fingerprintBits=" + bits + "&bucketSize=" + b + "&seed=" + r.nextInt();
          CuckooFilter f;
          try {
            f = CuckooFilters.create(config);
          } catch (IllegalArgumentException wasteful) { // fingerprints too short for that many keys
            assertTrue(b <= 2 && bits <= 7 && wasteful.getMessage().contains("bits per key"), wasteful.getMessage());
            continue;
          }
          for (long i = 0; i < capacity; i++) {
            if (!f.add(Filters.mix(salt + i))) {
              fail(f.spec() + " (" + TestSeed.rerun() + ") refused distinct key " + (i + 1) + " of its capacity");
            }
          }
        }
      }
    }
  }

  @Test
  void usualShapesUseAFewPercentOverTheOptimalMemory() {
    for (int b : new int[] {2, 8}) {
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
    TableFilter f = (TableFilter) CuckooFilters.create("classic?capacity=1000&fingerprintBits=12&bucketSize=2&maxKicks=50");
    for (int i = 0; i < 7; i++) {
      assertTrue(f.add("same"), "copy " + i);
    }
    assertEquals(3, f.stash().size());
    assertEquals(7, f.count("same"));
    assertEquals(7, f.size());
    CuckooFilter g = Filters.roundTrip(f);
    assertEquals(7, g.count("same"));
    assertEquals(3, ((TableFilter) g).stash().size());
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

  @Test
  void eachShapeLooksUpThroughItsTablesOwnClass() {
    assertTrue(CuckooFilters.create("classic?capacity=1000&fingerprintBits=16") instanceof ClassicFilter.OfShortBuckets);
    assertTrue(CuckooFilters.create("classic?capacity=1000&fingerprintBits=8") instanceof ClassicFilter.OfByteBuckets);
    assertTrue(CuckooFilters.create("classic?capacity=1000&fingerprintBits=12") instanceof ClassicFilter.OfTwelveBitBuckets);
    assertTrue(CuckooFilters.create("classic?capacity=1000&fingerprintBits=13") instanceof ClassicFilter.OfPackedBuckets);
    assertTrue(CuckooFilters.create("classic?capacity=1000&fingerprintBits=16&bucketSize=2") instanceof ClassicFilter.OfPackedBuckets);
    // A striped filter looks up through its store, not through a class of the table's.
    assertFalse(ClassicFilter.class == CuckooFilters.create("classic?capacity=1000&fingerprintBits=16&concurrency=striped")
        .getClass().getEnclosingClass());
    CuckooFilter f = CuckooFilters.create("classic?capacity=1000&fingerprintBits=8");
    f.add("x");
    assertEquals(f.getClass(), Filters.roundTrip(f).getClass(), "a filter read back takes the class of its shape");
  }

  @Test
  void capacitiesBeyondOneArrayAreRefusedOnTheHeapWithTheLimitAndTheFileToUse() {
    long max = ClassicProvider.maxCapacity(4, 32);
    CuckooFilters.variant("classic").resolve(dev.cuckoo.FilterSpec.parse("classic?capacity=" + max + "&fingerprintBits=32"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.create("classic?capacity=" + (max + 1) + "&fingerprintBits=32"));
    assertTrue(e.getMessage().contains("capacity=" + (max + 1)) && e.getMessage().contains("classic")
        && e.getMessage().contains("1.." + max), e.getMessage());
    // A file holds it: the message says so, and the spec is valid.
    assertTrue(e.getMessage().contains("CuckooFilters.createFile") && e.getMessage().contains("CuckooFilters.open"),
        e.getMessage());
    CuckooFilters.variant("classic").resolve(dev.cuckoo.FilterSpec.parse("classic?capacity=" + (max + 1) + "&fingerprintBits=32"));
    long words = BucketTable.allocatedWords(CuckooSizing.bucketCount(max, 4, 32), 4, 32);
    assertTrue(words <= BucketTable.MAX_WORDS && words > BucketTable.MAX_WORDS - 64, words + " words");
    // The largest 8-bit table has more buckets than an int[] holds: it is packed, with padding.
    long max8 = ClassicProvider.maxCapacity(4, 8);
    long words8 = BucketTable.allocatedWords(CuckooSizing.bucketCount(max8, 4, 8), 4, 8);
    assertTrue(words8 <= BucketTable.MAX_WORDS && words8 > BucketTable.MAX_WORDS - 64, words8 + " words");
    assertTrue(ClassicProvider.maxCapacity(8, 4) > 30_000_000_000L);
    assertTrue(ClassicProvider.maxCapacity(1, 32) > 2_000_000_000L);
  }

  /** Shards are sized with slack: a capacity one unsharded array holds may not fit in shards. */
  @Test
  void aShardedTableTooLargeForOneArrayIsRefusedOnTheHeapNamingFiles() {
    long max = ClassicProvider.maxCapacity(4, 32);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.create("classic?fingerprintBits=32&capacity=" + max + "&shards=3"));
    assertTrue(e.getMessage().contains("3 shards") && e.getMessage().contains("createFile"), e.getMessage());
  }

  /** The joined file may be past any array; each shard is built on one heap. */
  @Test
  void aShardLargerThanOneArrayIsRefusedNamingAShardCountThatFits() {
    long max = ClassicProvider.maxCapacity(4, 32);
    String config = "classic?fingerprintBits=32&capacity=" + 3 * max + "&shards=2";
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.createShard(config, 0));
    assertTrue(e.getMessage().contains("shards=4 or more"), e.getMessage());
    assertEquals(2, CuckooFilters.keyHasher(config).shards(), "the spec itself is valid: a file holds it");
  }

  /** The capacity bound the schema holds is written out, so that no process searches for it as it starts. */
  @Test
  void theLargestCapacityWrittenOutIsTheOneTheSearchesFind() {
    assertEquals(ClassicProvider.largestCapacity(), ClassicProvider.LARGEST_CAPACITY);
    assertEquals(ClassicProvider.LARGEST_CAPACITY, new ClassicProvider().schema().maxCapacity());
  }

  /**
   * A new user's 4-bit fingerprints in buckets of 1 for a million keys took 109 million slots,
   * 438 bits per key, without a word: such a shape is refused, naming its cost and the width
   * that costs less and gives fewer false positives; the same shape for a few thousand keys,
   * which costs little more, is still made.
   */
  @Test
  void aShapeThatWastesMemoryIsRefusedNamingItsCostAndTheWidthToUse() {
    String m = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.create("classic?capacity=1000000&bucketSize=1&fingerprintBits=4")).getMessage();
    assertTrue(m.contains("fingerprintBits=4 with bucketSize=1 takes 109635454 slots for capacity=1000000, 438.5 bits per key")
        && m.contains("use fingerprintBits=10"), m);
    String bucketsOfTwo = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.create("classic?capacity=10000000&bucketSize=2&fingerprintBits=4")).getMessage();
    assertTrue(bucketsOfTwo.contains("bits per key") && bucketsOfTwo.contains("two buckets hold at most 4 keys of one fingerprint"), bucketsOfTwo);
    CuckooFilter small = CuckooFilters.create("classic?capacity=1500&bucketSize=1&fingerprintBits=4");
    assertTrue(8.0 * small.sizeInBytes() / small.capacity() < 40, small.sizeInBytes() + " bytes");
    CuckooFilters.create("classic?capacity=1000000&bucketSize=1&fingerprintBits=10");
  }
}
