package dev.cuckoo.scalable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.testkit.Filters;
import dev.cuckoo.testkit.TestSeed;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Merging chains ({@code addAll(CuckooFilter)}): whole or refused, never a partial merge that
 * leaves most of the other filter out, and a refused merge leaves this filter byte for byte as it
 * was.
 */
class ScalableMergeTest {
  private static final int GROWN = 150_000;

  /** Distinct keys, spread like random ones: the images of {@code seed + i} under a bijection. */
  private static long[] keys(String name, int n) {
    long seed = TestSeed.of(name);
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = Filters.mix(seed + i);
    }
    return keys;
  }

  private static ScalableCuckooFilter filled(String config, long[] keys) {
    ScalableCuckooFilter f = ScalableCuckooFilterTest.create(config);
    for (long k : keys) {
      assertTrue(f.add(k), () -> "refused a key after " + f.size() + " of " + config + "; " + TestSeed.rerun());
    }
    return f;
  }

  private static void assertAllFound(CuckooFilter f, long[] keys, String what) {
    for (long k : keys) {
      assertTrue(f.mightContain(k), () -> what + ": key " + k + " lost; " + TestSeed.rerun());
    }
  }

  /**
   * With expansion 1 every sub-filter has one size, so a fingerprint has a place in any of them
   * and the merged-into chain grows as adding the keys would grow it: two grown chains merge whole.
   */
  @Test
  void grownChainsOfExpansionOneMergeWhole() throws Exception {
    String config = "scalable?capacity=20000&expansion=1";
    long[] inX = keys("merge-x", GROWN);
    long[] inY = keys("merge-y", GROWN);
    ScalableCuckooFilter x = filled(config, inX);
    ScalableCuckooFilter y = filled(config, inY);
    assertTrue(x.subFilterCount() > 5 && y.subFilterCount() > 5, x.subFilterCount() + " sub-filters");
    byte[] yBefore = Filters.write(y);

    assertEquals(GROWN, x.addAll(y), TestSeed.rerun());

    assertEquals(2L * GROWN, x.size());
    assertAllFound(x, inX, "a key of the filter merged into");
    assertAllFound(x, inY, "a key of the merged-in filter");
    assertArrayEquals(yBefore, Filters.write(y), "the merged-in filter changed");
    ScalableCuckooFilter loaded = RedisBloomDump.load(RedisBloomDump.dump(x));
    assertAllFound(loaded, inX, "after a RedisBloom dump and load");
    assertAllFound(loaded, inY, "after a RedisBloom dump and load");
  }

  /**
   * With expansion 2 a fingerprint's bucket is known only up to the size of the sub-filter it is
   * in, so it may go only to sub-filters no larger: the older ones, which a grown chain has
   * filled. The merge is refused before anything changes.
   */
  @Test
  void grownChainsThatCannotMergeWholeAreRefusedAndLeftAsTheyWere() {
    String config = "scalable?capacity=1000&expansion=2";
    ScalableCuckooFilter x = filled(config, keys("refused-x", GROWN));
    ScalableCuckooFilter y = filled(config, keys("refused-y", GROWN));
    byte[] xBefore = Filters.write(x);
    byte[] yBefore = Filters.write(y);

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> x.addAll(y));

    assertTrue(e.getMessage().contains("expandable") && e.getMessage().contains("unchanged"), e.getMessage());
    assertArrayEquals(xBefore, Filters.write(x), "a refused merge changed the filter merged into");
    assertArrayEquals(yBefore, Filters.write(y), "a refused merge changed the merged-in filter");
    assertEquals(GROWN, x.size());
  }

  /** Expansion 1 cannot grow past 32 sub-filters: a merge that would need more is refused too. */
  @Test
  void aMergePastThirtyTwoSubFiltersIsRefusedAndLeftAsItWas() {
    String config = "scalable?capacity=8&expansion=1";
    ScalableCuckooFilter x = ScalableCuckooFilterTest.create(config);
    for (long k = 0; x.add(k); k++) {
      // fill to 32 sub-filters
    }
    assertEquals(SubFilterChain.MAX_SUB_FILTERS, x.subFilterCount());
    ScalableCuckooFilter y = filled(config, keys("past-32", 200));
    byte[] xBefore = Filters.write(x);

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> x.addAll(y));

    assertTrue(e.getMessage().contains("32 sub-filters") && e.getMessage().contains("expandable"), e.getMessage());
    assertArrayEquals(xBefore, Filters.write(x), "a refused merge changed the filter merged into");
  }

  /** Merges that were whole before still are, with expansion 2 and 4 too. */
  @Test
  void chainsWithRoomMergeWholeAtAnyExpansion() {
    for (String config : new String[] {
        "scalable?capacity=30000&bucketSize=4&expansion=2", "scalable?capacity=30000&bucketSize=2&expansion=4"}) {
      long[] inX = keys(config + "-x", 8_000);
      long[] inY = keys(config + "-y", 8_000);
      ScalableCuckooFilter x = filled(config, inX);
      ScalableCuckooFilter y = filled(config, inY);
      assertEquals(inY.length, x.addAll(y), config);
      assertEquals(inX.length + inY.length, x.size(), config);
      assertAllFound(x, inX, config);
      assertAllFound(x, inY, config);
    }
  }

  /**
   * Buckets of two with expansion 2, each chain a third full (what the contract kit cannot take
   * yet): usually refused, now and then whole, never partly merged.
   */
  @Test
  void aMergeIntoBucketsOfTwoIsWholeOrRefusedNeverPartial() {
    String config = "scalable?capacity=2000&bucketSize=2&expansion=2&concurrency=locked";
    for (int round = 0; round < 20; round++) {
      long[] inX = keys("buckets-of-two-x" + round, 666);
      long[] inY = keys("buckets-of-two-y" + round, 666);
      ScalableCuckooFilter x = filled(config, inX);
      ScalableCuckooFilter y = filled(config, inY);
      byte[] xBefore = Filters.write(x);
      try {
        assertEquals(inY.length, x.addAll(y));
        assertAllFound(x, inY, config);
      } catch (IllegalArgumentException e) {
        assertTrue(e.getMessage().contains("no room left"), e.getMessage());
        assertArrayEquals(xBefore, Filters.write(x), "a refused merge changed the filter merged into; " + TestSeed.rerun());
      }
      assertAllFound(x, inX, config);
    }
  }

  /** A grown chain merges whole into an empty filter of its shape: each of its sub-filters finds its like. */
  @Test
  void aGrownChainMergesWholeIntoAnEmptyOne() throws Exception {
    String config = "scalable?capacity=1000&expansion=2";
    long[] inY = keys("into-empty", 50_000);
    ScalableCuckooFilter y = filled(config, inY);
    ScalableCuckooFilter x = ScalableCuckooFilterTest.create(config);
    assertEquals(inY.length, x.addAll(y));
    assertAllFound(x, inY, "into an empty filter");
    assertAllFound(RedisBloomDump.load(RedisBloomDump.dump(x)), inY, "after a RedisBloom dump and load");
  }

  /** With expansion 0 the chain is one table that never grows: it merges as {@code classic} does. */
  @Test
  void aTableThatNeverGrowsStopsWhenFullLosingNothing() {
    String config = "scalable?capacity=1000&expansion=0";
    ScalableCuckooFilter x = ScalableCuckooFilterTest.create(config);
    ScalableCuckooFilter y = ScalableCuckooFilterTest.create(config);
    for (long k = 0; x.add(2 * k); k++) {
      // fill
    }
    for (long k = 0; y.add(2 * k + 1); k++) {
      // fill
    }
    long sizeX = x.size();
    long moved = x.addAll(y);
    assertTrue(moved < y.size(), moved + " of " + y.size());
    assertEquals(sizeX + moved, x.size());
    for (long k = 0; k < sizeX; k++) {
      assertTrue(x.mightContain(2 * k));
    }
  }

  @Test
  void aParallelCollectOfExpansionOneGrowsAndHoldsEveryKey() {
    long[] keys = keys("collect", 60_000);
    List<String> strings = new ArrayList<>();
    for (long k : keys) {
      strings.add(Long.toHexString(k));
    }
    CuckooFilter f = strings.parallelStream().collect(CuckooFilters.toFilter("scalable?capacity=4000"));
    assertEquals(keys.length, f.size());
    for (String s : strings) {
      assertTrue(f.mightContain(s), s);
    }
  }
}
