package dev.cuckoo.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongToIntFunction;
import java.util.function.LongUnaryOperator;

/**
 * The steps of a variant's test that a filter of more than 2^31 slots stores, finds, writes and
 * reads keys in its highest buckets: pick keys by their first bucket, add and find them, then
 * round-trip the filter through a file. Between writing and reading, the test drops its own
 * references to the filter, so that only one huge table is alive at a time.
 */
public final class HugeFilters {
  /** How many keys of each kind the steps use. */
  public static final int KEYS = 2_000;

  private HugeFilters() {}

  /**
   * @param filter the filter, whose hash strategy turns keys into hashes
   * @param firstBucket the filter's first bucket of a key hash
   * @param top the lowest bucket counted as high
   * @param r where keys come from
   * @return two lists of {@link #KEYS} keys: those whose first bucket is at least {@code top},
   *     and others
   */
  public static List<List<Long>> highAndLowKeys(CuckooFilter filter, LongUnaryOperator firstBucket, long top, SplittableRandom r) {
    List<Long> high = new ArrayList<>();
    List<Long> low = new ArrayList<>();
    while (high.size() < KEYS) {
      long key = r.nextLong();
      if (firstBucket.applyAsLong(dev.cuckoo.CuckooFilters.hashOf(filter.spec()).hashLong(key)) >= top) {
        high.add(key);
      } else if (low.size() < KEYS) {
        low.add(key);
      }
    }
    return List.of(high, low);
  }

  /**
   * Adds the high keys, then the low ones, checks that every high key is found and counted, and
   * that the high buckets really hold them (at least 95% there, the rest in their other buckets).
   *
   * @param filter an empty filter
   * @param keys what {@link #highAndLowKeys} returned
   * @param occupied the occupied slots of a bucket of the filter's table
   * @param top the lowest high bucket
   * @param bucketCount the table's bucket count
   */
  public static void addAndFind(CuckooFilter filter, List<List<Long>> keys, LongToIntFunction occupied, long top, long bucketCount) {
    for (long key : keys.get(0)) {
      assertTrue(filter.add(key), () -> "add of high key " + key + "; " + TestSeed.rerun());
    }
    for (long key : keys.get(1)) {
      assertTrue(filter.add(key), () -> "add of low key " + key + "; " + TestSeed.rerun());
    }
    assertEquals(2 * KEYS, filter.size(), TestSeed.rerun());
    for (long key : keys.get(0)) {
      assertTrue(filter.mightContain(key), () -> "key " + key + " in a high bucket not found; " + TestSeed.rerun());
      assertTrue(filter.count(key) >= 1, () -> "count of high key " + key + "; " + TestSeed.rerun());
    }
    long held = 0;
    for (long b = top; b < bucketCount; b++) {
      held += occupied.applyAsInt(b);
    }
    assertTrue(held >= KEYS * 95 / 100, held + " fingerprints in the buckets from " + top + " on; " + TestSeed.rerun());
  }

  /**
   * @param filter the filter
   * @param dir a folder for the file
   * @return the file the filter was written to
   * @throws IOException if writing fails
   */
  public static Path write(CuckooFilter filter, Path dir) throws IOException {
    Path file = dir.resolve("huge.ckf");
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
      filter.writeTo(out);
    }
    return file;
  }

  /**
   * Reads the filter back, checks that every high key is still found, removes every other one
   * and checks the rest.
   *
   * @param file the file {@link #write} wrote
   * @param keys what {@link #highAndLowKeys} returned
   * @param r for keys never added
   * @throws IOException if reading fails
   */
  public static void readAndCheck(Path file, List<List<Long>> keys, SplittableRandom r) throws IOException {
    CuckooFilter g;
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 20)) {
      g = CuckooFilters.read(in);
    }
    List<Long> high = keys.get(0);
    assertEquals(2 * KEYS, g.size(), "size after write/read; " + TestSeed.rerun());
    for (long key : high) {
      assertTrue(g.mightContain(key), () -> "key " + key + " lost by write/read; " + TestSeed.rerun());
    }
    for (int i = 0; i < high.size(); i += 2) {
      assertTrue(g.remove(high.get(i)), "remove of high key " + high.get(i) + "; " + TestSeed.rerun());
    }
    for (int i = 1; i < high.size(); i += 2) {
      assertTrue(g.mightContain(high.get(i)), "high key " + high.get(i) + " lost by removes; " + TestSeed.rerun());
    }
    // Three absent keys all matching would take an FPP near 1: the table is not saturated.
    long absent1 = r.nextLong();
    long absent2 = r.nextLong();
    long absent3 = r.nextLong();
    assertFalse(g.mightContain(absent1) && g.mightContain(absent2) && g.mightContain(absent3),
        "three absent keys all found; " + TestSeed.rerun());
  }
}
