package dev.cuckoo.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code compare --grow}: every growth contender filled from {@code --from} to {@code --to}
 * keys, {@code --rounds} times, the rounds alternating the contenders (round 1 of each, then
 * round 2 of each, ...) so that a noisy stretch of the machine spreads over all of them; one JVM
 * per contender and round ({@link GrowthWorker}). Reports the median per checkpoint.
 */
final class GrowthCompare {
  private GrowthCompare() {}

  /** Runs as {@link Compare#execute} does for {@code --grow}. */
  static int execute(Compare.Options o) throws IOException, InterruptedException {
    List<String> contenders = o.configs != null ? trimmed(o.configs) : GrowthWorker.defaultContenders();
    try {
      for (String c : contenders) {
        GrowthWorker.create(c, 1_000, 1_000); // fail fast on a bad config
      }
    } catch (IllegalArgumentException e) {
      System.err.println("compare: " + e.getMessage());
      return 2;
    }
    if (o.only != null) {
      contenders.removeIf(c -> !o.only.matcher(c).find());
    }
    List<GrowthMeasurement> results = run(o, contenders, System.err);
    CompareReport.printGrowth(results, System.out);
    CompareReport.writeGrowth(results, o.out);
    System.out.println("\nwrote " + o.out.resolve("growth.csv") + ", growth.md, growth-lookup-ns.{png,svg}, growth-fpp.{png,svg},"
        + " growth-bits-per-item.{png,svg}");
    return 0;
  }

  private static List<String> trimmed(List<String> configs) {
    List<String> out = new ArrayList<>();
    configs.forEach(c -> out.add(c.trim()));
    return out;
  }

  /** @return the median of the rounds, per contender in the order given */
  static List<GrowthMeasurement> run(Compare.Options o, List<String> contenders, PrintStream progress)
      throws IOException, InterruptedException {
    // On JDK 17, the release we build for, console() is null exactly when output is not a
    // terminal, and then progress goes out line by line instead of being redrawn.
    @SuppressWarnings("SystemConsoleNull")
    boolean terminal = System.console() != null;
    Map<String, List<GrowthMeasurement>> rounds = new LinkedHashMap<>();
    contenders.forEach(c -> rounds.put(c, new ArrayList<>()));
    long start = System.nanoTime();
    int runs = o.rounds * contenders.size();
    int done = 0;
    for (int round = 0; round < o.rounds; round++) {
      for (String c : contenders) {
        String head = String.format("[%2d/%d] %-40s", ++done, runs, c + " round " + (round + 1));
        Compare.status(progress, terminal, head + " starting", start);
        GrowthMeasurement m = o.inProcess
            ? GrowthWorker.measure(c, o.from, o.to, o.queries)
            : GrowthMeasurement.fromLine(Compare.fork(GrowthWorker.class, Compare.heapMb(2L * o.to), "GROWTH\t",
                line -> Compare.status(progress, terminal, head + " " + line, start),
                c, Long.toString(o.from), Integer.toString(o.to)));
        rounds.get(c).add(m);
      }
    }
    if (terminal) {
      progress.println();
    }
    progress.printf("measured %d contenders from %,d to %,d keys, %d rounds, in %.0f s%n", contenders.size(), o.from,
        o.to, o.rounds, (System.nanoTime() - start) / 1e9);
    List<GrowthMeasurement> medians = new ArrayList<>();
    rounds.values().forEach(r -> medians.add(GrowthMeasurement.median(r)));
    return medians;
  }
}
