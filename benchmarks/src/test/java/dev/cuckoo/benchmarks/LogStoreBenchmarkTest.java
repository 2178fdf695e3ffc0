package dev.cuckoo.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** The log store's benchmark and figures compute the right answers. */
class LogStoreBenchmarkTest {

  @Test
  void everyOperationAnswersAsTheStoreHoldsIt() throws IOException {
    LogStoreBenchmark.Workload w = new LogStoreBenchmark.Workload();
    w.keys = 5_000;
    w.valueBytes = 40;
    w.setUp();
    try {
      LogStoreBenchmark b = new LogStoreBenchmark();
      LogStoreBenchmark.Cursor c = new LogStoreBenchmark.Cursor();
      for (int i = 0; i < 2 * w.keys; i++) {
        byte[] v = b.getHit(w, c);
        assertNotNull(v, "hit " + i);
        assertEquals(40, v.length);
      }
      c = new LogStoreBenchmark.Cursor();
      for (int i = 0; i < w.keys; i++) {
        assertNull(b.getMiss(w, c), "miss " + i);
      }
      int falsePositives = 0;
      for (int i = 0; i < w.keys; i++) {
        falsePositives += b.filterMiss(w, c) ? 1 : 0;
      }
      assertTrue(falsePositives < w.keys / 50, falsePositives + " false positives of the filter");
      for (int i = 0; i < w.keys; i++) {
        b.putReplace(w, c);
      }
      assertEquals(w.keys, w.store.size());
    } finally {
      w.tearDown();
    }
    assertFalse(Files.exists(w.directory), "the benchmark's store is deleted");
  }

  @Test
  void theFiguresCountReadsAndBytes() throws IOException {
    LogStoreFigures f = LogStoreFigures.measure(20_000, 30, true);
    assertEquals(1.0, f.readsPerHit, 0.02);
    assertTrue(f.readsPerMiss < 0.02, "reads per miss " + f.readsPerMiss);
    assertTrue(f.worstIndexBytesPerKey <= 8.5 && f.bestIndexBytesPerKey >= 6, f.table(30));
    assertTrue(f.hashMapBytesPerKey > 50, f.table(30));
    assertTrue(f.reopenSeconds > 0 && f.logBytes > 20_000L * 50, f.table(30));
    assertTrue(f.table(30).contains("| record reads per get, present keys | 1.0"), f.table(30));
  }
}
