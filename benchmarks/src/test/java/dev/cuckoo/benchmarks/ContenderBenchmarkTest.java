package dev.cuckoo.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.Blackhole;

/** Each benchmark of {@link ContenderBenchmark} does what its name says, for every contender. */
class ContenderBenchmarkTest {
  private static final Blackhole BH =
      new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");

  private static List<Contender> everyone() {
    List<Contender> all = new ArrayList<>(Contenders.installed());
    all.addAll(Contenders.peers());
    return all;
  }

  private static ContenderBenchmark.Workload workload(Contender c, String keys) {
    ContenderBenchmark.Workload w = new ContenderBenchmark.Workload();
    w.contender = c.name();
    w.size = 8 * ContenderBenchmark.BLOCK;
    w.keys = keys;
    w.setUp();
    return w;
  }

  @Test
  void lookupsAnswerCorrectlyForBothKeyForms() {
    ContenderBenchmark b = new ContenderBenchmark();
    for (Contender c : everyone()) {
      for (String keys : new String[] {"long", "bytes"}) {
        if (keys.equals("bytes") && !c.create(100).supportsBytes()) {
          continue;
        }
        ContenderBenchmark.Workload w = workload(c, keys);
        int blocks = w.size / ContenderBenchmark.BLOCK;
        int found = 0;
        for (int block = 0; block < blocks; block++) {
          found += b.positiveLookup(w);
        }
        // The blocks cover every key once.
        int missed = w.size - found;
        if (c.ours()) {
          assertEquals(0, w.refused, c.name() + " refused keys below its capacity");
        }
        assertTrue(missed <= w.refused, c.name() + " " + keys + ": " + missed + " stored keys not found, " + w.refused + " refused");
        int falsePositives = 0;
        for (int block = 0; block < blocks; block++) {
          falsePositives += b.negativeLookup(w);
        }
        assertTrue(falsePositives < w.size / 10, c.name() + " " + keys + ": " + falsePositives + " false positives");
      }
    }
  }

  @Test
  void insertFillsToCapacityThenStartsAFreshFilter() {
    ContenderBenchmark b = new ContenderBenchmark();
    for (Contender c : everyone()) {
      ContenderBenchmark.Workload w = workload(c, "long");
      ContenderBenchmark.Filling s = new ContenderBenchmark.Filling();
      s.setUp(w);
      FilterAdapter first = s.filter;
      for (int block = 0; block < w.size / ContenderBenchmark.BLOCK; block++) {
        s.renewWhenFull(w);
        b.insert(w, s, BH);
      }
      assertEquals(w.size, s.fill, c.name());
      for (int i = 0; i < w.size; i++) {
        assertTrue(w.fresh.mightContain(first, i), c.name() + ": inserted key " + i + " missing");
      }
      s.renewWhenFull(w);
      assertEquals(0, s.fill, c.name() + ": a full filter is replaced before the next block");
      assertFalse(s.filter == first, c.name());
      b.mixed(w, s, BH);
      assertTrue(s.fill > 0 && s.fill < ContenderBenchmark.BLOCK / 4, c.name() + ": the mix adds about 10%: " + s.fill);
    }
  }

  @Test
  void removeTakesOutABlockAndTheSetupPutsItBack() {
    ContenderBenchmark b = new ContenderBenchmark();
    for (Contender c : everyone()) {
      if (!c.create(100).supportsRemove()) {
        continue;
      }
      ContenderBenchmark.Workload w = workload(c, "bytes");
      ContenderBenchmark.Removal s = new ContenderBenchmark.Removal();
      s.putBack(w);
      b.remove(w, s, BH);
      int gone = 0;
      for (int i = 0; i < ContenderBenchmark.BLOCK; i++) {
        gone += w.present.mightContain(w.full, i) ? 0 : 1;
      }
      assertTrue(gone > ContenderBenchmark.BLOCK * 9 / 10, c.name() + ": only " + gone + " of the block removed");
      s.putBack(w);
      for (int i = 0; i < w.size; i++) {
        assertTrue(w.present.mightContain(w.full, i), c.name() + ": key " + i + " not put back");
      }
      assertEquals(1, s.nextBlock, c.name());
    }
  }
}
