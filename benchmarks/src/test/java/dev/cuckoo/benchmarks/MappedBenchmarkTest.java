package dev.cuckoo.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.MappedFilter;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** {@link MappedBenchmark} computes the right answers, on the heap and mapped alike. */
class MappedBenchmarkTest {

  private static MappedBenchmark.Setting setting(String storage) {
    MappedBenchmark.Setting s = new MappedBenchmark.Setting();
    s.config = "classic?fingerprintBits=16";
    s.size = 4 * MappedBenchmark.BLOCK;
    s.storage = storage;
    return s;
  }

  @Test
  void lookupsFindThePresentKeysOnTheHeapAndMapped() throws IOException {
    MappedBenchmark benchmark = new MappedBenchmark();
    for (String storage : new String[] {"heap", "mapped"}) {
      MappedBenchmark.Lookups s = new MappedBenchmark.Lookups();
      s.setUp(setting(storage));
      try {
        if (storage.equals("mapped")) {
          assertInstanceOf(MappedFilter.class, s.filter);
        }
        for (int i = 0; i < s.setting.size; i++) {
          assertTrue(benchmark.positiveLookup(s), storage);
        }
        int absent = 0;
        for (int i = 0; i < s.setting.size; i++) {
          absent += benchmark.negativeLookup(s) ? 0 : 1;
        }
        assertTrue(absent > s.setting.size * 0.99, storage + ": " + absent);
        assertEquals(MappedBenchmark.BLOCK, benchmark.positiveLookupAll(s), storage);
      } finally {
        s.tearDown();
      }
    }
  }

  @Test
  void addsFillAFilterThenStartAFreshOne() throws IOException {
    MappedBenchmark benchmark = new MappedBenchmark();
    for (String storage : new String[] {"heap", "mapped"}) {
      MappedBenchmark.Adds s = new MappedBenchmark.Adds();
      s.setUp(setting(storage));
      try {
        for (int block = 0; block < 6; block++) {
          s.renewWhenFull();
          assertEquals(MappedBenchmark.BLOCK, benchmark.add(s), storage + " block " + block);
        }
      } finally {
        s.tearDown();
      }
    }
  }
}
