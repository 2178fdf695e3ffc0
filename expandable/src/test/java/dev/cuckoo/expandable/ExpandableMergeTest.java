package dev.cuckoo.expandable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.testkit.SeedInFailures;
import dev.cuckoo.testkit.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Merging expandable filters of different sizes: the smaller one's entries age to the larger
 * table (to one child bucket each doubling, to both once they run out of bits), the merged
 * filter finds every key of both, and removes of either's keys leave the other's.
 */
@ExtendWith(SeedInFailures.class)
class ExpandableMergeTest {
  private static final long SEED = TestSeed.of("ExpandableMergeTest");

  private static long key(int set, long i) {
    return dev.cuckoo.testkit.Filters.mix(SEED * 31 + set * 1_000_000_007L + i);
  }

  private static CuckooFilter filled(String config, int set, int n) {
    CuckooFilter f = CuckooFilters.create(config);
    for (int i = 0; i < n; i++) {
      assertTrue(f.add(key(set, i)));
    }
    return f;
  }

  @Test
  void aSmallFilterMergesIntoAGrownOneAndAGrownOneIntoASmallOne() {
    String config = "expandable?capacity=1024&targetFpp=0.001";
    CuckooFilter grown = filled(config, 1, 150_000);   // about 2^15 buckets
    CuckooFilter small = filled(config, 2, 700);       // its first table
    CuckooFilter other = filled(config, 3, 60_000);

    assertEquals(700, grown.addAll(small), "the small one's entries aged into the grown table");
    assertEquals(150_700, grown.size());
    CuckooFilter start = filled(config, 4, 100);
    assertEquals(60_000, start.addAll(other), "a small filter doubles to take a grown one");
    assertEquals(60_100, start.size());
    for (int i = 0; i < 150_000; i++) {
      assertTrue(grown.mightContain(key(1, i)), "grown key " + i);
    }
    for (int i = 0; i < 700; i++) {
      assertTrue(grown.mightContain(key(2, i)), "small key " + i);
    }
    for (int i = 0; i < 60_000; i++) {
      assertTrue(start.mightContain(key(3, i)), "merged key " + i);
    }
    for (int i = 0; i < 700; i++) {
      assertTrue(grown.remove(key(2, i)), "remove of merged key " + i);
    }
    assertEquals(150_000, grown.size());
    for (int i = 0; i < 150_000; i++) {
      assertTrue(grown.mightContain(key(1, i)), "grown key " + i + " after the merged keys left");
    }
  }
}
