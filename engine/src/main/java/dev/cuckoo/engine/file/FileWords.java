package dev.cuckoo.engine.file;

import dev.cuckoo.engine.TableWords;
import dev.cuckoo.internal.io.FileWrites;
import dev.cuckoo.spi.MappedPayload;
import java.io.IOException;
import java.nio.MappedByteBuffer;

/**
 * {@link TableWords} in a mapped file, big-endian as every payload writes them, read and written
 * at the address {@link #address} gives ({@link RawMemory}): one run of memory ({@link
 * ContiguousWords}) or segments apart ({@link SegmentedWords}). A table of any length works: a
 * {@link MappedByteBuffer} holds at most 2 GiB, so the words are mapped in segments of 2^27 longs
 * (1 GiB), which usually land next to one another. The mappings stay referenced, so they live as
 * long as this object, and every store first marks its region ({@link ChangedRegions}), which
 * throws for a read-only file before anything is written, and passes through the file's {@link
 * FileWrites} (nothing, for the operating system's: the JIT compiles it away).
 *
 * <p>Words are mapped shared ({@link #map}: a store is in the file's pages at once) or private
 * ({@link #mapPrivate}, copy-on-write: stores stay in this process until a force commits {@link
 * #changedRuns}, {@code durability=machine}).
 */
abstract class FileWords extends TableWords {
  /** Longs per segment, as a shift: 2^27 longs, 1 GiB. */
  static final int SEGMENT_SHIFT = 27;
  static final long SEGMENT_MASK = (1L << SEGMENT_SHIFT) - 1;

  /**
   * The mappings, referenced so that they stay mapped while this object lives; replaced by
   * {@link #remap} for words mapped private.
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

  /** Whether the words are this process's copy of the file's ({@link #mapPrivate}). */
  private final boolean isPrivate;

  FileWords(MappedByteBuffer[] segments, long length, ChangedRegions changed, UndoRecords undo, MappedPayload payload,
      boolean isPrivate) {
    this.segments = segments;
    this.length = length;
    this.changed = changed;
    this.undo = undo;
    this.payload = payload;
    this.isPrivate = isPrivate;
    this.writes = FileWrites.installed();
  }

  /**
   * Maps words of a payload, shared: every store is in the file's pages at once.
   *
   * @param payload the payload
   * @param at where the words start in it, in bytes
   * @param length how many longs
   * @param undoPage the first page, mapped, whose undo records guard rewrites of several words
   *     ({@link TableWords#openUndo}), or {@code null} for none (a reader, or a test's words)
   * @return them
   * @throws IOException if mapping fails
   */
  static TableWords map(MappedPayload payload, long at, long length, FirstPage undoPage) throws IOException {
    UndoRecords undo = undoPage == null ? null : new UndoRecords(undoPage);
    return of(mapEach(payload, at, length, false), length, new ChangedRegions(payload, at, length), undo, true,
        payload, false);
  }

  /** For tests: {@code runs} false makes the words {@link SegmentedWords} even where the segments touch. */
  static TableWords map(MappedPayload payload, long at, long length, boolean runs) throws IOException {
    return of(mapEach(payload, at, length, false), length, new ChangedRegions(payload, at, length), null, runs,
        payload, false);
  }

  /**
   * Maps words of a payload private, copy-on-write ({@link MappedPayload#mapPrivate}): stores stay
   * in this process until {@link #changedRuns} are committed to the file.
   */
  static TableWords mapPrivate(MappedPayload payload, long at, long length) throws IOException {
    return of(mapEach(payload, at, length, true), length, ChangedRegions.ofPages(payload, at, length), null, true,
        payload, true);
  }

  /** Maps the segments of the words, shared or private. */
  private static MappedByteBuffer[] mapEach(MappedPayload payload, long at, long length, boolean isPrivate)
      throws IOException {
    int count = (int) ((length + SEGMENT_MASK) >>> SEGMENT_SHIFT);
    MappedByteBuffer[] segments = new MappedByteBuffer[count];
    // Last segment first: Linux places each new mapping just below the one before it when the
    // space there is free, so that mapping the segments backwards lays them out forwards.
    for (int s = count - 1; s >= 0; s--) {
      long first = (long) s << SEGMENT_SHIFT;
      long words = Math.min(1L << SEGMENT_SHIFT, length - first);
      segments[s] = isPrivate ? payload.mapPrivate(at + first * Long.BYTES, words * Long.BYTES)
          : payload.map(at + first * Long.BYTES, words * Long.BYTES);
    }
    return segments;
  }

  private static FileWords of(MappedByteBuffer[] segments, long length, ChangedRegions changed, UndoRecords undo,
      boolean runs, MappedPayload payload, boolean isPrivate) {
    long[] addresses = addressesOf(segments);
    if (runs && ContiguousWords.contiguous(addresses)) {
      return new ContiguousWords(segments, addresses.length == 0 ? 0 : addresses[0], length, changed, undo, payload,
          isPrivate);
    }
    return (FileWords) SegmentedWords.of(segments, addresses, length, changed, undo, payload, isPrivate);
  }

  private static long[] addressesOf(MappedByteBuffer[] segments) {
    long[] addresses = new long[segments.length];
    for (int s = 0; s < segments.length; s++) {
      addresses[s] = RawMemory.addressOf(segments[s]);
    }
    return addresses;
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
      return Long.reverseBytes(RawMemory.get(address(index))); // the file is big-endian
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
      RawMemory.put(at, bytes);
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
   * Words mapped private ({@link #mapPrivate}) reach the file only through {@link #changedRuns}
   * and the payload's commit.
   */
  @Override
  public final void force() throws IOException {
    if (isPrivate) {
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

  /**
   * @return the runs of words changed since {@link #forgetChanges}, as pairs of a first word and
   *     a count, none crossing a segment
   */
  final long[] changedRuns() {
    return changed.runs(SEGMENT_SHIFT);
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
    MappedByteBuffer segment = segments[(int) (first >>> SEGMENT_SHIFT)];
    return segment.slice((int) ((first & SEGMENT_MASK) << 3), (int) (count << 3));
  }

  /**
   * For words mapped private, after their changes reached the file: maps the file again and
   * unmaps the old copy, whose changed pages this process held in memory of its own. Only a
   * filter of one thread calls it (no reader may be inside the old mapping).
   *
   * @param payload the payload
   * @param at where the words start in it
   * @throws IOException if mapping fails
   */
  final void remap(MappedPayload payload, long at) throws java.io.IOException {
    MappedByteBuffer[] old = segments;
    MappedByteBuffer[] fresh = mapEach(payload, at, length, true);
    if (!rebase(addressesOf(fresh))) {
      RawMemory.unmap(fresh); // laid out otherwise: keep the copy
      return;
    }
    segments = fresh;
    RawMemory.unmap(old);
  }

  /**
   * Points the words at new mappings of the same file.
   *
   * @return {@code false} if this storage cannot use them (segments that do not touch, for one
   *     that reads one run of memory), changing nothing
   */
  abstract boolean rebase(long[] addresses);
}
