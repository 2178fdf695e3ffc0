package dev.cuckoo.engine.file;

import dev.cuckoo.spi.MappedPayload;

/**
 * Which regions of a mapped table were stored to since the last force: every store marks its
 * region (64 KiB or more, at most 2^20 regions), and {@link #report} tells the payload ({@link
 * MappedPayload#changed}), so that the file's checksum is updated by rereading those alone. For a
 * read-only file the array is empty, so that a store throws before it writes anything.
 */
final class ChangedRegions {
  /** Log2 of the fewest longs a region holds: 2^13 longs, 64 KiB. */
  private static final int MIN_REGION_SHIFT = 13;
  /** Log2 of the most regions. */
  private static final int MAX_REGIONS_SHIFT = 20;

  private final MappedPayload payload;
  /** Where the words start in the payload, in bytes. */
  private final long at;
  private final long length;
  /** Log2 of the longs of a region. */
  private final int regionShift;
  private final boolean[] changed;

  /** Log2 of the fewest longs a region holds for words mapped private: a page, 4 KiB. */
  static final int PAGE_SHIFT = 9;
  /** Log2 of the most regions for words mapped private: their pages are written one by one. */
  private static final int MAX_PAGES_SHIFT = 23;

  ChangedRegions(MappedPayload payload, long at, long length) {
    this(payload, at, length, MIN_REGION_SHIFT, MAX_REGIONS_SHIFT);
  }

  /**
   * @param minShift log2 of the fewest longs a region holds
   * @param maxRegionsShift log2 of the most regions
   */
  ChangedRegions(MappedPayload payload, long at, long length, int minShift, int maxRegionsShift) {
    this.payload = payload;
    this.at = at;
    this.length = length;
    this.regionShift = Math.max(minShift, 64 - Long.numberOfLeadingZeros(length) - maxRegionsShift);
    this.changed = payload.writable() ? new boolean[(int) ((length + (1L << regionShift) - 1) >>> regionShift)]
        : new boolean[0];
  }

  /**
   * Marks the region of a word as changed, before the word is stored.
   *
   * @param index the word
   * @throws ArrayIndexOutOfBoundsException for a read-only file
   */
  void mark(long index) {
    changed[(int) (index >>> regionShift)] = true;
  }

  /** @return regions of a page, for words whose changed pages are written one by one */
  static ChangedRegions ofPages(MappedPayload payload, long at, long length) {
    return new ChangedRegions(payload, at, length, PAGE_SHIFT, MAX_PAGES_SHIFT);
  }

  /**
   * @param boundaryShift log2 of the words between boundaries no run may cross (a mapping's
   *     segments)
   * @return the runs of marked regions, as pairs of a first word and a count of words, runs of
   *     adjacent regions joined and cut at each boundary; the marks stay until {@link #clear}
   */
  long[] runs(int boundaryShift) {
    long[] runs = new long[8];
    int n = 0;
    for (int r = 0; r < changed.length; r++) {
      if (!changed[r]) {
        continue;
      }
      int end = r;
      while (end + 1 < changed.length && changed[end + 1]) {
        end++;
      }
      long first = (long) r << regionShift;
      long last = Math.min(length, (long) (end + 1) << regionShift);
      while (first < last) {
        long stop = Math.min(last, ((first >>> boundaryShift) + 1) << boundaryShift);
        if (n + 2 > runs.length) {
          runs = java.util.Arrays.copyOf(runs, runs.length * 2);
        }
        runs[n++] = first;
        runs[n++] = stop - first;
        first = stop;
      }
      r = end;
    }
    return java.util.Arrays.copyOf(runs, n);
  }

  /** Unmarks every region. */
  void clear() {
    java.util.Arrays.fill(changed, false);
  }

  /** Reports the regions marked since the last report to the payload, and unmarks them. */
  void report() {
    long regionWords = 1L << regionShift;
    for (int r = 0; r < changed.length; r++) {
      if (changed[r]) {
        long first = (long) r << regionShift;
        payload.changed(at + first * Long.BYTES, Math.min(regionWords, length - first) * Long.BYTES);
        changed[r] = false;
      }
    }
  }
}
