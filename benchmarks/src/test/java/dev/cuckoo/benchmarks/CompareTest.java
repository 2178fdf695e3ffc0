package dev.cuckoo.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The comparison harness computes the right answers on a tiny size, for every contender. */
class CompareTest {

  @Test
  void everyContenderIsMeasuredCorrectly(@TempDir Path out) throws Exception {
    Compare.Options o = Compare.Options.parse("--size", "20k", "--rounds", "1", "--in-process", "--out", out.toString());
    o.warmUpNanos = 0;
    List<Contender> contenders = Compare.contenders(o);
    assertTrue(contenders.size() >= 8, "peers: " + contenders);
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    List<Measurement> results = Compare.run(o, contenders, new PrintStream(progress, true, StandardCharsets.UTF_8));
    assertEquals(contenders.size(), results.size());
    for (Measurement m : results) {
      String name = m.name();
      assertEquals(20_000, m.keys(), name);
      if (m.family().equals("cuckoo")) {
        assertEquals(0, m.falseNegatives(), name + " lost stored keys");
        assertEquals(20_000, m.stored(), name + " refused keys below its capacity");
      } else {
        // FastFilter drops a stored fingerprint when its table is full: at most one per refusal.
        assertTrue(m.falseNegatives() <= m.keys() - m.stored(), name + " lost more keys than it refused");
      }
      boolean grows = (name.startsWith("scalable") && !name.contains("expansion=0")) || name.startsWith("expandable");
      if (!m.family().equals("peer-bloom") && !grows) {
        assertTrue(m.loadAtRefusal() > 0.5 && m.loadAtRefusal() <= 1.0, name + " load " + m.loadAtRefusal());
      }
      assertTrue(m.fpp() >= 0 && m.fpp() < 0.1, name + " fpp " + m.fpp());
      assertTrue(m.bitsPerItem() > 4 && m.bitsPerItem() < 64, name + " bits/item " + m.bitsPerItem());
      assertTrue(m.insertNs() > 0 && m.positiveNs() > 0 && m.negativeNs() > 0, name);
      assertEquals(m, Measurement.fromLine(m.toLine()), "worker line round trip");
    }
    assertTrue(progress.toString(StandardCharsets.UTF_8).contains("[ 1/"), progress.toString(StandardCharsets.UTF_8));

    CompareReport.write(results, o.size, out);
    List<String> csv = Files.readAllLines(out.resolve("results.csv"));
    assertEquals(results.size() + 1, csv.size());
    assertEquals(Measurement.csvHeader(), csv.get(0));
    for (String chart : new String[] {"ns-per-op.png", "ns-per-op.svg", "fpp-vs-bits.png", "fpp-vs-bits.svg", "results.md"}) {
      assertTrue(Files.size(out.resolve(chart)) > 500, chart);
    }
    String table = CompareReport.table(results, o.size, false);
    for (Measurement m : results) {
      assertTrue(table.contains(m.name()), table);
    }
  }

  @Test
  void guavaAtAGivenFppMeetsIt() {
    // The Bloom filters stand in for "the same FPP" as our widths: check they are what they say.
    for (double fpp : Contenders.BLOOM_FPPS) {
      Measurement m = CompareWorker.measure(Contenders.named("guava-bloom?fpp=" + fpp), 50_000, 1, 0);
      assertTrue(m.fpp() < fpp * 1.5 + 0.0005, "guava at " + fpp + " measured " + m.fpp());
    }
  }

  @Test
  void badOptionsAreReportedWithUsage() {
    assertThrows(Compare.UsageException.class, () -> Compare.Options.parse("--size", "lots"));
    assertThrows(Compare.UsageException.class, () -> Compare.Options.parse("--size", "10"));
    assertThrows(Compare.UsageException.class, () -> Compare.Options.parse("--rounds", "0"));
    assertThrows(Compare.UsageException.class, () -> Compare.Options.parse("--peers", "maybe"));
    assertThrows(Compare.UsageException.class, () -> Compare.Options.parse("--frobnicate", "1"));
    assertThrows(Compare.UsageException.class, () -> Compare.Options.parse("--out"));
    assertEquals(10_000_000, Compare.Options.parse("--size", "10M").size);
    assertEquals(1_500, Compare.Options.parse("--size", "1.5k").size);
    assertTrue(Compare.Options.parse("--peers", "off", "--configs", "a;b").configs.size() == 2);
    assertThrows(IllegalArgumentException.class,
        () -> Compare.contenders(Compare.Options.parse("--configs", "classic?fingerprintBits=99")));
  }

  @Test
  void aMeasurementIsTheSameInAForkedWorker() throws IOException, InterruptedException {
    Compare.Options o = Compare.Options.parse("--size", "5k", "--rounds", "1", "--only", "guava-bloom\\?fpp=0.03");
    List<Contender> one = Compare.contenders(o);
    assertEquals(1, one.size());
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    Measurement forked = Compare.run(o, one, new PrintStream(progress, true, StandardCharsets.UTF_8)).get(0);
    Measurement here = CompareWorker.measure(one.get(0), 5_000, 1, 0);
    assertEquals(here.stored(), forked.stored());
    assertEquals(here.fpp(), forked.fpp(), "same keys, same filter, same false positives");
    assertEquals(here.bitsPerItem(), forked.bitsPerItem());
  }
}
