import java.util.SplittableRandom;

/**
 * A measurement, not the product: what one random read of memory costs when the next read
 * depends on it, over an array of the given size (one long per 64-byte line, visited in one
 * random cycle, so neither the prefetcher nor overlapping misses help). A filter lookup in a
 * table far larger than the cache, made one row at a time and answered before the next row
 * starts (Spark's {@code df.filter}), costs about this much at least: its two bucket reads
 * overlap each other, not the next row's.
 *
 * <pre>{@code
 * java -Xmx2g docs/measure/DependentLoadLatency.java 256     # MB; add -XX:+UseTransparentHugePages to compare
 * }</pre>
 */
public final class DependentLoadLatency {
  private DependentLoadLatency() {}

  public static void main(String[] args) {
    int megabytes = Integer.parseInt(args[0]);
    long[] next = new long[megabytes * (1 << 20) / Long.BYTES];
    int lines = next.length / 8;
    int[] order = new int[lines];
    for (int i = 0; i < lines; i++) {
      order[i] = i;
    }
    SplittableRandom random = new SplittableRandom(7);
    for (int i = lines - 1; i > 0; i--) { // Sattolo: one cycle through every line
      int j = random.nextInt(i);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    for (int i = 0; i < lines; i++) {
      next[order[i] * 8] = order[(i + 1) % lines] * 8L;
    }
    int steps = 20_000_000;
    for (int round = 0; round < 3; round++) {
      long at = 0;
      long t0 = System.nanoTime();
      for (int i = 0; i < steps; i++) {
        at = next[(int) at];
      }
      System.out.printf("%d MB: %.1f ns a dependent read (ended at %d)%n", megabytes,
          (System.nanoTime() - t0) / (double) steps, at);
    }
  }
}
