package dev.cuckoo.engine.file;

import dev.cuckoo.engine.TableWords;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The undo records of a mapped table ({@link TableWords#openUndo}): {@link FirstPage#UNDO_SLOTS}
 * records of {@link FirstPage#UNDO_RECORD_BYTES} bytes in the payload's first page, mapped
 * read-write beside the table, so that a rewrite of several words (a semi-sorted bucket that
 * straddles a word boundary) is whole or undone after its process dies at any instant.
 *
 * <p>A process's stores to a shared mapping reach the file's pages in the order they were made,
 * however the process ends (the pages are the kernel's, not the process's), so the stores are
 * ordered ({@link FirstPage#store}): the old words, then the tag, then the rewrite, then the tag
 * cleared. {@link #restore} then finds a non-zero tag exactly when a
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
  private final FirstPage page;
  /** Claimed records, for writers that share the table. */
  private final AtomicLong claimed = new AtomicLong();
  private boolean shared;

  /** @param page the first page the records are in, mapped */
  UndoRecords(FirstPage page) {
    this.page = page;
  }

  /** Several writers may rewrite words at once from now on. */
  void share() {
    shared = true;
  }

  private static int at(int record) {
    return FirstPage.UNDO_AT + record * FirstPage.UNDO_RECORD_BYTES;
  }

  /** Records words {@code [first, last]} of {@code words} as they are: see the class comment. */
  int open(TableWords words, long first, long last) {
    int record = shared ? claim() : 0;
    int at = at(record);
    int count = (int) (last - first + 1);
    for (int i = 0; i < count; i++) {
      page.store(at + Long.BYTES * (i + 1), words.get(first + i));
    }
    page.store(at, (first + 1) << 2 | count); // after the words it guards, before the rewrite
    return record;
  }

  /** The tag of a record that says the words are being cleared, all of them: no rewrite has count 1. */
  static final long CLEARING = 1;

  /** Opens a record that says every word is being cleared, for {@link #restore} to finish. */
  int openClear() {
    int record = shared ? claim() : 0;
    page.store(at(record), CLEARING);
    return record;
  }

  /** Clears a record once its rewrite is done. */
  void close(int record) {
    page.store(at(record), 0L);
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
   * What {@link #restore} found.
   *
   * @param rewrites the rewrites of several words it put back
   * @param clearing whether a clear of the whole table was under way (it was finished)
   */
  record Found(int rewrites, boolean clearing) {}

  /**
   * Puts back the words of every record left open by a writer that died, finishes a clear one
   * was running, and clears the records.
   *
   * @param page the first page, mapped
   * @param words the table's words
   * @return what it found
   * @throws dev.cuckoo.CorruptFilterException if a record names words outside the table
   * @throws IOException if writing fails
   */
  static Found restore(FirstPage page, TableWords words) throws IOException {
    int rewrites = 0;
    boolean clearing = false;
    for (int r = 0; r < FirstPage.UNDO_SLOTS; r++) {
      long tag = page.load(at(r));
      if (tag == 0) {
        continue;
      }
      if (tag == CLEARING) {
        words.clear(); // the writer died clearing the table: the clear is finished, zero words left alone
        clearing = true;
        continue;
      }
      long first = (tag >>> 2) - 1;
      int count = (int) (tag & 3);
      if (first < 0 || count < 2 || first + count > words.length()) {
        throw new dev.cuckoo.CorruptFilterException(page.payload().path() + ": undo record " + r + " names words "
            + first + ".." + (first + count - 1) + ", outside a table of " + words.length() + " longs");
      }
      for (int i = 0; i < count; i++) {
        words.set(first + i, page.load(at(r) + Long.BYTES * (i + 1)));
      }
      rewrites++;
    }
    if (rewrites > 0 || clearing) {
      page.payload().write(FirstPage.UNDO_AT, java.nio.ByteBuffer.allocate(FirstPage.UNDO_BYTES));
    }
    return new Found(rewrites, clearing);
  }
}
