package dev.cuckoo.benchmarks;

import dev.cuckoo.logstore.LogStore;
import java.io.IOException;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The log store's figures that are counts, not times, and its reopen rate: records read per get
 * of present and absent keys, the index's bytes per key as the store fills (sampled at every
 * 1% of the keys), the bytes per key of the {@code HashMap<ByteBuffer, Long>} index a user would
 * write instead (measured on the heap), and the rate at which {@link LogStore#open} rebuilds
 * the index from the log (the log in the page cache, best of three).
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.cuckoo.benchmarks.LogStoreFigures 1000000 100
 * }</pre>
 */
public final class LogStoreFigures {
  /** Keys below which the index's bytes per key are not sampled: its first table is a floor. */
  static final int SAMPLE_FROM = 1_000;

  final int keys;
  double readsPerHit;
  double readsPerMiss;
  double indexBytesPerKey;
  double worstIndexBytesPerKey = 0;
  double bestIndexBytesPerKey = Double.MAX_VALUE;
  double hashMapBytesPerKey;
  double reopenedIndexBytesPerKey;
  long logBytes;
  double reopenSeconds = Double.MAX_VALUE;

  private LogStoreFigures(int keys) {
    this.keys = keys;
  }

  /**
   * @param args the number of keys (default 1,000,000) and the value size (default 100)
   * @throws IOException if the store cannot be written
   */
  public static void main(String[] args) throws IOException {
    int keys = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int valueBytes = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    LogStoreFigures f = measure(keys, valueBytes, true);
    System.out.println(f.table(valueBytes));
  }

  /**
   * Builds a store of {@code keys} 20-byte keys in a temporary folder, measures it, and deletes
   * it.
   */
  static LogStoreFigures measure(int keys, int valueBytes, boolean withHashMap) throws IOException {
    LogStoreFigures f = new LogStoreFigures(keys);
    byte[][] present = LogStoreBenchmark.keys(keys, 1);
    byte[][] absent = LogStoreBenchmark.keys(keys, 2);
    byte[] value = new byte[valueBytes];
    Path directory = Files.createTempDirectory("cuckoo-logstore-figures");
    try {
      try (LogStore s = LogStore.open(directory)) {
        int every = Math.max(1, keys / 100);
        for (int i = 0; i < keys; i++) {
          value[0] = (byte) i;
          s.put(present[i], value);
          if (i + 1 >= SAMPLE_FROM && ((i + 1) % every == 0 || i + 1 == keys)) {
            double perKey = s.indexSizeInBytes() / (double) (i + 1);
            f.worstIndexBytesPerKey = Math.max(f.worstIndexBytesPerKey, perKey);
            f.bestIndexBytesPerKey = Math.min(f.bestIndexBytesPerKey, perKey);
          }
        }
        s.flush();
        f.indexBytesPerKey = s.indexSizeInBytes() / (double) keys;
        f.logBytes = s.logSizeInBytes();
        long reads = s.recordReads();
        for (int i = 0; i < keys; i++) {
          byte[] v = s.get(present[i]);
          if (v == null || v[0] != (byte) i) {
            throw new AssertionError("key " + i + " read back wrong");
          }
        }
        f.readsPerHit = (s.recordReads() - reads) / (double) keys;
        reads = s.recordReads();
        for (byte[] k : absent) {
          if (s.get(k) != null) {
            throw new AssertionError("an absent key was found");
          }
        }
        f.readsPerMiss = (s.recordReads() - reads) / (double) keys;
      }
      for (int round = 0; round < 3; round++) {
        long started = System.nanoTime();
        try (LogStore s = LogStore.open(directory)) {
          f.reopenSeconds = Math.min(f.reopenSeconds, (System.nanoTime() - started) / 1e9);
          if (s.size() != keys) {
            throw new AssertionError("reopened with " + s.size() + " keys of " + keys);
          }
          f.reopenedIndexBytesPerKey = s.indexSizeInBytes() / (double) keys;
        }
      }
    } finally {
      LogStoreBenchmark.deleteTree(directory);
    }
    if (withHashMap) {
      f.hashMapBytesPerKey = hashMapBytesPerKey(present);
    }
    return f;
  }

  /** @return the heap a {@code HashMap<ByteBuffer, Long>} of these keys to offsets takes, per key */
  static double hashMapBytesPerKey(byte[][] keys) {
    long before = usedAfterGc();
    Map<ByteBuffer, Long> index = new HashMap<>();
    long offset = 8;
    for (byte[] k : keys) {
      index.put(ByteBuffer.wrap(Arrays.copyOf(k, k.length)), offset);
      offset += 136;
    }
    long after;
    try {
      after = usedAfterGc();
    } finally {
      Reference.reachabilityFence(index);
    }
    return (after - before) / (double) keys.length;
  }

  private static long usedAfterGc() {
    Runtime r = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      used = Math.min(used, r.totalMemory() - r.freeMemory());
    }
    return used;
  }

  /** @return the reopen rate in MB (10^6 bytes) of log per second */
  double reopenMegabytesPerSecond() {
    return logBytes / reopenSeconds / 1e6;
  }

  String table(int valueBytes) {
    return String.format(Locale.ROOT, """
        | %,d keys of 20 bytes, values of %d bytes | measured |
        |---|---|
        | record reads per get, present keys | %.4f |
        | record reads per get, absent keys | %.4f |
        | index bytes per key at the end / after reopening | %.2f / %.2f |
        | index bytes per key while filling (from %,d keys, every 1%%): best / worst | %.2f / %.2f |
        | `HashMap<ByteBuffer, Long>` index, bytes per key (heap after GC) | %.1f |
        | log | %,d bytes |
        | reopen (rebuild the index from the log, in the page cache), best of 3 | %.2f s, %.0f MB/s |""",
        keys, valueBytes, readsPerHit, readsPerMiss, indexBytesPerKey, reopenedIndexBytesPerKey, SAMPLE_FROM, bestIndexBytesPerKey,
        worstIndexBytesPerKey, hashMapBytesPerKey, logBytes, reopenSeconds, reopenMegabytesPerSecond());
  }
}
