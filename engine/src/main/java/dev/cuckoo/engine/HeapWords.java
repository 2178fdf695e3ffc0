package dev.cuckoo.engine;

import dev.cuckoo.spi.PayloadInput;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * {@link TableWords} in a {@code long[]}: the bit string and one zero padding word after it, so
 * that a window ({@link PackedBits#window}) reads two words without asking where the string ends.
 */
final class HeapWords extends TableWords {
  private final long[] words;
  private final long length;

  private HeapWords(long[] words, long length) {
    this.words = words;
    this.length = length;
  }

  /**
   * @param words the bit string and a padding word
   * @param length the bit string's longs
   * @return them, typed so that a caller's verification does not load this class
   */
  static TableWords of(long[] words, long length) {
    return new HeapWords(words, length);
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public long get(long index) {
    return words[(int) index];
  }

  @Override
  public void set(long index, long value) {
    words[(int) index] = value;
  }

  @Override
  public long window(long offset) {
    return PackedBits.window(words, offset);
  }

  @Override
  public void gather(long[] at, int n) {
    long[] w = words;
    for (int i = 0; i < n; i++) {
      at[i] = w[(int) at[i]];
    }
  }

  @Override
  public void gatherWindows(long[] at, int n) {
    long[] w = words;
    for (int i = 0; i < n; i++) {
      at[i] = PackedBits.window(w, at[i]);
    }
  }

  @Override
  public void write(long offset, long value, long mask) {
    PackedBits.write(words, offset, value, mask);
  }

  @Override
  public boolean isClearFrom(long bit) {
    return PackedBits.isClearFrom(words, bit);
  }

  @Override
  public void clear() {
    Arrays.fill(words, 0L);
  }

  @Override
  public void writeTo(PayloadOutput out, long count) throws IOException {
    out.writeLongs(words, 0, Math.toIntExact(count));
  }

  @Override
  public void readFrom(PayloadInput in, long count) throws IOException {
    in.readLongs(words, 0, Math.toIntExact(count));
  }

  /** {@inheritDoc} A copy into ints, as a table read from a file that reads ints asks for. */
  @Override
  public TableWords withFastInts() {
    TableWords ints = TableWords.onHeapInts(length);
    for (long w = 0; w < length; w++) {
      ints.set(w, words[(int) w]);
    }
    return ints;
  }

  @Override
  public long bytes() {
    return (long) words.length * Long.BYTES;
  }
}
