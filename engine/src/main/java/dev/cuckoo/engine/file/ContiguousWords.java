package dev.cuckoo.engine.file;

import dev.cuckoo.spi.MappedPayload;
import java.nio.MappedByteBuffer;

/**
 * {@link FileWords} whose segments landed next to one another in memory, as they do unless
 * something else was mapped between them: the table is one run of memory from one address, as an
 * array is, word {@code i} at {@code base + 8i}, whatever the file's size. The common case, and
 * the one a lookup pays least for; {@link SegmentedWords} is the other.
 */
final class ContiguousWords extends FileWords {
  /** The address of word 0; word {@code i} is at {@code base + 8i}. */
  private long base;

  ContiguousWords(MappedByteBuffer[] segments, long base, long length, ChangedRegions changed, UndoRecords undo,
      MappedPayload payload, boolean isPrivate) {
    super(segments, length, changed, undo, payload, isPrivate);
    this.base = base;
  }

  /** @return whether segments at these addresses make one run of memory */
  static boolean contiguous(long[] addresses) {
    for (int s = 1; s < addresses.length; s++) {
      if (addresses[s] != addresses[s - 1] + (Long.BYTES << SEGMENT_SHIFT)) {
        return false;
      }
    }
    return true;
  }

  @Override
  long address(long index) {
    return base + (index << 3);
  }

  @Override
  boolean rebase(long[] addresses) {
    if (!contiguous(addresses)) {
      return false;
    }
    base = addresses.length == 0 ? 0 : addresses[0];
    return true;
  }
}
