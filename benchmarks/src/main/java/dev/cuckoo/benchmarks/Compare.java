package dev.cuckoo.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The quick cross-variant comparison: every installed variant's representative configs and every
 * peer library, each measured in a JVM of its own on the same random {@code long} keys, printed
 * as one table and written as CSV, Markdown and charts (PNG and SVG).
 *
 * <pre>{@code
 * ./compare                                   # the default quick run (about two minutes)
 * ./compare --size 10M --out results/10m      # the targets' size
 * ./compare --configs 'classic?fingerprintBits=12;semi-sorted' --peers off
 * ./compare --grow                            # growing filters from 4,096 to 16.7M keys
 * COMPARE_CLASSPATH=other.jar ./compare --grow --configs 'expandable;class:org.example.Other?fpp=0.001'
 * }</pre>
 *
 * <p>With {@code --grow} it measures filters that grow instead ({@link GrowthWorker}): each
 * contender is filled from a filter created for {@code --from} keys to {@code --to} keys, with
 * lookups, false positives and memory at every 4x, in rounds that alternate the contenders, one
 * JVM per contender and round; the report gives the median of the rounds.
 */
public final class Compare {
  static final String USAGE = String.join("\n",
      "usage: compare [options]",
      "  --size N          keys per filter, e.g. 500k, 4M, 10M (default " + Options.DEFAULT_SIZE_TEXT + ")",
      "  --rounds R        measured rounds per phase, after one warm-up (default 3)",
      "  --configs A;B     our configs to run, ';'-separated (default: every installed variant's representative configs)",
      "  --peers on|off    include FastFilter, CuckooFilter4J and Guava (default on)",
      "  --only REGEX      run only contenders whose name matches",
      "  --out DIR         where to write results.csv, results.md and charts (default compare-out)",
      "  --grow            measure growing filters instead: from --from keys to --to keys, lookups, FPP and",
      "                    memory at every 4x (contenders: --configs, a config after 'presized:' is created",
      "                    for --to keys; default " + String.join(";", GrowthWorker.defaultContenders()) + ")",
      "                    A contender class:NAME?key=value&... is a filter from outside this project: a",
      "                    public class NAME implementing dev.cuckoo.benchmarks.GrowingContender, with a",
      "                    constructor (Map<String,String> options, long capacity), on the class path",
      "                    (./compare appends $COMPARE_CLASSPATH to it)",
      "  --from N          with --grow: the capacity growing filters start with (default 4096)",
      "  --queries N       with --grow: keys never added looked up at each checkpoint for the FPP, and stored",
      "                    ones for the lookup times (default " + GrowthWorker.QUERIES + "; 10M for a 0.01% FPP to",
      "                    within 3%)",
      "  --to N            with --grow: the keys added in all (default 16.7M, i.e. 16777216; at most",
      "                    2147483639, one array of keys, which the worker's heap holds as 8 bytes a key)",
      "  --in-process      measure in this JVM instead of one JVM per contender (for tests)",
      "  --help            this text");

  private Compare() {}

  /** Parsed command line. */
  static final class Options {
    static final int DEFAULT_SIZE = 2_000_000;
    static final String DEFAULT_SIZE_TEXT = "2M";
    int size = DEFAULT_SIZE;
    int rounds = 3;
    List<String> configs;
    boolean peers = true;
    Pattern only;
    Path out = Paths.get("compare-out");
    boolean inProcess;
    long warmUpNanos = CompareWorker.WARM_UP_NANOS;
    boolean grow;
    long from = 4096;
    int to = 1 << 24;
    int queries = GrowthWorker.QUERIES;

    static Options parse(String... args) {
      Options o = new Options();
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (a.equals("--help") || a.equals("-h")) {
          throw new UsageException(null);
        }
        if (a.equals("--in-process")) {
          o.inProcess = true;
          continue;
        }
        if (a.equals("--grow")) {
          o.grow = true;
          continue;
        }
        if (i + 1 >= args.length) {
          throw new UsageException("option " + a + " needs a value");
        }
        String v = args[++i];
        switch (a) {
          case "--size" -> o.size = parseSize(v);
          case "--rounds" -> o.rounds = parsePositive("--rounds", v);
          case "--configs" -> o.configs = Arrays.asList(v.split(";"));
          case "--peers" -> {
            if (!v.equals("on") && !v.equals("off")) {
              throw new UsageException("--peers takes on or off, not " + v);
            }
            o.peers = v.equals("on");
          }
          case "--only" -> o.only = Pattern.compile(v);
          case "--out" -> o.out = Paths.get(v);
          case "--from" -> o.from = parseCount("--from", v);
          case "--to" -> o.to = parseGrowTo(v);
          case "--queries" -> o.queries = Math.toIntExact(Math.min(100_000_000, parseCount("--queries", v)));
          default -> throw new UsageException("unknown option " + a);
        }
      }
      if (o.from > o.to) {
        throw new UsageException("--from " + o.from + " is above --to " + o.to);
      }
      return o;
    }

    /** @return a count such as 4096 or 4k, 1..500M */
    static long parseCount(String option, String v) {
      return parseCount(option, v, 500_000_000, "500M");
    }

    /** @return a count such as 4096 or 4k, 1..{@code max} */
    static long parseCount(String option, String v, long max, String maxText) {
      String t = v.trim().toLowerCase(Locale.ROOT).replace("_", "");
      long mult = t.endsWith("k") ? 1_000 : t.endsWith("m") ? 1_000_000 : 1;
      try {
        long n = Math.round(Double.parseDouble(mult == 1 ? t : t.substring(0, t.length() - 1)) * mult);
        if (n >= 1 && n <= max) {
          return n;
        }
      } catch (NumberFormatException ignored) {
        // reported below
      }
      throw new UsageException(option + " takes a number of keys such as 4096 or 4k, 1.." + maxText + ", not " + v);
    }

    static int parseSize(String v) {
      String t = v.trim().toLowerCase(Locale.ROOT).replace("_", "");
      long mult = 1;
      if (t.endsWith("k")) {
        mult = 1_000;
        t = t.substring(0, t.length() - 1);
      } else if (t.endsWith("m")) {
        mult = 1_000_000;
        t = t.substring(0, t.length() - 1);
      }
      long n;
      try {
        n = Math.round(Double.parseDouble(t) * mult);
      } catch (NumberFormatException e) {
        throw new UsageException("--size takes a number of keys such as 500k or 10M, not " + v);
      }
      if (n < 1_000 || n > 500_000_000) {
        throw new UsageException("--size " + v + " is out of range: 1k..500M");
      }
      return (int) n;
    }

    /** @return the keys a growth run adds: up to what one array of keys holds */
    static int parseGrowTo(String v) {
      long n = parseCount("--to", v, Integer.MAX_VALUE - 8, (Integer.MAX_VALUE - 8) + " (the keys added are one array)");
      if (n < 1_000) {
        throw new UsageException("--to " + v + " is out of range: at least 1k");
      }
      return (int) n;
    }

    static int parsePositive(String option, String v) {
      try {
        int r = Integer.parseInt(v);
        if (r >= 1 && r <= 100) {
          return r;
        }
      } catch (NumberFormatException ignored) {
        // reported below
      }
      throw new UsageException(option + " takes a whole number 1..100, not " + v);
    }
  }

  /** A command-line mistake: printed with the usage, exit code 2. */
  static final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  /**
   * @param args see {@link #USAGE}
   */
  public static void main(String[] args) throws IOException, InterruptedException {
    int status = execute(args);
    if (status != 0) {
      System.exit(status);
    }
  }

  /**
   * Runs the comparison as {@link #main} does, without ending the JVM: for a command that hosts
   * it (the {@code cuckoo compare} of module {@code cli}). It prints to {@code System.out} and
   * {@code System.err}, and forks one worker JVM per contender on {@code java.class.path}, which
   * must therefore hold this module and every variant.
   *
   * @param args see {@link #USAGE}
   * @return the exit status: 0 when done (or for {@code --help}), 2 for a mistake in the
   *     arguments or a config, reported on {@code System.err} with the usage
   * @throws IOException if a worker fails or the results cannot be written
   * @throws InterruptedException if interrupted while waiting for a worker
   */
  public static int execute(String... args) throws IOException, InterruptedException {
    System.setProperty("java.awt.headless", "true");
    Options o;
    try {
      o = Options.parse(args);
    } catch (UsageException e) {
      if (e.getMessage() != null) {
        System.err.println("compare: " + e.getMessage());
      }
      System.err.println(USAGE);
      return e.getMessage() == null ? 0 : 2;
    }
    if (o.grow) {
      return GrowthCompare.execute(o);
    }
    List<Contender> contenders;
    try {
      contenders = contenders(o);
    } catch (IllegalArgumentException e) {
      System.err.println("compare: " + e.getMessage());
      return 2;
    }
    if (contenders.isEmpty()) {
      System.err.println("compare: no contender to run (installed variants: "
          + dev.cuckoo.CuckooFilters.variants() + ")");
      return 2;
    }
    List<Measurement> results = run(o, contenders, System.err);
    CompareReport.print(results, o.size, System.out);
    CompareReport.write(results, o.size, o.out);
    System.out.println("\nwrote " + o.out.resolve("results.csv") + ", results.md, ns-per-op.{png,svg}, fpp-vs-bits.{png,svg}");
    return 0;
  }

  static List<Contender> contenders(Options o) {
    List<Contender> all = new ArrayList<>();
    if (o.configs != null) {
      for (String config : o.configs) {
        all.add(Contenders.ours(config.trim()));
      }
    } else {
      all.addAll(Contenders.installed());
    }
    if (o.peers) {
      all.addAll(Contenders.peers());
    }
    if (o.only != null) {
      all.removeIf(c -> !o.only.matcher(c.name()).find());
    }
    return all;
  }

  static List<Measurement> run(Options o, List<Contender> contenders, PrintStream progress)
      throws IOException, InterruptedException {
    // On JDK 17, the release we build for, console() is null exactly when output is not a
    // terminal, and then progress goes out line by line instead of being redrawn.
    @SuppressWarnings("SystemConsoleNull")
    boolean terminal = System.console() != null;
    List<Measurement> results = new ArrayList<>();
    long start = System.nanoTime();
    for (int i = 0; i < contenders.size(); i++) {
      Contender c = contenders.get(i);
      String head = String.format("[%2d/%d] %-34s", i + 1, contenders.size(), c.name());
      status(progress, terminal, head + " starting", start);
      if (o.inProcess) {
        results.add(CompareWorker.measure(c, o.size, o.rounds, o.warmUpNanos));
      } else {
        results.add(forked(c, o, line -> status(progress, terminal, head + " " + line, start)));
      }
    }
    if (terminal) {
      progress.println();
    }
    progress.printf("measured %d contenders at %,d keys in %.0f s%n", contenders.size(), o.size,
        (System.nanoTime() - start) / 1e9);
    return results;
  }

  static void status(PrintStream out, boolean terminal, String text, long start) {
    String line = String.format("%s  [%3.0f s]", text, (System.nanoTime() - start) / 1e9);
    if (terminal) {
      out.print("\r" + String.format("%-100s", line));
    } else {
      out.println(line);
    }
    out.flush();
  }

  private static Measurement forked(Contender c, Options o, java.util.function.Consumer<String> onProgress)
      throws IOException, InterruptedException {
    return Measurement.fromLine(fork(CompareWorker.class, heapMb(o.size), "MEASUREMENT\t", onProgress,
        c.name(), Integer.toString(o.size), Integer.toString(o.rounds)));
  }

  /** @return the heap a worker gets for this many keys, in MiB */
  static long heapMb(long keys) {
    return Math.max(1024, Math.min(20_000, 64L * keys / (1 << 20) + 512));
  }

  /**
   * Runs a worker class's {@code main} in a JVM of its own, on this JVM's class path, passing
   * its {@code PROGRESS} lines on and returning the line that starts with {@code prefix}.
   *
   * @throws IOException if the worker fails or prints no such line
   */
  static String fork(Class<?> worker, long heapMb, String prefix, java.util.function.Consumer<String> onProgress,
      String... args) throws IOException, InterruptedException {
    List<String> lines = fork(worker, List.of("-Xms" + Math.min(heapMb, 2048) + "m", "-Xmx" + heapMb + "m",
        "-XX:+UseParallelGC"), prefix, onProgress, args);
    return lines.get(lines.size() - 1);
  }

  /**
   * Runs a worker class's {@code main} in a JVM of its own with these JVM options, on this JVM's
   * class path, passing its {@code PROGRESS} lines on and returning, in order, the lines that
   * start with {@code prefix}.
   *
   * @throws IOException if the worker fails or prints no such line
   */
  static List<String> fork(Class<?> worker, List<String> jvmOptions, String prefix,
      java.util.function.Consumer<String> onProgress, String... args) throws IOException, InterruptedException {
    String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>(List.of(java));
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), worker.getName()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    List<String> results = new ArrayList<>();
    List<String> other = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("PROGRESS\t")) {
          onProgress.accept(line.substring(9));
        } else if (line.startsWith(prefix)) {
          results.add(line);
        } else {
          other.add(line);
        }
      }
    }
    int code = p.waitFor();
    if (code != 0 || results.isEmpty()) {
      throw new IOException("measuring " + String.join(" ", args) + " failed (exit " + code + "): " + String.join("\n", other));
    }
    return results;
  }
}
