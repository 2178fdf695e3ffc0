package dev.cuckoo.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.Blackhole;

/** Each benchmark of {@link GrowthBenchmark} does what its name says, for every growth contender. */
class GrowthBenchmarkTest {
  private static final Blackhole BH =
      new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");

  private static GrowthBenchmark.Grown grown(String contender) {
    GrowthBenchmark.Grown g = new GrowthBenchmark.Grown();
    g.contender = contender;
    g.from = 64;
    g.keys = 16 * GrowthBenchmark.BLOCK;
    g.setUp();
    return g;
  }

  @Test
  void lookupsInAGrownFilterFindEveryStoredKeyAndFewOthers() {
    GrowthBenchmark b = new GrowthBenchmark();
    for (String c : GrowthWorker.defaultContenders()) {
      GrowthBenchmark.Grown g = grown(c);
      int blocks = g.keys / GrowthBenchmark.BLOCK;
      int found = 0;
      for (int block = 0; block < blocks; block++) {
        found += b.positiveLookup(g);
      }
      assertEquals(g.keys, found, c + ": the blocks cover every stored key once, and each is found");
      int falsePositives = 0;
      for (int block = 0; block < blocks; block++) {
        falsePositives += b.negativeLookup(g);
      }
      // The chain of scalable, grown 8 times, answers yes to about a fifth of absent keys.
      assertTrue(falsePositives < g.keys / 3, c + ": " + falsePositives + " false positives");
      if (!c.startsWith(GrowthWorker.PRESIZED)) {
        assertTrue(g.filter.sizeInBytes() > 8L * 64, c + " grew");
      }
    }
  }

  @Test
  void growFillsFromTheStartToTheKeysThenStartsAgain() {
    GrowthBenchmark b = new GrowthBenchmark();
    GrowthBenchmark.Grown g = grown("expandable?fingerprintBits=16");
    GrowthBenchmark.Growing s = new GrowthBenchmark.Growing();
    s.renewWhenGrown(g);
    FilterAdapter first = s.filter;
    long startBytes = first.sizeInBytes();
    for (int block = 0; block < g.keys / GrowthBenchmark.BLOCK; block++) {
      s.renewWhenGrown(g);
      assertSame(first, s.filter);
      b.grow(g, s, BH);
    }
    assertTrue(first.sizeInBytes() >= 64 * startBytes, "grew from " + startBytes + " to " + first.sizeInBytes());
    for (long k : g.stored) {
      assertTrue(first.mightContain(k));
    }
    s.renewWhenGrown(g);
    assertNotSame(first, s.filter, "a new filter once the last one holds every key");
    assertEquals(startBytes, s.filter.sizeInBytes());
  }
}
