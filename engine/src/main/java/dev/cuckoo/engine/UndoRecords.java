package dev.cuckoo.engine;

import dev.cuckoo.spi.MappedPayload;
import dev.cuckoo.spi.PayloadInput;
import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.MappedByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The undo records of a mapped table ({@link TableWords#openUndo}): {@link TableWords#UNDO_SLOTS}
 * records of {@link TableWords#UNDO_RECORD_BYTES} bytes in the payload's first page, mapped
 * read-write beside the table, so that a rewrite of several words (a semi-sorted bucket that
 * straddles a word boundary) is whole or undone after its process dies at any instant.
 *
 * <p>A process's stores to a shared mapping reach the file's pages in the order they were made,
 * however the process ends (the pages are the kernel's, not the process's), so the stores are
 * ordered with fences the JIT may not move stores across: the old words, then the tag, then the
 * rewrite, then the tag cleared. {@link #restore} then finds a non-zero tag exactly when a
 * rewrite may be half done, and puts the old words back: the rewrite had not returned, so undoing
 * it loses nothing that was stored (a kick path's moves store an entry in its next bucket before
 * taking it from the last, so an undone move leaves it where it was).
 *
 * <p>A clear of the whole table opens a record of its own kind ({@link #CLEARING}), which the
 * next writer finishes rather than undoes: the clear had not returned, and a table emptied is
 * what it was asked for.
 *
 * <p>One writer uses record 0 and no atomic instruction (a locked instruction would wait for the
 * table's stores still in flight); writers that share the table ({@link #share}, the striped
 * store) claim a record each from a bitmap.
 */
final class UndoRecords {
  private final MappedByteBuffer page;
  private final long address;
  /** Claimed records, for writers that share the table. */
  private final AtomicLong claimed = new AtomicLong();
  private boolean shared;

  private UndoRecords(MappedByteBuffer page, long address) {
    this.page = page;
    this.address = address;
  }

  /**
   * @param payload the payload
   * @param at where its records are
   * @return them, mapped
   * @throws IOException if mapping fails
   */
  static UndoRecords map(MappedPayload payload, long at) throws IOException {
    MappedByteBuffer page = payload.map(at, TableWords.UNDO_BYTES);
    return new UndoRecords(page, MappedWords.addressOf(page));
  }

  /** Several writers may rewrite words at once from now on. */
  void share() {
    shared = true;
  }

  /** Records words {@code [first, last]} of {@code words} as they are: see the class comment. */
  int open(TableWords words, long first, long last) {
    int record = shared ? claim() : 0;
    long at = address + (long) record * TableWords.UNDO_RECORD_BYTES;
    int count = (int) (last - first + 1);
    try {
      for (int i = 0; i < count; i++) {
        MappedWords.rawPut(at + Long.BYTES * (i + 1L), Long.reverseBytes(words.get(first + i)));
      }
      VarHandle.storeStoreFence();
      MappedWords.rawPut(at, Long.reverseBytes((first + 1) << 2 | count));
      VarHandle.storeStoreFence();
    } finally {
      java.lang.ref.Reference.reachabilityFence(page);
    }
    return record;
  }

  /** The tag of a record that says the words are being cleared, all of them: no rewrite has count 1. */
  static final long CLEARING = 1;

  /** Opens a record that says every word is being cleared, for {@link #restore} to finish. */
  int openClear() {
    int record = shared ? claim() : 0;
    try {
      VarHandle.storeStoreFence();
      MappedWords.rawPut(address + (long) record * TableWords.UNDO_RECORD_BYTES, Long.reverseBytes(CLEARING));
      VarHandle.storeStoreFence();
    } finally {
      java.lang.ref.Reference.reachabilityFence(page);
    }
    return record;
  }

  /** Clears a record once its rewrite is done. */
  void close(int record) {
    VarHandle.storeStoreFence();
    try {
      MappedWords.rawPut(address + (long) record * TableWords.UNDO_RECORD_BYTES, 0L);
    } finally {
      java.lang.ref.Reference.reachabilityFence(page);
    }
    if (shared) {
      claimed.getAndAdd(-(1L << record));
    }
  }

  private int claim() {
    while (true) {
      long taken = claimed.get();
      if (taken == -1L) {
        Thread.onSpinWait(); // 64 writers in the middle of a rewrite: one is about to finish
        continue;
      }
      int record = Long.numberOfTrailingZeros(~taken);
      if (claimed.compareAndSet(taken, taken | 1L << record)) {
        return record;
      }
    }
  }

  /**
   * Puts back the words of every record left open by a writer that died, and clears the records.
   *
   * @param payload the payload, open for writing
   * @param at where its records are
   * @param words the table's words
   * @throws IOException if reading or writing fails
   */
  static void restore(MappedPayload payload, long at, TableWords words) throws IOException {
    PayloadInput in = payload.read(at, TableWords.UNDO_BYTES);
    for (int r = 0; r < TableWords.UNDO_SLOTS; r++) {
      long tag = in.readLong();
      long[] old = new long[TableWords.UNDO_MAX_WORDS];
      for (int i = 0; i < old.length; i++) {
        old[i] = in.readLong();
      }
      if (tag == 0) {
        continue;
      }
      if (tag == CLEARING) {
        words.clear(); // the writer died clearing the table: the clear is finished, zero words left alone
        continue;
      }
      long first = (tag >>> 2) - 1;
      int count = (int) (tag & 3);
      if (first < 0 || count < 2 || first + count > words.length()) {
        throw new dev.cuckoo.CorruptFilterException(payload.path() + ": undo record " + r + " names words "
            + first + ".." + (first + count - 1) + ", outside a table of " + words.length() + " longs");
      }
      for (int i = 0; i < count; i++) {
        words.set(first + i, old[i]);
      }
    }
    payload.write(at, java.nio.ByteBuffer.allocate(TableWords.UNDO_BYTES));
  }
}
