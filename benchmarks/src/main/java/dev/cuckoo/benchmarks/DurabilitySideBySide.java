package dev.cuckoo.benchmarks;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What crash safety costs a writer: fills a new mapped file with {@code keys} keys, forcing every
 * {@code forceEvery}, once per durability in each round, the durabilities alternating, and
 * prints per durability the median over rounds of the ns per add (forces aside), the ms per
 * force, and the largest the journal beside the file grew ({@code durability=machine}; sampled
 * every millisecond while a force runs), then the medians of the per-round ratios machine /
 * process:
 *
 * <pre>{@code
 * java -Xmx2g -cp benchmarks/target/benchmarks.jar dev.cuckoo.benchmarks.DurabilitySideBySide \
 *     'classic?fingerprintBits=16&capacity=10000000' 10000000 1000000 5 process,machine
 * }</pre>
 *
 * <p>It uses the public API only, so that the same class, compiled against an older build's
 * jar, measures that build's writer (whose only durability was {@code process}'s mark).
 */
public final class DurabilitySideBySide {
  private DurabilitySideBySide() {}

  /** One fill's figures. */
  private record Fill(double addNanos, double forceMillis, long journalBytes) {}

  /**
   * @param args config (without durability), keys, force every, rounds, durabilities
   * @throws IOException if a file cannot be written
   * @throws InterruptedException if interrupted
   */
  public static void main(String[] args) throws IOException, InterruptedException {
    String config = args[0];
    long keys = Long.parseLong(args[1]);
    long forceEvery = Long.parseLong(args[2]);
    int rounds = Integer.parseInt(args[3]);
    List<String> durabilities = List.of(args.length > 4 ? args[4].split(",") : new String[] {"process", "machine"});
    Path dir = Files.createTempDirectory("durability");
    Map<String, List<Fill>> fills = new LinkedHashMap<>();
    fill(config, "process", Math.min(keys, 1_000_000), forceEvery, dir); // warm-up
    for (int round = 0; round < rounds; round++) {
      for (int i = 0; i < durabilities.size(); i++) {
        String durability = durabilities.get((i + round) % durabilities.size());
        Fill f = fill(config, durability, keys, forceEvery, dir);
        fills.computeIfAbsent(durability, d -> new ArrayList<>()).add(f);
        System.out.printf(Locale.ROOT, "round %d %-8s add %.1f ns/key, force %.1f ms, journal %d bytes%n", round,
            durability, f.addNanos(), f.forceMillis(), f.journalBytes());
      }
    }
    for (Map.Entry<String, List<Fill>> e : fills.entrySet()) {
      List<Fill> f = e.getValue();
      System.out.printf(Locale.ROOT, "%-8s median add %.1f ns/key, force %.1f ms, journal at most %d bytes%n", e.getKey(),
          median(f.stream().map(Fill::addNanos).toList()), median(f.stream().map(Fill::forceMillis).toList()),
          f.stream().mapToLong(Fill::journalBytes).max().orElse(0));
    }
    if (fills.containsKey("process") && fills.containsKey("machine")) {
      List<Double> adds = new ArrayList<>();
      List<Double> forces = new ArrayList<>();
      for (int r = 0; r < rounds; r++) {
        adds.add(fills.get("machine").get(r).addNanos() / fills.get("process").get(r).addNanos());
        forces.add(fills.get("machine").get(r).forceMillis() / fills.get("process").get(r).forceMillis());
      }
      System.out.printf(Locale.ROOT, "machine / process: adds %.2f, forces %.2f (medians of %d rounds)%n",
          median(adds), median(forces), rounds);
    }
  }

  private static Fill fill(String config, String durability, long keys, long forceEvery, Path dir)
      throws IOException, InterruptedException {
    Path file = dir.resolve("fill.cuckoo");
    Path journal = dir.resolve("fill.cuckoo.journal");
    Files.deleteIfExists(file);
    Files.deleteIfExists(journal);
    String spec = durability.equals("process") ? config : config + "&durability=" + durability;
    AtomicLong journalMax = new AtomicLong();
    long adding = 0;
    long forcing = 0;
    int forces = 0;
    try (MappedFilter filter = CuckooFilters.createFile(spec, file)) {
      long key = 0x9E3779B97F4A7C15L;
      for (long done = 0; done < keys; ) {
        long batch = Math.min(forceEvery, keys - done);
        long t0 = System.nanoTime();
        for (long i = 0; i < batch; i++) {
          key += 0x9E3779B97F4A7C15L;
          filter.add(key);
        }
        long t1 = System.nanoTime();
        Thread sampler = sampler(journal, journalMax);
        filter.force();
        long t2 = System.nanoTime();
        sampler.interrupt();
        sampler.join();
        adding += t1 - t0;
        forcing += t2 - t1;
        forces++;
        done += batch;
      }
    }
    Files.deleteIfExists(file);
    Files.deleteIfExists(journal);
    return new Fill((double) adding / keys, forcing / 1e6 / forces, journalMax.get());
  }

  /** Samples the journal's size every millisecond until interrupted. */
  private static Thread sampler(Path journal, AtomicLong max) {
    Thread t = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        try {
          if (Files.exists(journal)) {
            max.accumulateAndGet(Files.size(journal), Math::max);
          }
          Thread.sleep(1);
        } catch (IOException ignored) {
          // removed between the two calls
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
