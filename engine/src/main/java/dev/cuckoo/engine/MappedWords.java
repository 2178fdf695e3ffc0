package dev.cuckoo.engine;

import dev.cuckoo.spi.MappedPayload;
import java.io.IOException;
import java.nio.MappedByteBuffer;

/**
 * A table's longs where they lie in a mapped filter file: the file's words (big-endian, as every
 * payload writes them), read and written by index like a {@code long[]}, with the same bit-string
 * view {@link PackedBits} gives an array. A table of any length works: a {@link MappedByteBuffer}
 * holds at most 2 GiB, so the words are mapped in segments of 2^27 longs (1 GiB), and word {@code
 * i} is in segment {@code i >>> 27}. A bucket whose bits straddle two words is read word by word,
 * so the segments' edges need nothing special.
 *
 * <p>Every store marks its region (64 KiB or more, at most 2^20 regions) as changed; {@link
 * #force} reports the changed regions to the payload ({@link MappedPayload#changed}), so that the
 * file's checksum is updated by rereading those alone.
 */
public final class MappedWords {
  /** Longs per segment, as a shift: 2^27 longs, 1 GiB. */
  static final int SEGMENT_SHIFT = 27;
  private static final long SEGMENT_MASK = (1L << SEGMENT_SHIFT) - 1;

  /** Log2 of the fewest longs a change-tracking region holds: 2^13 longs, 64 KiB. */
  private static final int MIN_REGION_SHIFT = 13;
  /** Log2 of the most regions. */
  private static final int MAX_REGIONS_SHIFT = 20;

  private final MappedByteBuffer[] segments;
  private final long length;
  private final MappedPayload payload;
  /** Where the words start in the payload, in bytes. */
  private final long at;
  /** Log2 of the longs of a region. */
  private final int regionShift;
  /** Whether each region was stored to since the last {@link #force}. */
  private final boolean[] changed;

  private MappedWords(MappedByteBuffer[] segments, long length, MappedPayload payload, long at) {
    this.segments = segments;
    this.length = length;
    this.payload = payload;
    this.at = at;
    this.regionShift = Math.max(MIN_REGION_SHIFT, 64 - Long.numberOfLeadingZeros(length) - MAX_REGIONS_SHIFT);
    this.changed = payload.writable() ? new boolean[(int) ((length + (1L << regionShift) - 1) >>> regionShift)]
        : new boolean[0];
  }

  /**
   * Maps words of a payload.
   *
   * @param payload the payload
   * @param at where the words start in it, in bytes
   * @param length how many longs
   * @return them
   * @throws IOException if mapping fails
   */
  public static MappedWords map(MappedPayload payload, long at, long length) throws IOException {
    int count = (int) ((length + SEGMENT_MASK) >>> SEGMENT_SHIFT);
    MappedByteBuffer[] segments = new MappedByteBuffer[count];
    for (int s = 0; s < count; s++) {
      long first = (long) s << SEGMENT_SHIFT;
      long words = Math.min(1L << SEGMENT_SHIFT, length - first);
      segments[s] = payload.map(at + first * Long.BYTES, words * Long.BYTES);
    }
    return new MappedWords(segments, length, payload, at);
  }

  /** @return the number of longs */
  public long length() {
    return length;
  }

  /**
   * @param index a word, below {@link #length}
   * @return it
   */
  public long get(long index) {
    return segments[(int) (index >>> SEGMENT_SHIFT)].getLong((int) (index & SEGMENT_MASK) << 3);
  }

  /**
   * @param index a word, below {@link #length}
   * @param value what to store there
   */
  public void set(long index, long value) {
    segments[(int) (index >>> SEGMENT_SHIFT)].putLong((int) (index & SEGMENT_MASK) << 3, value);
    changed[(int) (index >>> regionShift)] = true;
  }

  /**
   * {@link PackedBits#window} over these words: bits {@code [offset, offset + 64)} of the bit
   * string, zeros past its end.
   *
   * @param offset a bit offset below {@code 64·length()}
   * @return the 64 bits from there
   */
  public long window(long offset) {
    long w = offset >>> 6;
    long next = w + 1 < length ? get(w + 1) : 0L;
    return (get(w) >>> offset) | ((next << 1) << ~offset);
  }

  /**
   * {@link PackedBits#write} over these words: stores the low bits of {@code value} that {@code
   * mask} selects at the bit offset, keeping every other bit of the words it touches.
   *
   * @param offset a bit offset
   * @param value the value
   * @param mask {@code 2^bits - 1} for the field's width
   */
  public void write(long offset, long value, long mask) {
    long w = offset >>> 6;
    long v = value & mask;
    set(w, (get(w) & ~(mask << offset)) | (v << offset));
    long spill = (mask >>> 1) >>> ~offset;
    if (spill != 0) {
      set(w + 1, (get(w + 1) & ~spill) | ((v >>> 1) >>> ~offset));
    }
  }

  /**
   * @param bit a bit offset
   * @return whether every bit from there to the end is zero
   */
  public boolean isClearFrom(long bit) {
    for (long w = bit >>> 6; w < length; w++) {
      long unused = w == bit >>> 6 ? -1L << bit : -1L;
      if ((get(w) & unused) != 0) {
        return false;
      }
    }
    return true;
  }

  /** Zeros every word. */
  public void clear() {
    for (long w = 0; w < length; w++) {
      if (get(w) != 0) {
        set(w, 0L); // a word already zero is left alone, so that untouched pages stay untouched
      }
    }
  }

  /**
   * Writes the changed pages of every segment to the file and waits for them, and reports the
   * regions stored to since the last force to the payload.
   */
  public void force() {
    for (MappedByteBuffer segment : segments) {
      segment.force();
    }
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
