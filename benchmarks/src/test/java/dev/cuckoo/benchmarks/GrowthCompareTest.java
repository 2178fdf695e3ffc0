package dev.cuckoo.benchmarks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code compare --grow} computes the right answers on a tiny growth, for every default contender. */
class GrowthCompareTest {

  @Test
  void everyGrowthContenderIsMeasuredCorrectly(@TempDir Path out) throws Exception {
    Compare.Options o = Compare.Options.parse("--grow", "--from", "64", "--to", "20k", "--rounds", "2", "--in-process",
        "--out", out.toString());
    o.queries = 5_000;
    List<String> contenders = GrowthWorker.defaultContenders();
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    List<GrowthMeasurement> results = GrowthCompare.run(o, contenders, new PrintStream(progress, true, StandardCharsets.UTF_8));
    assertEquals(contenders.size(), results.size());
    for (GrowthMeasurement m : results) {
      String name = m.name();
      assertEquals(0, m.falseNegatives(), name + " lost keys");
      assertEquals(List.of(64L, 256L, 1024L, 4096L, 16384L, 20000L),
          m.checkpoints().stream().map(GrowthMeasurement.Checkpoint::keys).toList(), name);
      // 64·2^(j/8) up to 20,000: j = 0..66.
      assertEquals(67, m.samples().size(), name);
      for (GrowthMeasurement.Checkpoint c : m.checkpoints()) {
        assertTrue(c.fpp() >= 0 && c.fpp() < 0.5, name + " fpp " + c.fpp());
        assertTrue(c.positiveNs() > 0 && c.negativeNs() > 0 && c.insertNs() > 0, name);
        assertTrue(c.bitsPerItem() > 4, name + " bits/item " + c.bitsPerItem());
      }
      assertTrue(m.bitsWorst() >= m.bitsGeometricMean(), name);
      assertTrue(m.insertNs() > 0 && m.longestBlockMs() > 0, name);
      assertEquals(m, GrowthMeasurement.fromLine(m.toLine()), "worker line round trip");
    }
    // The chain's false positives pile up as it grows; ours stay two orders of magnitude lower,
    // and at the rate asked.
    GrowthMeasurement expandable = results.get(contenders.indexOf("expandable?targetFpp=0.001"));
    GrowthMeasurement chain = results.get(contenders.indexOf("scalable?bucketSize=2&expansion=2"));
    double last = expandable.checkpoints().get(5).fpp();
    assertTrue(last <= 0.001 && chain.checkpoints().get(5).fpp() > 10 * last, results.toString());
    // A presized classic filter is large at the start: its first checkpoints cost many bits per key.
    GrowthMeasurement presized = results.get(contenders.indexOf(GrowthWorker.PRESIZED + "classic?targetFpp=0.001"));
    assertTrue(presized.checkpoints().get(0).bitsPerItem() > 1_000);

    CompareReport.writeGrowth(results, out);
    List<String> csv = Files.readAllLines(out.resolve("growth.csv"));
    assertEquals(GrowthMeasurement.csvHeader(), csv.get(0));
    assertEquals(1 + 6 * results.size(), csv.size());
    for (String f : new String[] {"growth.md", "growth-lookup-ns.png", "growth-lookup-ns.svg", "growth-fpp.png",
        "growth-fpp.svg", "growth-bits-per-item.png", "growth-bits-per-item.svg"}) {
      assertTrue(Files.size(out.resolve(f)) > 500, f);
    }
    String table = CompareReport.growthTable(results, false);
    for (GrowthMeasurement m : results) {
      assertTrue(table.contains(m.name()), table);
    }
    assertTrue(progress.toString(StandardCharsets.UTF_8).contains("round 2"), progress.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aContenderFromTheClassPathRunsThroughTheWholeGrowthMeasurement(@TempDir Path out) throws Exception {
    Compare.Options o = Compare.Options.parse("--grow", "--from", "64", "--to", "20k", "--rounds", "1", "--in-process",
        "--out", out.toString());
    o.queries = 5_000;
    String external = "class:" + HashSetContender.class.getName() + "?bitsPerKey=48";
    List<String> contenders = List.of("expandable?targetFpp=0.001", external);
    List<GrowthMeasurement> results = GrowthCompare.run(o, contenders,
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    GrowthMeasurement m = results.get(1);
    assertEquals(external, m.name());
    assertEquals(0, m.falseNegatives());
    assertEquals(List.of(64L, 256L, 1024L, 4096L, 16384L, 20000L),
        m.checkpoints().stream().map(GrowthMeasurement.Checkpoint::keys).toList());
    assertEquals(67, m.samples().size());
    for (GrowthMeasurement.Checkpoint c : m.checkpoints()) {
      // An exact set: no false positive, and the bits it reports, not 8 times some byte count.
      assertEquals(0, c.fpp(), "fpp at " + c.keys());
      assertEquals(48, c.bitsPerItem(), 1e-9, "bits/item at " + c.keys());
      assertTrue(c.positiveNs() > 0 && c.negativeNs() > 0 && c.insertNs() > 0);
    }
    assertEquals(48, m.bitsWorst(), 1e-9);
    assertEquals(m, GrowthMeasurement.fromLine(m.toLine()), "worker line round trip");

    CompareReport.writeGrowth(results, out);
    List<String> csv = Files.readAllLines(out.resolve("growth.csv"));
    assertEquals(6, csv.stream().filter(l -> l.startsWith("\"" + external + "\",")).count(), csv.toString());
    assertTrue(Files.readString(out.resolve("growth.md")).contains("`" + external + "`"));
    for (String chart : new String[] {"growth-fpp.svg", "growth-lookup-ns.svg", "growth-bits-per-item.svg"}) {
      assertTrue(Files.readString(out.resolve(chart)).contains(HashSetContender.class.getName()), chart);
    }
    assertTrue(CompareReport.growthTable(results, false).contains(external));
  }

  @Test
  void aPresizedContenderFromTheClassPathIsCreatedForAllTheKeys() {
    String contender = GrowthWorker.PRESIZED + "class:" + HashSetContender.class.getName();
    FilterAdapter f = GrowthWorker.create(contender, 64, 1_000);
    assertTrue(f.add(5) && f.mightContain(5) && !f.mightContain(6));
    assertEquals(64, f.sizeInBits());
    assertEquals(8, f.sizeInBytes());
    assertTrue(!f.supportsRemove() && !f.supportsBytes());
    assertThrows(UnsupportedOperationException.class, () -> f.remove(5));
  }

  @Test
  void aBadContenderFromTheClassPathIsNamedInTheError() {
    String[][] cases = {
        {"class:org.example.NoSuchFilter?fpp=0.001", "no class org.example.NoSuchFilter on the class path"},
        {"class:java.lang.String", "does not implement dev.cuckoo.benchmarks.GrowingContender"},
        {"class:" + HashSetContender.class.getName() + "?colour=blue", "unknown option colour"},
        {"class:" + HashSetContender.class.getName() + "?bitsPerKey", "option 'bitsPerKey' is not key=value"},
        {"class:" + HashSetContender.class.getName() + "?bitsPerKey=1&bitsPerKey=2", "bitsPerKey is given twice"},
        {"class:?a=b", "no class named"},
    };
    for (String[] c : cases) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GrowthWorker.create(c[0], 64, 64),
          c[0]);
      String message = e.getMessage();
      assertTrue(message.startsWith("contender " + c[0] + ": ") && message.contains(c[1]), message);
    }
  }

  @Test
  void checkpointsAreEvery4xAndTheEndAndSamples8PerDoubling() {
    assertArrayEquals(new long[] {4096, 16384, 65536, 100000}, GrowthWorker.checkpoints(4096, 100_000));
    assertArrayEquals(new long[] {10, 40}, GrowthWorker.checkpoints(10, 40));
    long[] s = GrowthWorker.samplePoints(1000, 2000);
    assertEquals(9, s.length);
    assertEquals(1000, s[0]);
    assertEquals(1091, s[1]); // 1000·2^(1/8)
    assertEquals(2000, s[8]);
  }

  @Test
  void theMedianOfRoundsTakesEachCheckpointsMedianTime() {
    GrowthMeasurement.Sample sample = new GrowthMeasurement.Sample(10, 20.0);
    List<GrowthMeasurement> rounds = List.of(
        round(10, 5.0, 2.0), round(30, 1.0, 9.0), round(20, 3.0, 4.0));
    GrowthMeasurement m = GrowthMeasurement.median(rounds);
    assertEquals(20, m.checkpoints().get(0).positiveNs());
    assertEquals(3, m.checkpoints().get(0).negativeNs());
    assertEquals(4, m.insertNs());
    assertEquals(4, m.checkpoints().get(0).insertNs());
    assertEquals(List.of(sample), m.samples());
  }

  private static GrowthMeasurement round(double positive, double negative, double insert) {
    return new GrowthMeasurement("c", 10, 10, List.of(new GrowthMeasurement.Checkpoint(10, 20.0, 0.01, positive, negative, insert)),
        List.of(new GrowthMeasurement.Sample(10, 20.0)), insert, 1.0, 0);
  }

  @Test
  void badGrowthOptionsAreReportedWithUsage() {
    assertThrows(Compare.UsageException.class, () -> Compare.Options.parse("--grow", "--from", "0"));
    assertThrows(Compare.UsageException.class, () -> Compare.Options.parse("--grow", "--from", "many"));
    assertThrows(Compare.UsageException.class, () -> Compare.Options.parse("--grow", "--from", "2M", "--to", "1M"));
    Compare.Options o = Compare.Options.parse("--grow", "--from", "4k", "--to", "16.7M");
    assertTrue(o.grow);
    assertEquals(4_000, o.from);
    assertEquals(16_700_000, o.to);
    assertEquals(1 << 24, Compare.Options.parse("--grow").to);
    // A growth may go past what one comparison holds, to what one array of keys holds.
    Compare.Options big = Compare.Options.parse("--grow", "--to", "1073741824", "--queries", "4M");
    assertEquals(1 << 30, big.to);
    assertEquals(4_000_000, big.queries);
    assertThrows(Compare.UsageException.class, () -> Compare.Options.parse("--grow", "--to", "3000M"));
    assertThrows(Compare.UsageException.class, () -> Compare.Options.parse("--grow", "--queries", "none"));
  }
}
