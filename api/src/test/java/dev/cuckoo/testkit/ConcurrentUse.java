package dev.cuckoo.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Writer and reader threads on one shared filter, for the variants' thread-safe configurations:
 * every check is against what the threads have published, every run is bounded by operation
 * counts (never by a clock), and every failure message carries the seed to rerun it with
 * ({@code -Dcuckoo.test.seed=N}).
 *
 * <p>Each writer owns distinct keys. In each round it adds them (some with {@code addIfAbsent}),
 * publishing after each add how many it has made; it then unpublishes the round and removes them
 * again, except in the last round, where it removes only every third. Readers pick a published
 * key and look it up: a miss is a false negative unless the writer had moved on to removing by
 * the time the lookup returned. At the end every key added and not removed must be found, also
 * in a copy written while writers ran and read back, and {@code size()} must equal their number
 * exactly.
 */
public final class ConcurrentUse {
  private final String config;
  private final int writers;
  private final int readers;
  private final int keysPerWriter;
  private final int rounds;
  private final long lookupsPerReader;

  /**
   * @param config a thread-safe filter's config string
   * @param writers writer threads
   * @param readers reader threads
   * @param keysPerWriter distinct keys each writer adds per round (below 2^20)
   * @param rounds rounds of adding and removing
   * @param lookupsPerReader lookups each reader makes
   */
  public ConcurrentUse(String config, int writers, int readers, int keysPerWriter, int rounds, long lookupsPerReader) {
    this.config = config;
    this.writers = writers;
    this.readers = readers;
    this.keysPerWriter = keysPerWriter;
    this.rounds = rounds;
    this.lookupsPerReader = lookupsPerReader;
  }

  /**
   * What a run did, for the soak test's report.
   *
   * @param operations the adds, removes and lookups made
   * @param stored the keys left in the filter
   * @param notAdded adds that returned false: refused, or an addIfAbsent of a false positive
   * @param millis the time the run took
   */
  public record Outcome(long operations, long stored, long notAdded, long millis) {}

  /**
   * Runs the writers and readers to the end and checks the filter.
   *
   * @return what the run did
   * @throws InterruptedException if interrupted while waiting for the threads
   */
  public Outcome run() throws InterruptedException {
    String where = "[" + config + ", " + writers + " writers, " + readers + " readers, " + TestSeed.rerun() + "]";
    long start = System.nanoTime();
    CuckooFilter filter = CuckooFilters.create(config);
    long[][] keys = new long[writers][keysPerWriter];
    SplittableRandom r = TestSeed.random("concurrent keys " + config);
    java.util.Set<Long> seen = new java.util.HashSet<>();
    for (long[] k : keys) {
      for (int i = 0; i < k.length; i++) {
        long key;
        do {
          key = r.nextLong();
        } while (!seen.add(key));
        k[i] = key;
      }
    }
    boolean[][] stored = new boolean[writers][keysPerWriter];
    boolean[][] kept = new boolean[writers][keysPerWriter];
    AtomicIntegerArray published = new AtomicIntegerArray(writers);
    ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    long[] operations = new long[writers + readers];
    long[] refused = new long[writers];
    List<byte[]> snapshots = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int id = w;
      threads.add(new Thread(() -> {
        SplittableRandom wr = TestSeed.random("concurrent writer " + id + " " + config);
        long ops = 0;
        for (int round = 1; round <= rounds; round++) {
          for (int i = 0; i < keysPerWriter; i++) {
            boolean ok = wr.nextInt(8) == 0 ? filter.addIfAbsent(keys[id][i]) : filter.add(keys[id][i]);
            stored[id][i] = ok;
            refused[id] += ok ? 0 : 1;
            published.set(id, round << 20 | (i + 1));
            ops++;
          }
          published.set(id, round << 20);
          boolean last = round == rounds;
          if (last && id == 0) {
            snapshots.add(Filters.write(filter));
          }
          for (int i = 0; i < keysPerWriter; i++) {
            boolean remove = stored[id][i] && (!last || i % 3 == 0);
            if (remove && !filter.remove(keys[id][i])) {
              errors.add(where + " writer " + id + " round " + round + ": remove of stored key " + keys[id][i] + " failed");
            }
            kept[id][i] = stored[id][i] && !remove;
            ops++;
          }
        }
        operations[id] = ops;
      }, "writer-" + w));
    }
    for (int t = 0; t < readers; t++) {
      int id = writers + t;
      threads.add(new Thread(() -> {
        SplittableRandom rr = TestSeed.random("concurrent reader " + id + " " + config);
        for (long n = 0; n < lookupsPerReader; n++) {
          int w = rr.nextInt(writers);
          int before = published.get(w);
          int upTo = before & 0xF_FFFF;
          if (upTo == 0) {
            continue;
          }
          int i = rr.nextInt(upTo);
          if (!stored[w][i]) {
            continue;
          }
          long key = keys[w][i];
          boolean found = n % 16 == 0 ? filter.count(key) > 0 : filter.mightContain(key);
          if (!found) {
            int after = published.get(w);
            if (after >>> 20 == before >>> 20 && (after & 0xF_FFFF) > i) {
              errors.add(where + " reader " + id + ": false negative for key " + key + " of writer " + w
                  + ", published " + (before >>> 20) + "/" + upTo + " before the lookup and still after it");
            }
          }
        }
        operations[id] = lookupsPerReader;
      }, "reader-" + t));
    }
    runAll(threads, errors, where);
    long expected = 0;
    long totalRefused = 0;
    for (int w = 0; w < writers; w++) {
      totalRefused += refused[w];
      for (int i = 0; i < keysPerWriter; i++) {
        if (kept[w][i]) {
          expected++;
          assertTrue(filter.mightContain(keys[w][i]), where + ": key " + keys[w][i] + " of writer " + w + " lost");
        }
      }
    }
    assertEquals(expected, filter.size(), where + ": size differs from the keys added and not removed");
    CuckooFilter copy = read(snapshots.get(0));
    assertEquals(filter.spec(), copy.spec(), where + ": spec of the copy written while writers ran");
    for (int w = 0; w < writers; w++) {
      for (int i = 0; i < keysPerWriter; i++) {
        // Writer 0 wrote the copy after its last round's adds: all of its stored keys are in it.
        if (w == 0 && stored[0][i]) {
          assertTrue(copy.mightContain(keys[0][i]), where + ": key " + keys[0][i] + " missing from the copy");
        }
      }
    }
    long ops = 0;
    for (long o : operations) {
      ops += o;
    }
    return new Outcome(ops, expected, totalRefused, (System.nanoTime() - start) / 1_000_000);
  }

  /**
   * Writers add distinct keys until each has run out of keys, with {@code overfill} times the
   * filter's capacity among them, so that adds are refused under contention; readers look up
   * published keys meanwhile. Then every accepted key must be found and {@code size()} must be
   * their number.
   *
   * @param config a thread-safe filter's config string, of a filter that refuses adds when full
   * @param writers writer threads
   * @param readers reader threads
   * @param overfill keys offered, as a multiple of the capacity (above 1)
   * @return how many adds were refused
   * @throws InterruptedException if interrupted while waiting for the threads
   */
  public static long fillPastCapacity(String config, int writers, int readers, double overfill)
      throws InterruptedException {
    CuckooFilter filter = CuckooFilters.create(config);
    int perWriter = (int) (filter.spec().capacity().getAsLong() * overfill / writers);
    String where = "[" + config + ", " + writers + " writers filling past capacity, " + TestSeed.rerun() + "]";
    long[][] keys = new long[writers][perWriter];
    SplittableRandom r = TestSeed.random("overfill keys " + config);
    for (long[] k : keys) {
      for (int i = 0; i < k.length; i++) {
        k[i] = r.nextLong();
      }
    }
    boolean[][] accepted = new boolean[writers][perWriter];
    AtomicIntegerArray published = new AtomicIntegerArray(writers);
    ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int id = w;
      threads.add(new Thread(() -> {
        for (int i = 0; i < perWriter; i++) {
          accepted[id][i] = filter.add(keys[id][i]);
          published.set(id, i + 1);
        }
      }, "writer-" + w));
    }
    for (int t = 0; t < readers; t++) {
      int id = t;
      threads.add(new Thread(() -> {
        SplittableRandom rr = TestSeed.random("overfill reader " + id + " " + config);
        for (int n = 0; n < 4 * perWriter; n++) {
          int w = rr.nextInt(writers);
          int upTo = published.get(w);
          if (upTo > 0) {
            int i = rr.nextInt(upTo);
            if (accepted[w][i] && !filter.mightContain(keys[w][i])) {
              errors.add(where + ": reader " + id + " missed accepted key " + keys[w][i] + " of writer " + w);
            }
          }
        }
      }, "reader-" + t));
    }
    runAll(threads, errors, where);
    long count = 0;
    long refusals = 0;
    for (int w = 0; w < writers; w++) {
      for (int i = 0; i < perWriter; i++) {
        if (accepted[w][i]) {
          count++;
          assertTrue(filter.mightContain(keys[w][i]), where + ": accepted key " + keys[w][i] + " lost");
        } else {
          refusals++;
        }
      }
    }
    assertTrue(refusals > 0, where + ": no add was refused; the test did not reach contention at capacity");
    assertEquals(count, filter.size(), where + ": size differs from the accepted keys");
    return refusals;
  }

  /**
   * Readers look up resident keys, which stay stored throughout, while writers keep a small,
   * nearly full filter relocating: each adds a churn key and removes it again, and at this load
   * most adds move resident fingerprints to their other bucket first. Every lookup of a resident
   * must be {@code true}: a {@code false} means a lookup read a bucket pair while a move had
   * taken a resident's fingerprint out of one bucket and not yet shown it in the other, and
   * trusted what it read. Bounded by the writers' operations: readers stop when writers do.
   *
   * @param config a thread-safe filter's config string, of a filter of a few thousand slots
   * @param writers writer threads
   * @param readers reader threads
   * @param churnPerWriter adds (each followed by its remove, if stored) per writer
   * @return the lookups the readers made
   * @throws InterruptedException if interrupted while waiting for the threads
   */
  public static long movesHideNoResident(String config, int writers, int readers, int churnPerWriter)
      throws InterruptedException {
    CuckooFilter filter = CuckooFilters.create(config);
    String where = "[" + config + ", " + writers + " writers relocating, " + TestSeed.rerun() + "]";
    SplittableRandom r = TestSeed.random("resident keys " + config);
    long target = filter.spec().capacity().getAsLong() * 93 / 100;
    List<Long> stored = new ArrayList<>();
    while (stored.size() < target) {
      long key = r.nextLong();
      if (filter.add(key)) {
        stored.add(key);
      }
    }
    long[] residents = stored.stream().mapToLong(Long::longValue).toArray();
    AtomicIntegerArray running = new AtomicIntegerArray(1);
    running.set(0, writers);
    long[] lookups = new long[readers];
    ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      SplittableRandom wr = TestSeed.random("churn writer " + w + " " + config);
      threads.add(new Thread(() -> {
        try {
          for (int i = 0; i < churnPerWriter; i++) {
            long key = wr.nextLong();
            if (filter.add(key)) {
              filter.remove(key);
            }
          }
        } finally {
          running.decrementAndGet(0);
        }
      }, "writer-" + w));
    }
    for (int t = 0; t < readers; t++) {
      int id = t;
      threads.add(new Thread(() -> {
        SplittableRandom rr = TestSeed.random("resident reader " + id + " " + config);
        long n = 0;
        while (running.get(0) > 0) {
          long key = residents[rr.nextInt(residents.length)];
          n++;
          if (!filter.mightContain(key)) {
            errors.add(where + ": reader " + id + " missed resident key " + key + " at lookup " + n);
          }
        }
        lookups[id] = n;
      }, "reader-" + t));
    }
    runAll(threads, errors, where);
    for (long key : residents) {
      assertTrue(filter.mightContain(key), where + ": resident key " + key + " lost");
    }
    assertEquals(residents.length, filter.size(), where + ": size differs from the residents");
    return java.util.Arrays.stream(lookups).sum();
  }

  /** Starts the threads, waits for them all, and fails with the first errors they reported. */
  private static void runAll(List<Thread> threads, ConcurrentLinkedQueue<String> errors, String where)
      throws InterruptedException {
    for (Thread t : threads) {
      t.setUncaughtExceptionHandler((th, e) -> errors.add(where + " " + th.getName() + " threw " + e));
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertTrue(errors.isEmpty(), errors.size() + " errors, the first: " + errors.stream().limit(3).toList());
  }

  private static CuckooFilter read(byte[] file) {
    try {
      return CuckooFilters.read(new ByteArrayInputStream(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
