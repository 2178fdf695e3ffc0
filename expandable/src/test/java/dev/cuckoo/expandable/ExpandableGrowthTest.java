package dev.cuckoo.expandable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.testkit.Filters;
import dev.cuckoo.testkit.TestSeed;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Growth over many doublings from the smallest start: nothing lost, removes of keys added
 * before any number of doublings, {@code size()} exact, files at every size, the false-positive
 * rate where {@code expectedFpp()} says, and the refusals growth may make.
 */
class ExpandableGrowthTest {

  private static String where(String config) {
    return "[" + config + ", " + TestSeed.rerun() + "]";
  }

  /**
   * From 2 buckets to 2^15: fourteen doublings with 16-bit lanes, so the first keys give up their
   * last fingerprint bit after eight and are copied at every doubling after that. In each round
   * a wave of keys is added, then every third key of every earlier wave is removed.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"expandable?capacity=1", "expandable?capacity=1&bucketSize=8",
      "expandable?capacity=3&fingerprintBits=32", "expandable?capacity=1&maxKicks=20&concurrency=locked",
      "expandable?capacity=1&targetFpp=0.001", "expandable?capacity=2&targetFpp=0.00001&expectedKeys=3000",
      "expandable?capacity=1&targetFpp=0.05&maxKicks=20&concurrency=locked"})
  void keysAddedBeforeEveryDoublingAreFoundAndRemovedAndSizeStaysExact(String config) {
    String where = where(config);
    SplittableRandom r = TestSeed.random("growth " + config);
    CuckooFilter f = CuckooFilters.create(config);
    ExpandableFilter e = (ExpandableFilter) f;
    List<long[]> waves = new ArrayList<>();
    List<Long> kept = new ArrayList<>();
    int lastK = e.table.k;
    int doublings = 0;
    while (e.table.k < e.startK + 14) {
      long[] wave = new long[(int) Math.max(4, f.capacity() / 2)];
      for (int i = 0; i < wave.length; i++) {
        wave[i] = r.nextLong();
        assertTrue(f.add(wave[i]), where + ": refused a distinct key at " + f.size() + " keys");
      }
      doublings += e.table.k - lastK;
      lastK = e.table.k;
      // Remove every third key of every earlier wave that is still in.
      for (long[] w : waves) {
        for (int i = 0; i < w.length; i += 3) {
          if (w[i] != 0) {
            assertTrue(f.remove(w[i]), where + ": remove of a key added " + doublings + " doublings ago");
            w[i] = 0;
          }
        }
      }
      waves.add(wave);
      kept.clear();
      for (long[] w : waves) {
        for (long key : w) {
          if (key != 0) {
            kept.add(key);
          }
        }
      }
      assertEquals(kept.size(), f.size(), where + ": size after " + doublings + " doublings");
      assertFound(f, kept, where + " after " + doublings + " doublings");
      if (waves.size() % 4 == 0) {
        CuckooFilter g = Filters.roundTrip(f);
        assertEquals(f.size(), g.size(), where + ": size after write/read");
        assertEquals(f.sizeInBytes(), g.sizeInBytes(), where + ": memory after write/read");
        assertEquals(f.expectedFpp(), g.expectedFpp(), 1e-12, where + ": expectedFpp after write/read");
        assertFound(g, kept, where + " after write/read");
      }
    }
    assertTrue(doublings >= 13, where + ": " + doublings + " doublings");
    // The first keys have given up all their bits (16-bit lanes): some entries are copies.
    if (e.headBits == 16 && !e.schedule.isFlat()) {
      assertTrue(e.ages()[e.table.fingerprintBits] > 0, where + ": no exhausted entries");
      assertTrue(e.entries() > f.size(), where);
    }
    // Remove everything that is left: the table is empty but for the copies of exhausted entries.
    for (long key : kept) {
      assertTrue(f.remove(key), where + ": remove of " + key);
    }
    assertEquals(0, f.size(), where);
    long copies = e.entries();
    assertEquals(copies, e.ages()[e.table.fingerprintBits], where + ": only exhausted copies remain");
    f.clear();
    assertEquals(0, e.entries());
    assertEquals(e.startK, e.table.k, where + ": clear goes back to the first table");
  }

  private static void assertFound(CuckooFilter f, List<Long> keys, String where) {
    for (long key : keys) {
      if (!f.mightContain(key)) {
        fail(where + ": false negative for " + key + " (" + keys.size() + " keys stored)");
      }
    }
  }

  /** The measured rate follows expectedFpp() as the filter grows, and both grow slowly. */
  @Test
  void theFalsePositiveRateIsWhereExpectedFppSaysAtEverySize() {
    String config = "expandable?capacity=1000";
    String where = where(config);
    SplittableRandom r = TestSeed.random("fpp");
    CuckooFilter f = CuckooFilters.create(config);
    double first = 0;
    long probe = 0;
    for (int round = 0; round < 7; round++) {
      long target = 1000L << (2 * round);
      while (f.size() < target) {
        f.add(r.nextLong());
      }
      int queries = 400_000;
      long positives = 0;
      for (int i = 0; i < queries; i++) {
        // Keys from this stream were never added: the adds drew from another one.
        positives += f.mightContain(Filters.mix(++probe)) ? 1 : 0;
      }
      double rate = (double) positives / queries;
      double expected = f.expectedFpp();
      double sd = Math.sqrt(expected / queries);
      String at = where + " at " + f.size() + " keys: rate " + rate + ", expectedFpp " + expected;
      assertTrue(Math.abs(rate - expected) <= 6 * sd + 0.03 * expected, at);
      if (round == 0) {
        first = expected;
      } else {
        // Each doubling's keys add about 2·b·α/2^15 at most (α ≤ 0.93): two doublings a round.
        assertTrue(expected <= first + round * 2 * 8 * 0.93 / 32768 + 1e-9, at);
      }
    }
  }

  /**
   * Copies of one key fill its two buckets and the stash at any size: growing cannot help, so
   * the filter doubles at most once for them and then refuses, losing nothing.
   */
  @Test
  void copiesOfOneKeyAreRefusedAfterAtMostOneDoubling() {
    CuckooFilter f = CuckooFilters.create("expandable?capacity=100");
    ExpandableFilter e = (ExpandableFilter) f;
    SplittableRandom r = TestSeed.random("copies");
    List<Long> others = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      others.add(r.nextLong());
      f.add(others.get(i));
    }
    int startK = e.table.k;
    int accepted = 0;
    for (int i = 0; i < 40; i++) {
      accepted += f.add(42L) ? 1 : 0;
    }
    assertTrue(accepted >= 2 * e.slots && accepted < 40, accepted + " copies accepted");
    assertTrue(e.table.k <= startK + 1, "doubled " + (e.table.k - startK) + " times for copies of one key");
    assertEquals(60 + accepted, f.size());
    assertTrue(f.count(42L) >= accepted);
    assertFound(f, others, "after refused copies");
    for (int i = 0; i < accepted; i++) {
      assertTrue(f.remove(42L), "copy " + i);
    }
    assertEquals(60, f.size());
    assertFound(f, others, "after removing the copies");
  }

  /** Past what the heap allows for the old and the doubled table, an add is refused. */
  @Test
  void anAddThatWouldOutgrowTheHeapIsRefusedAndLosesNothing() {
    CuckooFilter f = CuckooFilters.create("expandable?capacity=1000");
    ExpandableFilter e = (ExpandableFilter) f;
    e.memoryLimit(3 * 8L * (1 << 12) - 1); // room for a table of 2^11 buckets and its double
    SplittableRandom r = TestSeed.random("heap");
    List<Long> stored = new ArrayList<>();
    boolean refused = false;
    for (int i = 0; i < 30_000 && !refused; i++) {
      long key = r.nextLong();
      if (f.add(key)) {
        stored.add(key);
      } else {
        refused = true;
      }
    }
    assertTrue(refused, "never refused");
    assertEquals(12, e.table.k, "doubled up to the limit");
    assertEquals(stored.size(), f.size());
    assertFound(f, stored, "after the refusal");
    assertTrue(f.loadFactor() > 0.9, "refused at load " + f.loadFactor());
  }

  /** Growth keeps entries of every age in the histogram that expectedFpp() and files rely on. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"expandable?capacity=50", "expandable?capacity=50&targetFpp=0.0001"})
  void theAgesOfEntriesAreCountedThroughGrowthAndRemoval(String config) {
    CuckooFilter f = CuckooFilters.create(config);
    ExpandableFilter e = (ExpandableFilter) f;
    SplittableRandom r = TestSeed.random("ages");
    List<Long> keys = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      keys.add(r.nextLong());
      f.add(keys.get(i));
      if (i % 7 == 0) {
        f.remove(keys.get(i / 2));
        keys.set(i / 2, 0L);
      }
    }
    long[] counted = new long[e.table.fingerprintBits + 1];
    LaneTable t = e.table;
    for (long b = 0; b < t.buckets(); b++) {
      for (int s = 0; s < t.slots; s++) {
        if (t.lane(b, s) != t.empty) {
          counted[t.age(t.lane(b, s))]++;
        }
      }
    }
    for (int i = 0; i < e.stash.size(); i++) {
      counted[t.age(e.stash.entry(i))]++;
    }
    assertEquals(Arrays.toString(counted), Arrays.toString(e.ages()));
    assertEquals(Arrays.stream(counted).sum(), e.entries());
    assertFalse(Arrays.stream(counted).anyMatch(c -> c < 0));
  }
}
