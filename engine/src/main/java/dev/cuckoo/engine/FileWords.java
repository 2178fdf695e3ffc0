package dev.cuckoo.engine;

import java.nio.MappedByteBuffer;

/**
 * {@link TableWords} in a mapped file, big-endian as every payload writes them, read and written
 * at the address {@link #address} gives: one run of memory ({@link MappedWords}) or segments
 * apart ({@link SegmentedWords}). The mappings stay referenced, so they live as long as this
 * object, and every store first marks its region ({@link ChangedRegions}), which throws for a
 * read-only file before anything is written.
 */
abstract class FileWords extends TableWords {
  /** The mappings, referenced so that they stay mapped while this object lives. */
  private final MappedByteBuffer[] segments;
  private final long length;
  private final ChangedRegions changed;

  FileWords(MappedByteBuffer[] segments, long length, ChangedRegions changed) {
    this.segments = segments;
    this.length = length;
    this.changed = changed;
  }

  /** @return the address of a word, below {@link #length} */
  abstract long address(long index);

  @Override
  public final long length() {
    return length;
  }

  @Override
  public final long get(long index) {
    try {
      return Long.reverseBytes(MappedWords.rawGet(address(index))); // the file is big-endian
    } finally {
      java.lang.ref.Reference.reachabilityFence(segments); // mapped until the read is done
    }
  }

  @Override
  public final void set(long index, long value) {
    changed.mark(index); // first: for a read-only file this throws, and nothing is written
    try {
      MappedWords.rawPut(address(index), Long.reverseBytes(value));
    } finally {
      java.lang.ref.Reference.reachabilityFence(segments);
    }
  }

  @Override
  public final long window(long offset) {
    long w = offset >>> 6;
    long next = w + 1 < length ? get(w + 1) : 0L;
    return (get(w) >>> offset) | ((next << 1) << ~offset);
  }

  @Override
  public final long bytes() {
    return length * Long.BYTES;
  }

  /**
   * Writes the changed pages of every segment to the file and waits for them, and reports the
   * regions stored to since the last force to the payload ({@link ChangedRegions#report}).
   */
  @Override
  public final void force() {
    for (MappedByteBuffer segment : segments) {
      segment.force();
    }
    changed.report();
  }
}
