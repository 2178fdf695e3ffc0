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
 *
 * <p>A contender is one of our configs ({@code expandable?targetFpp=0.001}), such a config after
 * {@value GrowthWorker#PRESIZED} (created for {@code --to} keys, for reference), or a filter from
 * outside this project, {@code class:NAME?key=value&...}: a public class {@code NAME} on the class
 * path that implements {@link GrowingContender} and has a public constructor {@code (Map<String,
 * String> options, long capacity)}, given the pairs after {@code ?}. It is measured, tabled,
 * written to the CSV and charted as ours are, under the name written. A class that is missing,
 * is not a {@code GrowingContender} or refuses its options stops the run before any measurement,
 * with a message naming the contender (exit status 2). {@code ./compare} appends the environment
 * variable {@code COMPARE_CLASSPATH} (jars or folders, separated as the platform's class path is)
 * to the class path, which every worker JVM inherits:
 *
 * <pre>{@code
 * COMPARE_CLASSPATH=/tmp/other/other.jar:/tmp/other/adapter ./compare --grow --to 4M \
 *     --configs 'expandable?targetFpp=0.001;class:org.example.OtherFilter?fpp=0.001'
 * }</pre>
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
                c, Long.toString(o.from), Integer.toString(o.to), Integer.toString(o.queries)));
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
