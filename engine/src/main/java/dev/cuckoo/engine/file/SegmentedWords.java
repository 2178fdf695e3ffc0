package dev.cuckoo.engine.file;

import dev.cuckoo.engine.TableWords;
import java.nio.MappedByteBuffer;

/**
 * {@link FileWords} whose segments did not land next to one another in memory (something else
 * was mapped between them): word {@code i} is in segment {@code i >>> 27}, at that segment's
 * address. Only a file of more than 1 GiB of table can need it, and the class is loaded only
 * when one does, so the JIT compiles the other storages' reads without a type check for it.
 */
final class SegmentedWords extends FileWords {
  private long[] addresses;

  private SegmentedWords(MappedByteBuffer[] segments, long[] addresses, long length, ChangedRegions changed,
      UndoRecords undo, dev.cuckoo.spi.MappedPayload payload, boolean isPrivate) {
    super(segments, length, changed, undo, payload, isPrivate);
    this.addresses = addresses;
  }

  /**
   * @return the words, typed so that a caller's verification does not load this class
   */
  static TableWords of(MappedByteBuffer[] segments, long[] addresses, long length, ChangedRegions changed,
      UndoRecords undo, dev.cuckoo.spi.MappedPayload payload, boolean isPrivate) {
    return new SegmentedWords(segments, addresses, length, changed, undo, payload, isPrivate);
  }

  @Override
  boolean rebase(long[] addresses) {
    this.addresses = addresses;
    return true;
  }

  @Override
  long address(long index) {
    return addresses[(int) (index >>> SEGMENT_SHIFT)] + ((index & SEGMENT_MASK) << 3);
  }
}
