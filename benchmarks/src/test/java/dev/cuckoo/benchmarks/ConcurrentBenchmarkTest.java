package dev.cuckoo.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The concurrency benchmark computes the right answers, with and without the option. */
class ConcurrentBenchmarkTest {

  @ParameterizedTest(name = "{0} concurrency={1}")
  @CsvSource({
      "classic?fingerprintBits=16, none",
      "classic?fingerprintBits=16, striped",
      "semi-sorted?fingerprintBits=16, none",
      "semi-sorted?fingerprintBits=16, striped"})
  void lookupsAndTheWriterAnswerCorrectly(String config, String concurrency) throws InterruptedException {
    ConcurrentBenchmark.Shared s = new ConcurrentBenchmark.Shared();
    s.config = config;
    s.concurrency = concurrency;
    s.keys = 20_000;
    s.setUp();
    assertEquals(concurrency.equals("none"), s.external);
    assertEquals(concurrency, s.filter.spec().concurrency().orElseThrow().configValue());
    ConcurrentBenchmark bench = new ConcurrentBenchmark();
    ConcurrentBenchmark.Cursor c = new ConcurrentBenchmark.Cursor();
    for (int i = 0; i < 2 * s.present.length; i++) {
      assertTrue(bench.positiveLookup(s, c), "positive lookup " + i + " missed");
    }
    long falsePositives = 0;
    c = new ConcurrentBenchmark.Cursor();
    for (int i = 0; i < s.absent.length; i++) {
      falsePositives += bench.negativeLookup(s, c) ? 1 : 0;
    }
    assertTrue(falsePositives < 10, falsePositives + " false positives of 16-bit fingerprints in 20,000 lookups");

    // The pair, run as JMH runs a group: one reader thread, one writer thread.
    ConcurrentBenchmark.Churn w = new ConcurrentBenchmark.Churn();
    int writes = 5 * s.churn.length;
    int[] refused = new int[1];
    Thread writer = new Thread(() -> {
      for (int i = 0; i < writes; i++) {
        refused[0] += bench.writer(s, w) ? 0 : 1;
      }
    });
    boolean[] missed = new boolean[1];
    Thread reader = new Thread(() -> {
      ConcurrentBenchmark.Cursor rc = new ConcurrentBenchmark.Cursor();
      for (int i = 0; i < 3 * s.present.length; i++) {
        missed[0] |= !bench.reader(s, rc);
      }
    });
    writer.start();
    reader.start();
    writer.join();
    reader.join();
    assertEquals(0, refused[0], "the writer's adds refused at 95% load");
    assertTrue(!missed[0], "the reader missed a present key while the writer ran");
    // Every step adds one key and, from the window on, removes one: the window stays in.
    assertEquals(s.present.length + s.window, s.filter.size());
    for (int i = 0; i < s.churn.length; i++) {
      assertTrue(!s.churned[i] || s.filter.mightContain(s.churn[i]), "churn key " + i + " added and not found");
    }
  }
}
