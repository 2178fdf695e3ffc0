package dev.cuckoo.engine;

import dev.cuckoo.spi.PayloadInput;
import java.io.IOException;

import java.util.Arrays;

/**
 * {@link TableWords} on the heap in an {@code int[]}, two ints to a word (the low half first, as
 * the little-endian bit string has it), so that {@link #getInt} is one load: the storage of a
 * table whose buckets are 32 bits (8-bit fingerprints in buckets of 4). Reading buckets from an
 * {@code int[]} rather than halves of a {@code long[]} made 8-bit lookups about 10% faster at 10M
 * keys (docs/results.md); through the seam, a lookup runs 96 instructions under callgrind where
 * halves of a {@code long[]} took 105.
 */
final class IntHeapWords extends TableWords {
  private final int[] ints;
  private final long length;

  private IntHeapWords(int[] ints, long length) {
    this.ints = ints;
    this.length = length;
  }

  /**
   * @param ints two ints a word, and two of padding
   * @param length the bit string's longs
   * @return them, typed so that a caller's verification does not load this class
   */
  static TableWords of(int[] ints, long length) {
    return new IntHeapWords(ints, length);
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public long get(long index) {
    int i = (int) (index << 1);
    return (ints[i] & 0xFFFF_FFFFL) | ((long) ints[i + 1] << 32);
  }

  @Override
  public void set(long index, long value) {
    int i = (int) (index << 1);
    ints[i] = (int) value;
    ints[i + 1] = (int) (value >>> 32);
  }

  @Override
  public int getInt(long index) {
    return ints[(int) index];
  }

  @Override
  public void setInt(long index, int value) {
    ints[(int) index] = value;
  }

  @Override
  public void gatherInts(long[] at, int n) {
    int[] w = ints;
    for (int i = 0; i < n; i++) {
      at[i] = w[(int) at[i]] & 0xFFFF_FFFFL;
    }
  }

  @Override
  public void clear() {
    Arrays.fill(ints, 0);
  }

  /** {@inheritDoc} A block of longs at a time, through a small buffer: the table is not read twice into memory. */
  @Override
  public void readFrom(PayloadInput in, long count) throws IOException {
    long[] block = new long[(int) Math.min(count, 8192)];
    for (long at = 0; at < count; at += block.length) {
      int n = (int) Math.min(block.length, count - at);
      in.readLongs(block, 0, n);
      for (int i = 0; i < n; i++) {
        set(at + i, block[i]);
      }
    }
  }

  @Override
  public long bytes() {
    return (long) ints.length * Integer.BYTES;
  }
}
