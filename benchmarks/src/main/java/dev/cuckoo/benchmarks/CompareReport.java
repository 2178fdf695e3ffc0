package dev.cuckoo.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Turns measurements into the table, CSV, Markdown and charts {@link Compare} produces. */
final class CompareReport {
  private CompareReport() {}

  static String table(List<Measurement> results, int size, boolean markdown) {
    StringBuilder sb = new StringBuilder();
    String[] head = {"contender", "bits/item", "FPP", "load at 1st refusal", "insert ns", "pos. lookup ns", "neg. lookup ns", "false neg."};
    List<String[]> rows = new ArrayList<>();
    for (Measurement m : results) {
      rows.add(new String[] {
          m.name(),
          String.format(Locale.ROOT, "%.2f", m.bitsPerItem()),
          String.format(Locale.ROOT, "%.4f%%", 100 * m.fpp()),
          Double.isNaN(m.loadAtRefusal()) ? "-" : String.format(Locale.ROOT, "%.3f", m.loadAtRefusal()),
          String.format(Locale.ROOT, "%.1f", m.insertNs()),
          String.format(Locale.ROOT, "%.1f", m.positiveNs()),
          String.format(Locale.ROOT, "%.1f", m.negativeNs()),
          Long.toString(m.falseNegatives())});
    }
    if (!markdown) {
      sb.append(String.format(Locale.ROOT, "%,d random long keys per filter; median of the measured rounds%n", size));
    }
    appendTable(sb, head, rows, markdown);
    return sb.toString();
  }

  private static void appendRow(StringBuilder sb, String[] cells, int[] width) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < cells.length; i++) {
      String cell = i == 0 ? String.format("%-" + width[i] + "s", cells[i]) : String.format("%" + width[i] + "s", cells[i]);
      line.append(cell).append("  ");
    }
    sb.append(line.toString().stripTrailing()).append('\n');
  }

  static void print(List<Measurement> results, int size, PrintStream out) {
    out.println();
    out.print(table(results, size, false));
  }

  static void write(List<Measurement> results, int size, Path dir) throws IOException {
    Files.createDirectories(dir);
    List<String> csv = new ArrayList<>();
    csv.add(Measurement.csvHeader());
    results.forEach(m -> csv.add(m.toCsv()));
    Files.write(dir.resolve("results.csv"), csv, StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("results.md"),
        String.format(Locale.ROOT, "%,d random long keys per filter.%n%n", size) + table(results, size, true),
        StandardCharsets.UTF_8);
    speedChart(results, size).save(dir, "ns-per-op");
    fppChart(results, size).save(dir, "fpp-vs-bits");
  }

  // ---------------------------------------------------------------- compare --grow

  static String growthTable(List<GrowthMeasurement> results, boolean markdown) {
    StringBuilder sb = new StringBuilder();
    if (!results.isEmpty()) {
      GrowthMeasurement first = results.get(0);
      sb.append(String.format(Locale.ROOT, "random long keys, from a filter created for %,d keys to %,d keys;"
          + " median of the rounds%n%n", first.from(), first.to()));
    }
    List<String[]> summary = new ArrayList<>();
    List<String[]> points = new ArrayList<>();
    for (GrowthMeasurement m : results) {
      summary.add(new String[] {m.name(), String.format(Locale.ROOT, "%.1f", m.insertNs()),
          String.format(Locale.ROOT, "%.1f", m.longestBlockMs()),
          String.format(Locale.ROOT, "%.1f", m.bitsGeometricMean()), String.format(Locale.ROOT, "%.1f", m.bitsWorst()),
          Long.toString(m.falseNegatives())});
      for (GrowthMeasurement.Checkpoint c : m.checkpoints()) {
        points.add(new String[] {m.name(), String.format(Locale.ROOT, "%,d", c.keys()),
            String.format(Locale.ROOT, "%.2f", c.bitsPerItem()), String.format(Locale.ROOT, "%.4f%%", 100 * c.fpp()),
            String.format(Locale.ROOT, "%.1f", c.positiveNs()), String.format(Locale.ROOT, "%.1f", c.negativeNs()),
            String.format(Locale.ROOT, "%.1f", c.insertNs())});
      }
    }
    appendTable(sb, new String[] {"contender", "insert ns", "longest " + GrowthWorker.BLOCK + " adds ms",
        "bits/item mean", "bits/item worst", "false neg."}, summary, markdown);
    sb.append('\n');
    appendTable(sb, new String[] {"contender", "keys", "bits/item", "FPP", "pos. lookup ns", "neg. lookup ns",
        "insert ns since last"}, points, markdown);
    return sb.toString();
  }

  private static void appendTable(StringBuilder sb, String[] head, List<String[]> rows, boolean markdown) {
    if (markdown) {
      sb.append("| ").append(String.join(" | ", head)).append(" |\n|").append(" --- |".repeat(head.length)).append('\n');
      for (String[] r : rows) {
        sb.append("| `").append(r[0]).append("` | ").append(String.join(" | ", List.of(r).subList(1, r.length)))
            .append(" |\n");
      }
      return;
    }
    int[] width = new int[head.length];
    for (int i = 0; i < head.length; i++) {
      width[i] = head[i].length();
      for (String[] r : rows) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    appendRow(sb, head, width);
    StringBuilder rule = new StringBuilder();
    for (int w : width) {
      rule.append("-".repeat(w)).append("  ");
    }
    sb.append(rule.toString().stripTrailing()).append('\n');
    for (String[] r : rows) {
      appendRow(sb, r, width);
    }
  }

  static void printGrowth(List<GrowthMeasurement> results, PrintStream out) {
    out.println();
    out.print(growthTable(results, false));
  }

  static void writeGrowth(List<GrowthMeasurement> results, Path dir) throws IOException {
    Files.createDirectories(dir);
    List<String> csv = new ArrayList<>();
    csv.add(GrowthMeasurement.csvHeader());
    results.forEach(m -> csv.addAll(m.csvRows()));
    Files.write(dir.resolve("growth.csv"), csv, StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("growth.md"), growthTable(results, true), StandardCharsets.UTF_8);
    growthChart(results, "lookup ns as the filter grows (lower is better)", "ns per lookup", false,
        m -> m.checkpoints().stream().map(c -> new double[] {c.keys(), c.negativeNs()}).toList(),
        m -> m.checkpoints().stream().map(c -> new double[] {c.keys(), c.positiveNs()}).toList()).save(dir, "growth-lookup-ns");
    growthChart(results, "measured false-positive rate as the filter grows", "FPP", true,
        m -> m.checkpoints().stream().map(c -> new double[] {c.keys(), Math.max(c.fpp(), 1e-7)}).toList(), null)
        .save(dir, "growth-fpp");
    growthChart(results, "bits per item, 8 samples per doubling", "bits per item", false,
        m -> m.samples().stream().map(c -> new double[] {c.keys(), c.bitsPerItem()}).toList(), null)
        .save(dir, "growth-bits-per-item");
  }

  /**
   * One line per contender against the key count (log scale): {@code main}'s points, and if
   * given, {@code second}'s as a dashed line of the same contender.
   */
  static Chart growthChart(List<GrowthMeasurement> results, String title, String yAxis, boolean logY,
      java.util.function.Function<GrowthMeasurement, List<double[]>> main,
      java.util.function.Function<GrowthMeasurement, List<double[]>> second) {
    Chart chart = Chart.points(1100, 700, title, "keys", yAxis, true, logY, true);
    for (GrowthMeasurement m : results) {
      addSeries(chart, m.name() + (second == null ? "" : " (negative)"), main.apply(m), false);
      if (second != null) {
        addSeries(chart, m.name() + " (positive)", second.apply(m), true);
      }
    }
    return chart;
  }

  private static void addSeries(Chart chart, String name, List<double[]> points, boolean dashed) {
    double[] x = points.stream().mapToDouble(p -> p[0]).toArray();
    double[] y = points.stream().mapToDouble(p -> p[1]).toArray();
    chart.points(name, x, y, dashed ? Chart.Marker.NONE : Chart.Marker.CIRCLE, dashed);
  }

  static Chart speedChart(List<Measurement> results, int size) {
    Chart chart = Chart.bars(1200, 700, String.format(Locale.ROOT, "ns per operation, %,d keys (lower is better)", size),
        "ns/op", results.stream().map(Measurement::name).toList());
    chart.bars("insert", results.stream().mapToDouble(Measurement::insertNs).toArray());
    chart.bars("positive lookup", results.stream().mapToDouble(Measurement::positiveNs).toArray());
    chart.bars("negative lookup", results.stream().mapToDouble(Measurement::negativeNs).toArray());
    return chart;
  }

  static Chart fppChart(List<Measurement> results, int size) {
    Chart chart = Chart.points(1000, 700, String.format(Locale.ROOT, "false-positive rate vs memory, %,d keys", size),
        "bits per item", "measured FPP", false, true, false);
    for (Measurement m : results) {
      // A log axis cannot show 0: a filter with no false positive in the sample sits at its floor.
      double fpp = Math.max(m.fpp(), 1e-7);
      Chart.Marker marker = m.family().equals("cuckoo") ? Chart.Marker.DIAMOND
          : m.family().equals("peer-bloom") ? Chart.Marker.SQUARE : Chart.Marker.CIRCLE;
      chart.points(m.name(), new double[] {m.bitsPerItem()}, new double[] {fpp}, marker, false);
    }
    return chart;
  }
}
