package dev.cuckoo.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilters;
import java.util.Arrays;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The benchmark computes the right answers: a fast wrong benchmark is worse than none. */
class FilterBenchmarkTest {

  @Test
  void keysAreDistinctAndStreamsDisjoint() {
    long[] a = Keys.distinct(10_000, 1);
    long[] b = Keys.distinct(10_000, 2);
    long[] all = new long[20_000];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    assertEquals(20_000, Arrays.stream(all).distinct().count());
  }

  @Test
  void everyInstalledVariantAnswersCorrectly() {
    Assumptions.assumeFalse(CuckooFilters.variants().isEmpty(), "no variant installed yet");
    for (String variant : CuckooFilters.variants()) {
      FilterBenchmark.Workload w = new FilterBenchmark.Workload();
      w.config = variant + "?capacity=20000";
      w.setUp();
      FilterBenchmark bench = new FilterBenchmark();
      FilterBenchmark.Cursor c = new FilterBenchmark.Cursor();
      assertTrue(w.present.length > 10_000, variant + " stored only " + w.present.length);
      for (int i = 0; i < 2 * w.present.length; i++) {
        assertTrue(bench.positiveLookup(w, c), variant + ": positive lookup " + i + " missed");
      }
      long falsePositives = 0;
      c = new FilterBenchmark.Cursor();
      for (int i = 0; i < w.absent.length; i++) {
        falsePositives += bench.negativeLookup(w, c) ? 1 : 0;
      }
      assertTrue(falsePositives < w.absent.length / 10, variant + ": " + falsePositives + " false positives");

      FilterBenchmark.Insertion s = new FilterBenchmark.Insertion();
      s.setUp(w);
      int added = 0;
      for (int i = 0; i < 2 * s.keys.length; i++) {
        added += bench.insert(s) ? 1 : 0;
      }
      assertTrue(added >= s.keys.length, variant + ": insert benchmark added " + added);
      assertEquals(s.keys.length, s.filter.size(), variant + ": insert benchmark wraps around with a clear");
    }
  }
}
