package dev.cuckoo.engine;

import dev.cuckoo.internal.io.FileWrites;
import dev.cuckoo.spi.MappedPayload;
import java.io.IOException;
import java.nio.MappedByteBuffer;

/**
 * {@link TableWords} in a mapped file, big-endian as every payload writes them, read and written
 * at the address {@link #address} gives: one run of memory ({@link MappedWords}) or segments
 * apart ({@link SegmentedWords}). The mappings stay referenced, so they live as long as this
 * object, and every store first marks its region ({@link ChangedRegions}), which throws for a
 * read-only file before anything is written, and passes through the file's {@link FileWrites}
 * (nothing, for the operating system's: the JIT compiles it away).
 */
abstract class FileWords extends TableWords {
  /**
   * The mappings, referenced so that they stay mapped while this object lives; replaced by
   * {@link #remap} for words mapped privately.
   */
  MappedByteBuffer[] segments;
  private final long length;
  private final ChangedRegions changed;
  /** Where a rewrite of several words keeps them until it is done; {@code null} for none. */
  private final UndoRecords undo;
  /** The payload the words are of, whose path names the file in what a force reports. */
  private final MappedPayload payload;
  /** The writes every store passes through. */
  private final FileWrites writes;

  FileWords(MappedByteBuffer[] segments, long length, ChangedRegions changed, UndoRecords undo, MappedPayload payload) {
    this.segments = segments;
    this.length = length;
    this.changed = changed;
    this.undo = undo;
    this.payload = payload;
    this.writes = FileWrites.installed();
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
    long at = address(index);
    long bytes = Long.reverseBytes(value); // the file is big-endian
    try {
      writes.beforeStore(at, bytes);
      MappedWords.rawPut(at, bytes);
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

  /** {@inheritDoc} A record in the file's first page, for a run of more than one word. */
  @Override
  public final int openUndo(long first, long last) {
    if (first == last || undo == null) {
      return -1;
    }
    changed.mark(first); // for a read-only file this throws before anything is written
    return undo.open(this, first, last);
  }

  /**
   * {@inheritDoc} Behind an undo record that says "clearing": a writer that dies in the middle
   * leaves words of some buckets zeroed and of others not, and a bucket straddling two words half
   * of each, which the next writer would not know from damage; it finishes the clear instead.
   */
  @Override
  public final void clear() {
    if (undo == null) {
      super.clear();
      return;
    }
    changed.mark(0); // for a read-only file this throws before anything is written
    int record = undo.openClear();
    super.clear();
    undo.close(record);
  }

  @Override
  public final void closeUndo(int record) {
    if (record >= 0) {
      undo.close(record);
    }
  }

  @Override
  public final void shareWriters() {
    if (undo != null) {
      undo.share();
    }
  }

  @Override
  public final long bytes() {
    return length * Long.BYTES;
  }

  /**
   * Writes the changed pages of every segment to the file and waits for them, and reports the
   * regions stored to since the last force to the payload ({@link ChangedRegions#report}).
   * Words mapped privately ({@link #mapPrivately}) reach the file only through {@link
   * #changedRuns} and the payload's commit.
   */
  @Override
  public final void force() throws IOException {
    if (privately) {
      return;
    }
    for (MappedByteBuffer segment : segments) {
      try {
        writes.force(payload.path(), segment);
      } catch (IOException e) {
        throw dev.cuckoo.internal.io.FileFault.of(payload.path(), "write its table's changed pages", 0, e);
      }
    }
    changed.report();
  }

  /** Whether the words are this process's copy of the file's ({@link MappedPayload#mapPrivate}). */
  boolean privately;

  /**
   * @return the runs of words changed since {@link #forgetChanges}, as pairs of a first word and
   *     a count, none crossing a segment
   */
  final long[] changedRuns() {
    return changed.runs(MappedWords.SEGMENT_SHIFT);
  }

  /** Unmarks every change: they reached the file. */
  final void forgetChanges() {
    changed.clear();
  }

  /**
   * @param first a word
   * @param count words from there, all in its segment
   * @return their bytes as the file lays them out, a view of the mapping
   */
  final java.nio.ByteBuffer bytesOf(long first, long count) {
    MappedByteBuffer segment = segments[(int) (first >>> MappedWords.SEGMENT_SHIFT)];
    return segment.slice((int) ((first & MappedWords.SEGMENT_MASK) << 3), (int) (count << 3));
  }

  /**
   * For words mapped privately, after their changes reached the file: maps the file again and
   * unmaps the old copy, whose changed pages this process held in memory of its own. Only a
   * filter of one thread calls it (no reader may be inside the old mapping).
   *
   * @param payload the payload
   * @param at where the words start in it
   * @throws IOException if mapping fails
   */
  final void remap(MappedPayload payload, long at) throws java.io.IOException {
    MappedByteBuffer[] old = segments;
    MappedByteBuffer[] fresh = MappedWords.mapEach(payload, at, length, true);
    long[] addresses = new long[fresh.length];
    for (int s = 0; s < fresh.length; s++) {
      addresses[s] = MappedWords.addressOf(fresh[s]);
    }
    if (!rebase(addresses)) {
      MappedWords.unmap(fresh); // laid out otherwise: keep the copy
      return;
    }
    segments = fresh;
    MappedWords.unmap(old);
  }

  /**
   * Points the words at new mappings of the same file.
   *
   * @return {@code false} if this storage cannot use them (segments that do not touch, for one
   *     that reads one run of memory), changing nothing
   */
  abstract boolean rebase(long[] addresses);
}
