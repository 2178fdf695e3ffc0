package dev.cuckoo.benchmarks;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A heap filter and the same filter mapped from its file, in one JVM, timed in alternating
 * passes of a tenth of the keys each: positive and negative lookups one at a time, {@code
 * mightContainAll} in blocks of {@value MappedBenchmark#BLOCK}, and adds into a heap filter and
 * a {@code createFile} one filled side by side. It prints, per operation, the median ns per key
 * of each and the median of the per-pass ratios mapped / heap. On a machine whose load drifts,
 * a ratio taken over two passes a few milliseconds apart varies far less than one between JMH
 * runs a minute apart ({@link MappedBenchmark}):
 *
 * <pre>{@code
 * java -Xms2g -Xmx4g -XX:+UseParallelGC -cp benchmarks/target/benchmarks.jar \
 *     dev.cuckoo.benchmarks.MappedSideBySide 'classic?fingerprintBits=16' 10000000 23
 * }</pre>
 *
 * <p>The first three lookup passes and the first fill are warm-up and not counted.
 */
public final class MappedSideBySide {
  private static final int WARM_UP_PASSES = 3;

  private MappedSideBySide() {}

  /**
   * @param args the config without a capacity, the number of keys, the lookup passes
   * @throws IOException if the files cannot be written
   */
  public static void main(String[] args) throws IOException {
    run(args[0], Integer.parseInt(args[1]), Integer.parseInt(args[2]), System.out);
  }

  /**
   * Runs the passes and prints the medians.
   *
   * @param config the config without a capacity
   * @param size the keys, and the filters' capacity
   * @param passes the lookup passes, warm-up included
   * @param out where to print
   * @return the keys each filter found in all, present keys and blocks together: a check that the
   *     passes did their work
   * @throws IOException if the files cannot be written
   */
  static long run(String config, int size, int passes, PrintStream out) throws IOException {
    long[] present = Keys.distinct(size, 1);
    long[] absent = Keys.distinct(size, 2);
    long[] fresh = Keys.distinct(size, 3);
    CuckooFilter heap = CuckooFilters.create(config + "&capacity=" + size);
    for (long k : present) {
      heap.add(k);
    }
    Path dir = Files.createTempDirectory("mapped-side-by-side");
    Path file = dir.resolve("lookups.cuckoo");
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
      heap.writeTo(o);
    }
    Map<String, List<double[]>> times = new LinkedHashMap<>();
    long[] found = new long[2];
    int chunk = size / 10;
    try (MappedFilter mapped = CuckooFilters.open(file)) {
      CuckooFilter[] filters = {heap, mapped};
      boolean[] results = new boolean[MappedBenchmark.BLOCK];
      long[] block = new long[MappedBenchmark.BLOCK];
      for (int p = 0; p < passes; p++) {
        int from = (p % 10) * chunk;
        for (String op : new String[] {"positive", "negative", "all"}) {
          double[] t = new double[2];
          for (int which = 0; which < 2; which++) {
            CuckooFilter f = filters[which];
            long start = System.nanoTime();
            long n = 0;
            for (int i = from; i < from + chunk && !op.equals("all"); i++) {
              n += f.mightContain(op.equals("positive") ? present[i] : absent[i]) ? 1 : 0;
            }
            for (int i = from; i + block.length <= from + chunk && op.equals("all"); i += block.length) {
              System.arraycopy(present, i, block, 0, block.length);
              n += f.mightContainAll(block, results);
            }
            t[which] = (System.nanoTime() - start) / (double) chunk;
            found[which] += op.equals("negative") ? 0 : n;
          }
          if (p >= WARM_UP_PASSES) {
            times.computeIfAbsent(op, k -> new ArrayList<>()).add(t);
          }
        }
      }
    }
    for (int fill = 0; fill < 3; fill++) {
      Path adds = dir.resolve("adds" + fill);
      CuckooFilter onHeap = CuckooFilters.create(config + "&capacity=" + size);
      try (MappedFilter inFile = CuckooFilters.createFile(config + "&capacity=" + size, adds)) {
        CuckooFilter[] filters = {onHeap, inFile};
        for (int from = 0; from + chunk <= size * 9 / 10; from += chunk) {
          double[] t = new double[2];
          for (int which = 0; which < 2; which++) {
            long start = System.nanoTime();
            for (int i = from; i < from + chunk; i++) {
              filters[which].add(fresh[i]);
            }
            t[which] = (System.nanoTime() - start) / (double) chunk;
          }
          if (fill > 0) {
            times.computeIfAbsent("add", k -> new ArrayList<>()).add(t);
          }
        }
      }
      Files.delete(adds);
    }
    Files.delete(file);
    Files.delete(dir);
    for (Map.Entry<String, List<double[]>> e : times.entrySet()) {
      List<double[]> t = e.getValue();
      out.printf(Locale.ROOT, "%-9s heap %7.1f ns  mapped %7.1f ns  median ratio %.2f  (%d pairs)%n", e.getKey(),
          median(t, x -> x[0]), median(t, x -> x[1]), median(t, x -> x[1] / x[0]), t.size());
    }
    if (found[0] != found[1]) {
      throw new IllegalStateException("the heap filter found " + found[0] + " keys, the mapped one " + found[1]);
    }
    return found[1];
  }

  private static double median(List<double[]> pairs, java.util.function.ToDoubleFunction<double[]> of) {
    List<Double> values = new ArrayList<>();
    for (double[] p : pairs) {
      values.add(of.applyAsDouble(p));
    }
    Collections.sort(values);
    return values.get(values.size() / 2);
  }
}
