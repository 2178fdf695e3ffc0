package dev.cuckoo.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import org.junit.jupiter.api.Test;

/** Every way the benchmark builds a filter gives one that holds every key. */
class ParallelBuildBenchmarkTest {
  @Test
  void everyBuildHoldsEveryKey() {
    for (String config : new String[] {"classic?fingerprintBits=12", "expandable?targetFpp=0.001"}) {
      ParallelBuildBenchmark b = new ParallelBuildBenchmark();
      b.config = config;
      b.keys = 20_000;
      b.setUp();
      for (CuckooFilter f : new CuckooFilter[] {b.loop(), b.sequentialCollect(), b.parallelCollect()}) {
        assertEquals(20_000, f.size(), config);
        for (String k : b.list) {
          assertTrue(f.mightContain(k), config + ": " + k);
        }
      }
    }
  }
}
