package dev.cuckoo.benchmarks;

import java.util.Arrays;

/**
 * Measures one contender in a JVM of its own, so that no other contender's code shares its call
 * sites (a JIT compiles a call site seen with several classes into a slower dispatch, which
 * would tax whichever contender runs last). {@link Compare} starts one per contender and reads
 * the {@link Measurement} line it prints.
 *
 * <p>Timing: each phase runs for at least 1.5 s to warm up, then {@code rounds} times; the median
 * round counts.
 * Stored keys are looked up in the order they were added, which is random with respect to the
 * table.
 */
public final class CompareWorker {
  /** Takes every answer, so the JIT cannot drop the loops that make them; never read. */
  @SuppressWarnings("UnusedVariable")
  private static volatile long sink;
  private static boolean reportProgress;
  private static String lastProgress;
  /** Warm-up passes repeat for at least this long, so measured rounds run compiled code. */
  static final long WARM_UP_NANOS = 1_500_000_000L;

  private CompareWorker() {}

  /**
   * @param args contender name, number of keys, rounds
   */
  public static void main(String[] args) {
    Contender c = Contenders.named(args[0]);
    int n = Integer.parseInt(args[1]);
    int rounds = Integer.parseInt(args[2]);
    reportProgress = true;
    System.out.println(measure(c, n, rounds, WARM_UP_NANOS).toLine());
  }

  /**
   * @param c the contender
   * @param n keys to size for and add
   * @param rounds measured rounds per phase
   * @param warmUpNanos how long each phase warms up first (at least one pass)
   * @return the measurement
   */
  @SuppressWarnings("NonAtomicVolatileUpdate") // the sink: one thread, never read
  public static Measurement measure(Contender c, int n, int rounds, long warmUpNanos) {
    long[] present = Keys.distinct(n, 1);
    int queries = Math.max(1, Math.min(n, 2_000_000));
    long[] absent = Keys.distinct(queries, 2);
    double[] insert = new double[rounds];
    double[] positive = new double[rounds];
    double[] negative = new double[rounds];
    FilterAdapter f = null;
    boolean[] accepted = new boolean[n];
    int stored = 0;
    long warmUntil = System.nanoTime() + warmUpNanos;
    for (int round = -1; round < rounds; round++) {
      progress("insert", round, rounds);
      f = c.create(n);
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        accepted[i] = f.add(present[i]);
      }
      long t1 = System.nanoTime();
      if (round >= 0) {
        insert[round] = (double) (t1 - t0) / n;
      } else if (t1 < warmUntil) {
        round--; // keep warming up until the JIT has had its time
      }
    }
    for (boolean a : accepted) {
      stored += a ? 1 : 0;
    }
    long falsePositives = 0;
    warmUntil = System.nanoTime() + warmUpNanos;
    for (int round = -1; round < rounds; round++) {
      progress("lookups", round, rounds);
      LookupPass found = LookupPass.over(f, present);
      LookupPass fp = LookupPass.over(f, absent);
      falsePositives = fp.found();
      sink += found.found() + fp.found();
      if (round >= 0) {
        positive[round] = found.nanosPer(n);
        negative[round] = fp.nanosPer(queries);
      } else if (System.nanoTime() < warmUntil) {
        round--;
      }
    }
    long falseNegatives = 0;
    for (int i = 0; i < n; i++) {
      if (accepted[i] && !f.mightContain(present[i])) {
        falseNegatives++;
      }
    }
    progress("fill to first refusal", 0, 0);
    double bitsPerItem = 8.0 * f.sizeInBytes() / Math.max(1, stored);
    return new Measurement(c.name(), c.family(), n, stored, bitsPerItem, (double) falsePositives / queries,
        loadAtFirstRefusal(c, n), median(insert), median(positive), median(negative), falseNegatives);
  }

  /** Fills a fresh filter with distinct keys until it first refuses one, up to twice its size. */
  static double loadAtFirstRefusal(Contender c, int n) {
    FilterAdapter f = c.create(n);
    if (f.slots() == 0) {
      return Double.NaN;
    }
    long[] keys = Keys.distinct(2 * n, 3);
    for (int i = 0; i < keys.length; i++) {
      if (!f.add(keys[i])) {
        return (double) i / f.slots();
      }
    }
    return Double.NaN;
  }

  private static void progress(String phase, int round, int rounds) {
    String line = phase + (rounds == 0 ? "" : round < 0 ? " (warm-up)" : " (round " + (round + 1) + "/" + rounds + ")");
    // Warm-up repeats a pass until its time is up: small sizes would repeat the line thousands of times.
    if (reportProgress && !line.equals(lastProgress)) {
      lastProgress = line;
      System.out.println("PROGRESS\t" + line);
      System.out.flush();
    }
  }

  static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
