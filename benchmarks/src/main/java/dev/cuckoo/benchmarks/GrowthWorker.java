package dev.cuckoo.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Measures one growth contender in a JVM of its own ({@code compare --grow} starts one per
 * contender and round): fills it with distinct random {@code long} keys from a filter created
 * for {@code from} keys to {@code to} keys, and at every 4x checkpoint looks up stored keys and
 * keys never added; memory is sampled 8 times per doubling of the keys.
 *
 * <p>A contender is one of our configs without a capacity, created for {@code from} keys, or
 * such a config after {@value #PRESIZED}, created for {@code to} keys: a filter that does not
 * grow, for reference. A config {@code class:NAME?key=value&...} names a class on the class path
 * instead, a {@link GrowingContender} from outside this project, created and measured the same
 * way; its bits per item are those it reports. Lookups at a checkpoint: one untimed pass of each
 * kind, then three timed passes of {@code queries} keys each; the median counts. Stored keys are
 * picked at random from those added so far; keys never added are the same at every checkpoint.
 */
public final class GrowthWorker {
  /** Adds timed together: the longest such block bounds the longest single add from above. */
  static final int BLOCK = 64;
  /** Lookups of each kind per timed pass. */
  static final int QUERIES = 1_000_000;
  /** Marks a contender created for all the keys at once. */
  static final String PRESIZED = "presized:";

  /** Takes every answer, so the JIT cannot drop the loops that make them; never read. */
  @SuppressWarnings("UnusedVariable")
  private static volatile long sink;
  private static boolean reportProgress;

  private GrowthWorker() {}

  /**
   * @param args contender, from, to, and the queries of each kind per pass (default {@value #QUERIES})
   */
  public static void main(String[] args) {
    reportProgress = true;
    int queries = args.length > 3 ? Integer.parseInt(args[3]) : QUERIES;
    System.out.println(measure(args[0], Long.parseLong(args[1]), Long.parseLong(args[2]), queries).toLine());
  }

  /**
   * @param contender a config without capacity, or {@code class:NAME?options}, possibly after
   *     {@value #PRESIZED}
   * @param from the keys a growing filter is created for
   * @param to the keys added in all
   * @return a new, empty filter
   * @throws IllegalArgumentException naming the contender, for a bad config or class
   */
  static FilterAdapter create(String contender, long from, long to) {
    boolean presized = contender.startsWith(PRESIZED);
    String config = presized ? contender.substring(PRESIZED.length()) : contender;
    long keys = presized ? to : from;
    return ExternalContender.names(config) ? ExternalContender.create(contender, config, keys)
        : new CuckooAdapter(config, keys);
  }

  /** @return {@code from}, {@code 4·from}, ... while at most {@code to}, and {@code to} */
  static long[] checkpoints(long from, long to) {
    TreeSet<Long> points = new TreeSet<>();
    for (long n = from; n <= to; n *= 4) {
      points.add(n);
    }
    points.add(to);
    return points.stream().mapToLong(Long::longValue).toArray();
  }

  /** @return {@code round(from · 2^(j/8))} for j = 0, 1, ... while at most {@code to} */
  static long[] samplePoints(long from, long to) {
    TreeSet<Long> points = new TreeSet<>();
    for (int j = 0; ; j++) {
      long n = Math.round(from * Math.pow(2, j / 8.0));
      if (n > to) {
        break;
      }
      points.add(n);
    }
    return points.stream().mapToLong(Long::longValue).toArray();
  }

  /**
   * Fills one filter and measures it.
   *
   * @param contender see {@link #create}
   * @param from the keys a growing filter is created for, at least 1
   * @param to the keys added in all, {@code from..2^31-9}
   * @param queries lookups of each kind per pass
   * @return the measurement
   */
  static GrowthMeasurement measure(String contender, long from, long to, int queries) {
    return measure(contender, () -> create(contender, from, to), from, to, queries);
  }

  /**
   * Fills one filter of any kind and measures it: for filters behind an adapter of their own
   * (a library measured side by side, say).
   *
   * @param name what the measurement calls it
   * @param factory makes the empty filter, created for {@code from} keys if it grows
   * @param from the keys a growing filter is created for, at least 1
   * @param to the keys added in all, {@code from..2^31-9}
   * @param queries lookups of each kind per pass
   * @return the measurement
   */
  public static GrowthMeasurement measure(String name, java.util.function.Supplier<FilterAdapter> factory, long from,
      long to, int queries) {
    long[] keys = Keys.distinct(Math.toIntExact(to), 1);
    long[] absent = Keys.distinct(queries, 2);
    long[] stored = new long[queries];
    SplittableRandom random = new SplittableRandom(7);
    long[] checkpoints = checkpoints(from, to);
    long[] samples = samplePoints(from, to);
    List<GrowthMeasurement.Checkpoint> measured = new ArrayList<>();
    List<GrowthMeasurement.Sample> memory = new ArrayList<>();
    FilterAdapter f = factory.get();
    long insertNanos = 0;
    long insertNanosThen = 0;
    long addedThen = 0;
    long longestBlock = 0;
    int added = 0;
    int c = 0;
    int s = 0;
    while (c < checkpoints.length) {
      long next = Math.min(checkpoints[c], s < samples.length ? samples[s] : Long.MAX_VALUE);
      while (added < next) {
        int end = (int) Math.min(next, added + BLOCK);
        long t0 = System.nanoTime();
        for (int i = added; i < end; i++) {
          if (!f.add(keys[i])) {
            throw new IllegalStateException(name + " refused key number " + (i + 1));
          }
        }
        long t = System.nanoTime() - t0;
        insertNanos += t;
        longestBlock = Math.max(longestBlock, t);
        added = end;
      }
      double bits = (double) f.sizeInBits() / added;
      if (s < samples.length && samples[s] == added) {
        memory.add(new GrowthMeasurement.Sample(added, bits));
        s++;
      }
      if (checkpoints[c] == added) {
        progress("lookups at " + added + " keys");
        for (int i = 0; i < queries; i++) {
          stored[i] = keys[random.nextInt(added)];
        }
        measured.add(lookups(f, added, bits, stored, absent, (double) (insertNanos - insertNanosThen) / (added - addedThen)));
        insertNanosThen = insertNanos;
        addedThen = added;
        c++;
      }
    }
    long falseNegatives = 0;
    for (long k : keys) {
      falseNegatives += f.mightContain(k) ? 0 : 1;
    }
    return new GrowthMeasurement(name, from, to, measured, memory, (double) insertNanos / to,
        longestBlock / 1e6, falseNegatives);
  }

  @SuppressWarnings("NonAtomicVolatileUpdate") // the sink: one thread, never read
  private static GrowthMeasurement.Checkpoint lookups(FilterAdapter f, long keys, double bits, long[] stored,
      long[] absent, double insertNs) {
    double[] positive = new double[3];
    double[] negative = new double[3];
    long falsePositives = 0;
    for (int round = -1; round < 3; round++) {
      LookupPass found = LookupPass.over(f, stored);
      LookupPass fp = LookupPass.over(f, absent);
      if (found.found() != stored.length) {
        throw new IllegalStateException("a stored key was not found at " + keys + " keys");
      }
      sink += found.found() + fp.found();
      falsePositives = fp.found();
      if (round >= 0) {
        positive[round] = found.nanosPer(stored.length);
        negative[round] = fp.nanosPer(absent.length);
      }
    }
    return new GrowthMeasurement.Checkpoint(keys, bits, (double) falsePositives / absent.length,
        CompareWorker.median(positive), CompareWorker.median(negative), insertNs);
  }

  private static void progress(String line) {
    if (reportProgress) {
      System.out.println("PROGRESS\t" + line);
      System.out.flush();
    }
  }

  /**
   * @return the names used by default: ours growing at a flat 0.1% and in 16-bit lanes, the chain
   *     both ways, and classic presized at 0.1%
   */
  static List<String> defaultContenders() {
    return new ArrayList<>(Arrays.asList("expandable?targetFpp=0.001", "expandable?fingerprintBits=16",
        "scalable?bucketSize=2&expansion=2", "scalable?bucketSize=4&expansion=2", PRESIZED + "classic?targetFpp=0.001"));
  }
}
