package dev.cuckoo.semisorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.engine.CuckooSizing;
import dev.cuckoo.engine.TableFilter;
import dev.cuckoo.testkit.Filters;
import dev.cuckoo.testkit.TestSeed;
import java.io.IOException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What semi-sorted filters promise beyond the contract kit (which also checks their
 * false-positive rate and allocations): load at the first refusal and memory per item at every
 * kind of width, duplicates and the stash, the capacity guarantee, the lookup class per shape,
 * bad bucket sizes and the one-array limit.
 */
class SemiSortedFilterTest {

  @ParameterizedTest(name = "f={0}")
  @ValueSource(ints = {5, 8, 9, 13, 16, 17, 32})
  void fillingToTheFirstRefusalReachesNinetyFivePercentAndKeepsEveryKey(int bits) throws IOException {
    String config = "semi-sorted?capacity=150000&fingerprintBits=" + bits;
    TableFilter f = (TableFilter) CuckooFilters.create(config);
    long salt = TestSeed.random("fill " + config).nextLong();
    long n = 0;
    while (f.add(Filters.mix(salt + n))) {
      n++;
    }
    SemiSortedTable t = (SemiSortedTable) f.table();
    double load = (double) (f.size() - f.stash().size()) / (t.bucketCount() * SemiSortedTable.SLOTS);
    double bitsPerItem = 8.0 * f.sizeInBytes() / f.size();
    double bound = (bits - 1) / 0.95 * 1.01;
    String at = config + " (" + TestSeed.rerun() + "): " + n + " keys, table load " + load + ", "
        + bitsPerItem + " bits/item, bound " + bound;
    assertTrue(n >= f.spec().capacity().getAsLong(), at + ": refused below capacity");
    assertTrue(load >= 0.95, at);
    assertTrue(bitsPerItem <= bound, at);
    for (long i = 0; i < n; i++) {
      if (!f.mightContain(Filters.mix(salt + i))) {
        fail(at + ": false negative for key " + i);
      }
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
    CuckooFilter h = Filters.roundTrip(g);
    for (long i = 1; i < n; i += 2) {
      if (!g.mightContain(Filters.mix(salt + i)) || !h.mightContain(Filters.mix(salt + i))) {
        fail(at + ": false negative for key " + i + " after removing half");
      }
    }
    System.out.printf("semi-sorted f=%2d: first refusal after %d keys, table load %.4f, %.3f bits/item"
        + " (bound (f-1)/0.95 + 1%% = %.3f)%n", bits, n, load, bitsPerItem, bound);
  }

  @Test
  void everyWidthTakesItsCapacityInDistinctKeys() {
    SplittableRandom r = TestSeed.random("every width");
    long salt = r.nextLong();
    for (int bits : SemiSortedTableTest.widths()) {
      for (long capacity : new long[] {1, 7, 500, 20_000}) {
        CuckooFilter f = CuckooFilters.create(
            "semi-sorted?capacity=" + capacity + "&fingerprintBits=" + bits + "&seed=" + r.nextInt());
        for (long i = 0; i < capacity; i++) {
          if (!f.add(Filters.mix(salt + i))) {
            fail(f.spec() + " (" + TestSeed.rerun() + ") refused distinct key " + (i + 1) + " of its capacity");
          }
        }
      }
    }
  }

  /** 16 bits takes the class that names {@link Width16Table}; 13 the one for other widths. */
  @ParameterizedTest(name = "f={0}")
  @ValueSource(ints = {13, 16})
  void aKeyFitsEightTimesInItsBucketsThenTheStashTakesEightMore(int bits) throws IOException {
    TableFilter f = (TableFilter) CuckooFilters.create("semi-sorted?capacity=1000&fingerprintBits=" + bits);
    for (int i = 0; i < 8; i++) {
      assertTrue(f.add("same"), "copy " + i);
    }
    assertEquals(0, f.stash().size(), "2 × 4 copies fit in the two buckets");
    assertEquals(8, f.count("same"));
    for (int i = 8; i < 16; i++) {
      assertTrue(f.add("same"), "copy " + i);
    }
    assertEquals(8, f.stash().size());
    assertFalse(f.add("same"), "stash full");
    assertEquals(16, f.count("same"));
    assertEquals(16, f.size());
    CuckooFilter g = Filters.roundTrip(f);
    assertEquals(16, g.count("same"));
    assertTrue(g.mightContain("same"));
    assertEquals(f.getClass(), g.getClass(), "a filter read back takes the class of its shape");
    for (int i = 0; i < 16; i++) {
      assertTrue(f.mightContain("same"));
      assertTrue(f.remove("same"), "remove " + i);
      assertTrue(f.stash().size() <= Math.max(0, 15 - i - 8), "a freed slot takes back a stashed copy");
    }
    assertFalse(f.mightContain("same"));
    assertEquals(0, f.size());
    f.add("again");
    f.clear();
    assertEquals(0, f.count("again"));
  }

  @Test
  void eachShapeLooksUpThroughItsOwnClass() {
    assertTrue(CuckooFilters.create("semi-sorted?capacity=1000") instanceof SemiSortedFilter.OfWidth16);
    assertTrue(CuckooFilters.create("semi-sorted?capacity=1000&fingerprintBits=13") instanceof SemiSortedFilter.OfAnyWidth);
    // A striped filter looks up through its store, not through a class of the table's.
    assertFalse(SemiSortedFilter.class == CuckooFilters.create(
        "semi-sorted?capacity=1000&fingerprintBits=16&concurrency=striped").getClass().getEnclosingClass());
  }

  @Test
  void bucketSizesOtherThanFourAreRejectedWithTheReason() {
    for (int b : new int[] {1, 2, 3, 5, 8}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> CuckooFilters.create("semi-sorted?capacity=1000&bucketSize=" + b));
      assertTrue(e.getMessage().contains("bucketSize=" + b) && e.getMessage().contains("semi-sorted")
          && e.getMessage().contains(": 4") && e.getMessage().contains("four fingerprints"), e.getMessage());
    }
    assertEquals(4, CuckooFilters.create("semi-sorted?capacity=1000&bucketSize=4").spec().bucketSize().getAsInt());
    FilterSpec s = CuckooFilters.create("semi-sorted?capacity=1000").spec();
    assertEquals(16, s.fingerprintBits().getAsInt(), "the headline width is the default");
    assertEquals(4, s.bucketSize().getAsInt());
    assertEquals(13, CuckooFilters.create("semi-sorted?capacity=1000&targetFpp=0.001").spec().fingerprintBits().getAsInt());
  }

  @Test
  void capacitiesBeyondOneArrayAreRefusedOnTheHeapWithTheLimitAndTheFileToUse() {
    long max = SemiSortedProvider.maxCapacity(16);
    CuckooFilters.variant("semi-sorted").resolve(FilterSpec.parse("semi-sorted?capacity=" + max));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.create("semi-sorted?capacity=" + (max + 1)));
    assertTrue(e.getMessage().contains("capacity=" + (max + 1)) && e.getMessage().contains("1.." + max), e.getMessage());
    // A file holds it: the message says so, and the spec is valid.
    assertTrue(e.getMessage().contains("CuckooFilters.createFile") && e.getMessage().contains("CuckooFilters.open"),
        e.getMessage());
    CuckooFilters.variant("semi-sorted").resolve(dev.cuckoo.FilterSpec.parse("semi-sorted?capacity=" + (max + 1)));
    long words = SemiSortedTable.allocatedWords(CuckooSizing.bucketCount(max, 4, 16), 16);
    assertTrue(words <= SemiSortedTable.MAX_WORDS && words > SemiSortedTable.MAX_WORDS - 64, words + " words");
    assertTrue(max > 4_000_000_000L, "16-bit fingerprints in 15 bits: " + max);
  }

  /** The capacity bound the schema holds is written out, so that no process searches for it as it starts. */
  @Test
  void theLargestCapacityWrittenOutIsTheOneTheSearchFinds() {
    assertEquals(SemiSortedProvider.maxMappedCapacity(SemiSortedTable.MIN_BITS), SemiSortedProvider.LARGEST_CAPACITY);
    assertEquals(SemiSortedProvider.LARGEST_CAPACITY, new SemiSortedProvider().schema().maxCapacity());
  }

  @Test
  void representativeConfigsAreTheHeadlineAndThePapersWidths() {
    SemiSortedProvider p = new SemiSortedProvider();
    for (String config : p.representativeConfigs()) {
      assertEquals("semi-sorted", CuckooFilters.create(config + "&capacity=100").spec().variant());
    }
  }
}
