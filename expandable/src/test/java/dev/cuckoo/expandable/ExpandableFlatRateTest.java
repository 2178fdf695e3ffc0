package dev.cuckoo.expandable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.testkit.Filters;
import dev.cuckoo.testkit.TestSeed;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code expandable?targetFpp=X}: the rate stays at or below X at every doubling, measured and by
 * the bound the lanes are sized for, with and without {@code expectedKeys}; lanes widen only as
 * far as the rate needs; merges across schedules keep every key.
 */
class ExpandableFlatRateTest {

  private static final int SLOTS = 4;

  @Test
  void everyScheduleKeepsItsBoundUnderTheTargetAtEverySize() {
    for (double target : new double[] {0.2, 0.01, 0.001, 1e-4, 1e-5, 1e-6}) {
      for (int startK : new int[] {1, 5, 11, 20}) {
        LaneSchedule plain = LaneSchedule.flat(target, 0, SLOTS, startK);
        for (long hint : new long[] {0, 10_000, 1L << 24, 1L << 30}) {
          LaneSchedule s = LaneSchedule.flat(target, hint, SLOTS, startK);
          String at = "targetFpp " + target + ", startK " + startK + ", expectedKeys " + hint + ": " + s;
          int previous = s.extBits(startK);
          for (int k = startK; k <= LaneSchedule.PLANNED_K; k++) {
            int x = s.extBits(k);
            // Past the hint the tail widens a bit a doubling; once lanes are 32 bits it cannot.
            if (x < LaneSchedule.MAX_EXT_BITS || hint == 0) {
              assertTrue(s.rateBound(SLOTS, k) <= LaneSchedule.MARGIN * target * (1 + 1e-12),
                  at + ": bound " + s.rateBound(SLOTS, k) + " at k " + k);
            }
            // At most one bit a doubling; the first table's keys, two shares of the rate, may
            // have one bit more than the next ones.
            assertTrue(x >= previous - 1 && x <= previous + 1, at + ": lanes jump at k " + k);
            assertTrue(x >= 0 && x <= LaneSchedule.MAX_EXT_BITS, at);
            previous = x;
            if (hint != 0 && ExpandableFilter.growAt(SLOTS, k) <= hint) {
              assertTrue(x <= plain.extBits(k), at + ": a hint widens lanes below it, at k " + k);
            }
          }
        }
      }
    }
  }

  @Test
  void aRateBelowWhatThirtyTwoBitLanesHoldIsRefusedNamingIt() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CuckooFilters.create("expandable?targetFpp=1e-9"));
    assertTrue(e.getMessage().contains("targetFpp=1.0E-9"), e.getMessage());
    IllegalArgumentException b =
        assertThrows(IllegalArgumentException.class, () -> CuckooFilters.create("expandable?targetFpp=0.001&bucketSize=8"));
    assertTrue(b.getMessage().contains("bucketSize"), b.getMessage());
    IllegalArgumentException h =
        assertThrows(IllegalArgumentException.class, () -> CuckooFilters.create("expandable?fingerprintBits=16&expectedKeys=9"));
    assertTrue(h.getMessage().contains("expectedKeys"), h.getMessage());
  }

  @Test
  void aSpecWithARateKeepsItAndNamesNoWidth() {
    CuckooFilter f = CuckooFilters.create("expandable?targetFpp=0.001&expectedKeys=1000000");
    assertEquals(0.001, f.spec().targetFpp().getAsDouble());
    assertTrue(f.spec().fingerprintBits().isEmpty(), f.spec().toString());
    assertEquals("1000000", f.spec().option(ExpandableProvider.EXPECTED_KEYS).orElseThrow());
    assertEquals(f.spec(), CuckooFilters.create(f.spec().toString()).spec(), "resolving again changes nothing");
    assertTrue(CuckooFilters.create("expandable?targetFpp=0.001").spec().option(ExpandableProvider.EXPECTED_KEYS).isEmpty());
  }

  /**
   * Grown from 64 keys to 2^20, one doubling at a time: after each doubling, every key is found,
   * the measured rate of keys never added is at or below the target, where expectedFpp() says,
   * and expectedFpp() is within the bound the lanes were sized for. With 0.001 the test looks up
   * 3.5M keys a doubling, enough that a rate at 90% of the target is 6 standard deviations
   * below it.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"expandable?capacity=64&targetFpp=0.01, 0.01", "expandable?capacity=64&targetFpp=0.001, 0.001",
      "expandable?capacity=64&targetFpp=0.001&expectedKeys=100000, 0.001",
      "expandable?capacity=64&targetFpp=0.01&concurrency=locked, 0.01"})
  void theRateStaysAtOrBelowTheTargetAtEveryDoubling(String config, double target) {
    String where = "[" + config + ", " + TestSeed.rerun() + "]";
    SplittableRandom r = TestSeed.random("flat " + config);
    CuckooFilter f = CuckooFilters.create(config);
    ExpandableFilter e = (ExpandableFilter) f;
    long[] keys = new long[1 << 20];
    int added = 0;
    int k = e.table.k;
    long probe = 0;
    int doublings = 0;
    int queries = (int) Math.min(3_500_000, 3_500 / target);
    while (added < keys.length) {
      keys[added] = r.nextLong();
      assertTrue(f.add(keys[added]), where);
      added++;
      if (e.table.k == k && added < keys.length) {
        continue;
      }
      doublings += e.table.k - k;
      k = e.table.k;
      String at = where + " at " + added + " keys, 2^" + k + " buckets, lanes of " + e.table.laneBits + " bits";
      for (int i = 0; i < added; i++) {
        if (!f.mightContain(keys[i])) {
          fail(at + ": false negative for key " + i);
        }
      }
      long positives = 0;
      for (int i = 0; i < queries; i++) {
        positives += f.mightContain(Filters.mix(++probe)) ? 1 : 0; // another stream than the adds'
      }
      double rate = (double) positives / queries;
      double expected = f.expectedFpp();
      String said = at + ": rate " + rate + ", expectedFpp " + expected;
      assertTrue(rate <= target, said);
      assertTrue(expected <= LaneSchedule.MARGIN * target * 1.01, said);
      assertTrue(Math.abs(rate - expected) <= 6 * Math.sqrt(expected / queries) + 0.05 * expected, said);
    }
    assertTrue(doublings >= 13, where + ": " + doublings + " doublings");
    if (target <= 0.001) {
      assertTrue(e.table.laneBits > 16, where + ": lanes never widened");
    }
  }

  /** Filters of other starts, rates and hints merge, each entry re-encoded for the lanes it joins. */
  @Test
  void filtersOfDifferentSchedulesMergeWithEveryKey() {
    SplittableRandom r = TestSeed.random("merge schedules");
    String[] configs = {"expandable?capacity=1024&targetFpp=0.001", "expandable?capacity=100&targetFpp=0.0001&expectedKeys=50000",
        "expandable?capacity=5000&targetFpp=0.01", "expandable?capacity=300"};
    for (String into : configs) {
      for (String from : configs) {
        CuckooFilter a = CuckooFilters.create(into);
        CuckooFilter b = CuckooFilters.create(from);
        long[] ka = new long[20_000];
        long[] kb = new long[70_000];
        for (int i = 0; i < ka.length; i++) {
          ka[i] = r.nextLong();
          assertTrue(a.add(ka[i]));
        }
        for (int i = 0; i < kb.length; i++) {
          kb[i] = r.nextLong();
          assertTrue(b.add(kb[i]));
        }
        String at = from + " into " + into;
        assertEquals(kb.length, a.addAll(b), at);
        assertEquals(ka.length + kb.length, a.size(), at);
        for (long key : ka) {
          assertTrue(a.mightContain(key), at);
        }
        for (long key : kb) {
          assertTrue(a.mightContain(key), at);
        }
        for (int i = 0; i < kb.length; i += 2) {
          assertTrue(a.remove(kb[i]), at + ": remove of a merged key");
        }
        for (long key : ka) {
          assertTrue(a.mightContain(key), at + " after removes");
        }
      }
    }
  }
}
