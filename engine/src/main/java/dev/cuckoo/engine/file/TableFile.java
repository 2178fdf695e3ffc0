package dev.cuckoo.engine.file;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.FileRecovery;
import dev.cuckoo.engine.FingerprintStash;
import dev.cuckoo.engine.TableWords;
import dev.cuckoo.spi.MappedPayload;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The file of a {@link TableFilter} whose table is mapped from it ({@link TablePayload#open}),
 * and what keeps the two consistent: the mark, the first page ({@link FirstPage}: fields, stash,
 * merge record, undo records) and the forces.
 *
 * <p>{@code durability=process}: before the first change after an open or a force the file is
 * marked as being changed ({@link MappedPayload#beginChange}); {@link #force} writes the table's
 * pages, then the first page, then the checksum, and only then clears the mark. Between the two,
 * every store a writer makes keeps each stored fingerprint in one of its slots (the kick paths
 * move from the free end, {@link TableWords#openUndo} guards a rewrite of several words, a clear
 * runs behind a record the next writer finishes, a merge records how far it got) and the stash is
 * written to the first page as it changes, so the pages the process stored to, which the kernel
 * writes to the file however the process ends, hold every fingerprint whose add returned. The
 * next writer's open recovers such a file ({@link #recover}, decided by the envelope's
 * recovery).
 *
 * <p>{@code durability=machine}: the table is this process's copy of the file's pages ({@link
 * FileWords#mapPrivate}), and a force commits the first page and the changed pages through the
 * payload's journal ({@link MappedPayload#commit}), so the file changes only inside a force,
 * whole or not at all.
 *
 * <p>A force that fails leaves the mark in doubt (the seal may have cleared it or not): the next
 * change marks the file again, and the next force does all its work, whatever it finds.
 */
public final class TableFile implements Consumer<FingerprintStash> {
  /** Forced, and not changed since: the file's mark is clear. */
  private static final int CLEAN = 0;
  /** Changed since the last force: the mark is set ({@code durability=process}), or the private copy differs. */
  private static final int CHANGED = 1;
  /** A force failed part way: the mark may be clear though the file has changes; both are redone. */
  private static final int DOUBTFUL = 2;

  private final MappedPayload payload;
  private final String variant;
  private final int sizing;
  private final long buckets;
  private final long tableWords;
  private final TableWords words;
  /** The first page, mapped, for a process-durable writer; {@code null} otherwise. */
  private final FirstPage page;
  private final MergeRecord merge;
  private final boolean machine;
  /** {@link #CLEAN}, {@link #CHANGED} or {@link #DOUBTFUL}; read by striped writers under a stripe's lock. */
  private int state;
  private boolean closed;
  /** Bytes of the private copy written since it was last mapped afresh. */
  private long privateBytes;
  /** Where the stash is put to be written: made once, so that a write allocates nothing. */
  private final ByteBuffer stashBytes = ByteBuffer.allocate(Integer.BYTES
      + FingerprintStash.DEFAULT_SLOTS * FingerprintStash.ENTRY_BYTES);
  /** What the open that made this did to bring the file back, if anything. */
  private FileRecovery recovery;

  private TableFile(MappedPayload payload, String variant, int sizing, long buckets, long tableWords,
      TableWords words, FirstPage page, MergeRecord merge, boolean machine, int state) {
    this.payload = payload;
    this.variant = variant;
    this.sizing = sizing;
    this.buckets = buckets;
    this.tableWords = tableWords;
    this.words = words;
    this.page = page;
    this.merge = merge;
    this.machine = machine;
    this.state = state;
  }

  /**
   * Maps a payload's table and first page.
   *
   * @param payload the payload
   * @param variant the variant, for messages
   * @param sizing the sizing its bucket count follows
   * @param buckets the bucket count
   * @param tableWords W, the table's longs
   * @param machine {@code durability=machine}: a writable table is mapped copy-on-write
   * @param created whether the payload is a new file's, to be forced before anyone opens it
   * @return the file
   * @throws IOException if reading or mapping fails
   */
  static TableFile open(MappedPayload payload, String variant, int sizing, long buckets, long tableWords,
      boolean machine, boolean created) throws IOException {
    boolean writable = payload.writable();
    FirstPage page = writable && !machine ? FirstPage.map(payload) : null;
    TableWords words = machine && writable ? FileWords.mapPrivate(payload, FirstPage.BYTES, tableWords)
        : FileWords.map(payload, FirstPage.BYTES, tableWords, page);
    MergeRecord merge;
    if (page != null) {
      merge = MergeRecord.in(page);
    } else {
      merge = MergeRecord.read(payload.read(FirstPage.MERGE_AT, FirstPage.MERGE_BYTES).readLongArray(4, 4,
          "the merge record"));
    }
    return new TableFile(payload, variant, sizing, buckets, tableWords, words, page, merge, machine,
        created ? CHANGED : CLEAN);
  }

  /** @return the table's words */
  TableWords words() {
    return words;
  }

  /** @return the file */
  public Path path() {
    return payload.path();
  }

  /** @return whether the file is open for writing */
  public boolean writable() {
    return payload.writable();
  }

  /**
   * @return what the open that made this did to bring the file back, if anything: the
   *     variant's recovery, or what the envelope did before (a journal replayed or removed)
   */
  public Optional<FileRecovery> recovery() {
    return recovery != null ? Optional.of(recovery) : payload.recovered();
  }

  /**
   * The record of merges into this file, for a writer that keeps one ({@code
   * durability=process}); {@code null} where none is kept.
   */
  public MergeRecord mergeRecord() {
    return page == null ? null : merge;
  }

  /** @return the entries an unfinished merge the file records had moved, or -1 if none */
  public long unfinishedMerge() {
    return merge.active() && !merge.finished() ? merge.moved() : -1;
  }

  /** @return whether the file records a merge that finished, left by a writer before this one */
  public boolean finishedMergeLeft() {
    return merge.active() && merge.finished() && !merge.ours();
  }

  /**
   * Called before every change to the table, the stash, the items or the merge record (and, for
   * a striped table, again under the lock of each stripe a writer changes): marks the file as
   * being changed if it is not yet known to be.
   *
   * @throws UnsupportedOperationException if the file was opened read-only
   * @throws IllegalStateException if the filter is closed
   * @throws UncheckedIOException naming the file, if the mark cannot be written
   */
  public void beforeChange() {
    if (state != CHANGED) {
      markChanged();
    }
  }

  /** The first change after a force: one writer marks, writers of other stripes wait for it. */
  private synchronized void markChanged() {
    if (state == CHANGED) {
      return;
    }
    if (closed) {
      throw new IllegalStateException(payload.path() + " is closed");
    }
    if (!payload.writable()) {
      throw new UnsupportedOperationException(payload.path() + " was opened read-only (CuckooFilters.open): open it"
          + " with CuckooFilters.openWritable to change it");
    }
    if (!machine) {
      try {
        payload.beginChange();
      } catch (IOException e) {
        throw new UncheckedIOException(e.getMessage(), e);
      }
    }
    state = CHANGED; // a machine-durable file does not change until a force commits
  }

  /**
   * Writes the stash into the first page, where a writer that dies leaves it: the file is its
   * stash's keeper ({@link FingerprintStash#keepIn}), told of each change once it is made. The file
   * itself rather than a lambda, for which the first open would spin a class.
   *
   * @param stash the stash, just changed
   */
  @Override
  public void accept(FingerprintStash stash) {
    if (machine) {
      return; // the file changes only when a force commits, first page and all
    }
    try {
      stashBytes.clear();
      stash.putTo(stashBytes);
      payload.write(FirstPage.STASH_AT, stashBytes.flip());
    } catch (IOException e) {
      // The stash in memory is the filter's; each write writes it whole, so the next one (or the
      // next force) brings the file's copy up to date.
      throw new UncheckedIOException(e.getMessage(), e);
    }
  }

  /** What {@link #recover} found the writer in the middle of. */
  public record Restored(int rewrites, boolean clearFinished) {}

  /**
   * Puts back what a writer whose process died was in the middle of: the words of every open undo
   * record, or a clear it was running (then finished, and the merge record cleared with the
   * filter). The file stays marked, for {@link #force} to write the recounted items and the
   * checksum.
   *
   * @return what was put back
   * @throws CorruptFilterException if an undo record is damaged
   * @throws IOException if reading or writing fails
   */
  public Restored recover() throws IOException {
    if (page == null) {
      throw new IllegalStateException(payload.path() + " is not open for writing with durability=process");
    }
    UndoRecords.Found found = UndoRecords.restore(page, words);
    if (found.clearing()) {
      merge.end();
    }
    state = CHANGED;
    return new Restored(found.rewrites(), found.clearing());
  }

  /** Records what the open that made this did to bring the file back. */
  public void recovered(FileRecovery report) {
    this.recovery = report;
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException(payload.path() + " is closed");
    }
  }

  /**
   * Makes the file hold what the filter holds, durably: see the class comment. A striped
   * filter's writers are held still by the caller; the monitor keeps a writer that marks the
   * file from doing so in the middle of the seal.
   *
   * @param items the items in the table and the stash
   * @param stash the stash
   * @throws IOException naming the file and the cause, if writing fails
   */
  public synchronized void force(long items, FingerprintStash stash) throws IOException {
    requireOpen();
    if (state == CLEAN) {
      return;
    }
    byte[] image = FirstPage.image(sizing, buckets, items, tableWords, stash);
    try {
      if (machine) {
        commit(image);
      } else {
        if (merge.active() && merge.finished() && merge.ours()) {
          merge.end(); // its writer forces: it saw the merge return
        }
        words.force();
        payload.write(0, ByteBuffer.wrap(image));
        // The undo records' words, left after their tags were cleared; no rewrite is under way
        // (a striped filter's writers are held still): zeros, as a forced file has there.
        payload.write(FirstPage.UNDO_AT, ByteBuffer.wrap(FirstPage.UNDO_ZEROS));
        payload.seal();
      }
    } catch (IOException | RuntimeException e) {
      if (!machine) {
        state = DOUBTFUL; // the seal may have cleared the mark: the next change sets it again
      }
      throw e;
    }
    state = CLEAN;
  }

  /**
   * {@code durability=machine}'s force: the first page's fields and every page of the table
   * changed since the last commit, through the payload's journal ({@link MappedPayload#commit});
   * then, once the private copy holds more than it should keep in memory, the file is mapped
   * afresh.
   */
  private void commit(byte[] image) throws IOException {
    FileWords file = (FileWords) words;
    long[] runs = file.changedRuns();
    long[] at = new long[runs.length / 2 + 1];
    ByteBuffer[] bytes = new ByteBuffer[at.length];
    at[0] = 0;
    bytes[0] = ByteBuffer.wrap(image);
    long written = 0;
    for (int i = 0; i < runs.length; i += 2) {
      at[i / 2 + 1] = FirstPage.BYTES + runs[i] * Long.BYTES;
      bytes[i / 2 + 1] = file.bytesOf(runs[i], runs[i + 1]);
      written += runs[i + 1] * Long.BYTES;
    }
    payload.commit(at, bytes);
    file.forgetChanges();
    privateBytes += written;
    if (privateBytes >= Math.min(MAX_PRIVATE_BYTES, words.bytes() / 2)) {
      file.remap(payload, FirstPage.BYTES);
      privateBytes = 0;
    }
  }

  /** The most bytes of the table a machine-durable filter keeps as its own copy before mapping the file afresh. */
  private static final long MAX_PRIVATE_BYTES = 1L << 30;

  /**
   * Clears the merge record: the merge returned, or is abandoned ({@link
   * dev.cuckoo.MappedFilter#abandonMerge}).
   */
  public void endMerge() {
    if (page != null && merge.active()) {
      beforeChange();
      merge.end();
    }
  }

  /**
   * Checks the file's checksum and that the table and stash hold the items declared.
   *
   * @param items the items the filter counts
   * @param held the fingerprints the table and the stash hold, counted slot by slot
   * @param tailIsClear whether every bit of the table after its last slot is zero
   * @throws CorruptFilterException if anything differs
   * @throws IOException if reading fails
   */
  public void verify(long items, long held, boolean tailIsClear) throws IOException {
    requireOpen();
    payload.verifyChecksum();
    if (held != items) {
      throw new CorruptFilterException(payload.path() + ": " + variant + " payload declares " + items
          + " items, but its table and stash hold " + held + " fingerprints");
    }
    if (!tailIsClear) {
      throw new CorruptFilterException(payload.path() + ": " + variant + " payload has bits set after the last slot"
          + " of its table");
    }
  }

  /**
   * Forces a writable file and closes it; does nothing the second time. If the force fails, the
   * file is closed all the same (and its lock released): the next open recovers it.
   *
   * @param items the items in the table and the stash
   * @param stash the stash
   * @throws IOException if writing or closing fails
   */
  public void close(long items, FingerprintStash stash) throws IOException {
    if (closed) {
      return;
    }
    try {
      if (payload.writable()) {
        force(items, stash);
      }
    } catch (IOException | RuntimeException e) {
      closed = true;
      try {
        payload.close();
      } catch (IOException alsoFailed) {
        e.addSuppressed(alsoFailed);
      }
      throw e;
    }
    closed = true;
    payload.close();
  }
}
