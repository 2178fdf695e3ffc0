package dev.cuckoo.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code compare --grow} measures of one contender filled from a small start to many keys:
 * lookups, false positives and memory at each 4x checkpoint, memory 8 times per doubling, and
 * the cost of the adds.
 *
 * @param name the contender
 * @param from the capacity a growing filter starts with
 * @param to the keys added in all
 * @param checkpoints the measurements at {@code from}, {@code 4·from}, ..., and {@code to}
 * @param samples bits per item at {@code from·2^(j/8)}, j = 0, 1, ..., up to {@code to}
 * @param insertNs nanoseconds per add over the whole fill, growth included
 * @param longestBlockMs the longest any {@value GrowthWorker#BLOCK} consecutive adds took:
 *     at least the longest single add, which is where a filter that doubles pays for it
 * @param falseNegatives added keys not found after the fill (must be 0)
 */
public record GrowthMeasurement(
    String name, long from, long to, List<Checkpoint> checkpoints, List<Sample> samples,
    double insertNs, double longestBlockMs, long falseNegatives) {

  /**
   * One 4x checkpoint.
   *
   * @param keys keys added so far
   * @param bitsPerItem the filter's memory in bits per key
   * @param fpp measured false-positive rate over the negative lookups
   * @param positiveNs median ns per lookup of a stored key
   * @param negativeNs median ns per lookup of a key never added
   * @param insertNs mean ns per add of the keys added since the checkpoint before (from the
   *     start, for the first), doublings included
   */
  public record Checkpoint(long keys, double bitsPerItem, double fpp, double positiveNs, double negativeNs,
      double insertNs) {}

  /**
   * One memory sample.
   *
   * @param keys keys added so far
   * @param bitsPerItem the filter's memory in bits per key
   */
  public record Sample(long keys, double bitsPerItem) {}

  /** @return the geometric mean of the samples' bits per item */
  public double bitsGeometricMean() {
    double sum = 0;
    for (Sample s : samples) {
      sum += Math.log(s.bitsPerItem());
    }
    return samples.isEmpty() ? Double.NaN : Math.exp(sum / samples.size());
  }

  /** @return the largest sample of bits per item */
  public double bitsWorst() {
    return samples.stream().mapToDouble(Sample::bitsPerItem).max().orElse(Double.NaN);
  }

  /** @return the line a worker prints: {@code key=value} pairs separated by tabs */
  public String toLine() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("name", name);
    m.put("from", Long.toString(from));
    m.put("to", Long.toString(to));
    StringBuilder cp = new StringBuilder();
    for (Checkpoint c : checkpoints) {
      cp.append(cp.length() == 0 ? "" : ";").append(c.keys()).append(',').append(c.bitsPerItem()).append(',')
          .append(c.fpp()).append(',').append(c.positiveNs()).append(',').append(c.negativeNs()).append(',')
          .append(c.insertNs());
    }
    m.put("checkpoints", cp.toString());
    StringBuilder sp = new StringBuilder();
    for (Sample s : samples) {
      sp.append(sp.length() == 0 ? "" : ";").append(s.keys()).append(',').append(s.bitsPerItem());
    }
    m.put("samples", sp.toString());
    m.put("insertNs", Double.toString(insertNs));
    m.put("longestBlockMs", Double.toString(longestBlockMs));
    m.put("falseNegatives", Long.toString(falseNegatives));
    return WorkerLines.format("GROWTH", m);
  }

  /**
   * @param line a line written by {@link #toLine()}
   * @return the measurement
   */
  public static GrowthMeasurement fromLine(String line) {
    Map<String, String> m = WorkerLines.parse(line);
    List<Checkpoint> checkpoints = new ArrayList<>();
    for (String c : m.get("checkpoints").split(";")) {
      String[] v = c.split(",");
      checkpoints.add(new Checkpoint(Long.parseLong(v[0]), Double.parseDouble(v[1]), Double.parseDouble(v[2]),
          Double.parseDouble(v[3]), Double.parseDouble(v[4]), Double.parseDouble(v[5])));
    }
    List<Sample> samples = new ArrayList<>();
    for (String s : m.get("samples").split(";")) {
      String[] v = s.split(",");
      samples.add(new Sample(Long.parseLong(v[0]), Double.parseDouble(v[1])));
    }
    return new GrowthMeasurement(m.get("name"), Long.parseLong(m.get("from")), Long.parseLong(m.get("to")), checkpoints,
        samples, Double.parseDouble(m.get("insertNs")), Double.parseDouble(m.get("longestBlockMs")),
        Long.parseLong(m.get("falseNegatives")));
  }

  /**
   * The median of several rounds of one contender: per checkpoint, the median lookup times (the
   * false-positive rates and memory are the same in every round, as are the keys); the median
   * insert time and longest block.
   *
   * @param rounds measurements of one contender, with the same checkpoints
   * @return their median
   */
  public static GrowthMeasurement median(List<GrowthMeasurement> rounds) {
    GrowthMeasurement first = rounds.get(0);
    List<Checkpoint> checkpoints = new ArrayList<>();
    for (int i = 0; i < first.checkpoints().size(); i++) {
      int at = i;
      Checkpoint c = first.checkpoints().get(i);
      checkpoints.add(new Checkpoint(c.keys(), c.bitsPerItem(), c.fpp(),
          median(rounds.stream().mapToDouble(r -> r.checkpoints().get(at).positiveNs()).toArray()),
          median(rounds.stream().mapToDouble(r -> r.checkpoints().get(at).negativeNs()).toArray()),
          median(rounds.stream().mapToDouble(r -> r.checkpoints().get(at).insertNs()).toArray())));
    }
    return new GrowthMeasurement(first.name(), first.from(), first.to(), checkpoints, first.samples(),
        median(rounds.stream().mapToDouble(GrowthMeasurement::insertNs).toArray()),
        median(rounds.stream().mapToDouble(GrowthMeasurement::longestBlockMs).toArray()),
        rounds.stream().mapToLong(GrowthMeasurement::falseNegatives).max().orElse(0));
  }

  private static double median(double[] values) {
    return CompareWorker.median(values);
  }

  /** @return the CSV header matching {@link #csvRows()} */
  public static String csvHeader() {
    return "name,keys,bits_per_item,fpp,positive_lookup_ns,negative_lookup_ns,insert_ns";
  }

  /** @return one CSV row per checkpoint */
  public List<String> csvRows() {
    List<String> rows = new ArrayList<>();
    for (Checkpoint c : checkpoints) {
      rows.add(String.format(Locale.ROOT, "\"%s\",%d,%.4f,%.8f,%.2f,%.2f,%.2f", name, c.keys(), c.bitsPerItem(),
          c.fpp(), c.positiveNs(), c.negativeNs(), c.insertNs()));
    }
    return rows;
  }
}
