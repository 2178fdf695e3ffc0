package dev.cuckoo.engine;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.spi.MappedPayload;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * What keeps a {@link TableFilter} whose table is mapped from a file ({@link TablePayload#open})
 * consistent with its file: the page of fields before the table (items and stash) and the
 * envelope's state and checksum.
 *
 * <p>Before the first change after an open or a force the file is marked as being changed, with
 * the boot id of the machine, and the mark is forced; {@link #force} writes the table's pages,
 * then the fields, then the checksum, and only then marks the file consistent. Between the two,
 * every store a writer makes keeps each stored fingerprint in one of its slots (the kick paths
 * move from the free end, {@link TableWords#openUndo} guards a rewrite of several words) and the
 * stash is written to the first page as it changes ({@link FingerprintStash.Keeper}), so the
 * pages the process stored to, which the kernel writes to the file however the process ends,
 * hold every fingerprint whose add returned. A file left marked by a writer whose process died
 * is recovered by the next writer ({@link #recover}): open records put back, items recounted,
 * checksum rebuilt. After a machine crash the pages written since the last force may have reached
 * the disk in any order or not at all: the boot id tells it, and such a file is refused.
 */
public final class MappedTable implements FingerprintStash.Keeper {
  private final MappedPayload payload;
  private final String variant;
  private final long capacity;
  private final int slots;
  private final int fingerprintBits;
  private final int shards;
  private final long buckets;
  private final long tableWords;
  private final TableWords words;
  /**
   * Whether the filter changed since the file was last consistent: for {@code durability=process}
   * the file is then marked as being changed ({@link MappedPayload#beginChange}), until a seal.
   */
  private boolean changing;
  private boolean closed;
  /**
   * {@code durability=machine}: the table is this process's copy of the file's ({@link
   * TableWords#mapPrivately}), and a force commits its changed pages through the payload's
   * journal, so the file changes only inside a force, whole or not at all.
   */
  private final boolean machine;
  /** Bytes of the private copy written since it was last mapped afresh. */
  private long privateBytes;
  /** This machine's boot id, to write with each mark: made once, so that a write allocates nothing. */
  private final ByteBuffer bootId = ByteBuffer.wrap(BootId.current());
  /** Where the stash is put to be written, made once for the same reason. */
  private final ByteBuffer stashBytes = ByteBuffer.allocate(Integer.BYTES
      + FingerprintStash.DEFAULT_SLOTS * FingerprintStash.ENTRY_BYTES);

  MappedTable(MappedPayload payload, String variant, long capacity, int slots, int fingerprintBits, int shards,
      long buckets, long tableWords, TableWords words, boolean changing, boolean machine) {
    this.machine = machine;
    this.payload = payload;
    this.variant = variant;
    this.capacity = capacity;
    this.slots = slots;
    this.fingerprintBits = fingerprintBits;
    this.shards = shards;
    this.buckets = buckets;
    this.tableWords = tableWords;
    this.words = words;
    this.changing = changing;
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
   * Called before every change to the table, the stash or the items: marks the file as being
   * changed if it is not yet.
   *
   * @throws UnsupportedOperationException if the file was opened read-only
   * @throws IllegalStateException if the filter is closed
   * @throws java.io.UncheckedIOException if the mark cannot be written
   */
  void beforeChange() {
    if (changing) {
      return;
    }
    requireOpen();
    if (!payload.writable()) {
      throw new UnsupportedOperationException(payload.path() + " was opened read-only (CuckooFilters.open): open it"
          + " with CuckooFilters.openWritable to change it");
    }
    if (machine) {
      changing = true; // the file does not change until a force commits
      return;
    }
    try {
      writeBootId();
      payload.beginChange();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot mark " + payload.path() + " as being changed", e);
    }
    changing = true;
  }

  /** Records this machine's boot id in the first page, forced with the mark that follows. */
  void writeBootId() throws IOException {
    if (machine) {
      return; // a crash of any kind leaves the last commit: nothing to tell apart
    }
    payload.write(TablePayload.BOOT_ID_AT, bootId.clear());
  }

  /** {@inheritDoc} Writes the stash into the first page, where a writer that dies leaves it. */
  @Override
  public void stashChanged(FingerprintStash stash) {
    if (machine) {
      return; // the file changes only when a force commits, first page and all
    }
    try {
      stashBytes.clear();
      stash.putTo(stashBytes);
      payload.write(TablePayload.STASH_AT, stashBytes.flip());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot write the stash of " + payload.path(), e);
    }
  }

  /**
   * Brings back a file whose writer died while it was marked as being changed: checks that the
   * machine has not restarted since (the boot id), puts back the words of every open undo record,
   * and leaves the file marked, for {@link #force} to write the recounted items and the checksum.
   *
   * @param words the table's words
   * @throws CorruptFilterException if the machine restarted since the mark, or this cannot tell
   * @throws IOException if reading or writing fails
   */
  void recover(TableWords words) throws IOException {
    byte[] recorded = payload.read(TablePayload.BOOT_ID_AT, BootId.BYTES).readByteArray(BootId.BYTES, "boot id");
    byte[] now = BootId.current();
    if (BootId.isUnknown(recorded) || BootId.isUnknown(now)) {
      throw new CorruptFilterException(payload.path() + " was being changed in place when its writer stopped, and"
          + " whether its process or the whole machine stopped cannot be told ("
          + (BootId.isUnknown(now) ? "this system has no " + BootId.SOURCE : "its writer recorded no boot id")
          + "): after a machine crash its table may lack fingerprints it had forced, so it is not recovered;"
          + " rebuild it");
    }
    if (!java.util.Arrays.equals(recorded, now)) {
      throw new CorruptFilterException(payload.path() + " was being changed in place when the machine stopped (it"
          + " has restarted since: boot id " + BootId.text(recorded) + ", now " + BootId.text(now) + "): the pages"
          + " written since its last force may have reached the disk in any order or not at all, so its table may"
          + " lack fingerprints it had forced; it cannot be recovered: rebuild it, or the copy written before");
    }
    UndoRecords.restore(payload, TablePayload.UNDO_AT, words);
    changing = true;
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException(payload.path() + " is closed");
    }
  }

  /**
   * Makes the file hold what the filter holds, durably: see the class comment.
   *
   * @param items the items in the table and the stash
   * @param stash the stash
   * @throws IOException if writing fails
   */
  void force(long items, FingerprintStash stash) throws IOException {
    requireOpen();
    if (!changing) {
      return;
    }
    byte[] state = TablePayload.state(capacity, slots, fingerprintBits, shards, buckets, items, tableWords, stash);
    if (machine) {
      commit(state);
    } else {
      words.force();
      payload.write(0, ByteBuffer.wrap(state));
      payload.seal();
    }
    changing = false;
  }

  /**
   * {@code durability=machine}'s force: the first page and every page of the table changed since
   * the last commit, through the payload's journal ({@link MappedPayload#commit}); then, once the
   * private copy holds more than it should keep in memory, the file is mapped afresh.
   */
  private void commit(byte[] state) throws IOException {
    FileWords file = (FileWords) words;
    long[] runs = file.changedRuns();
    long[] at = new long[runs.length / 2 + 1];
    ByteBuffer[] bytes = new ByteBuffer[at.length];
    at[0] = 0;
    bytes[0] = ByteBuffer.wrap(state);
    long written = 0;
    for (int i = 0; i < runs.length; i += 2) {
      at[i / 2 + 1] = TablePayload.STATE_BYTES + runs[i] * Long.BYTES;
      bytes[i / 2 + 1] = file.bytesOf(runs[i], runs[i + 1]);
      written += runs[i + 1] * Long.BYTES;
    }
    payload.commit(at, bytes);
    file.forgetChanges();
    privateBytes += written;
    if (privateBytes >= Math.min(MAX_PRIVATE_BYTES, words.bytes() / 2)) {
      file.remap(payload, TablePayload.STATE_BYTES);
      privateBytes = 0;
    }
  }

  /** The most bytes of the table a machine-durable filter keeps as its own copy before mapping the file afresh. */
  private static final long MAX_PRIVATE_BYTES = 1L << 30;

  /**
   * Checks the file's checksum and that the table and stash hold the items declared.
   *
   * @param items the items the filter counts
   * @param held the fingerprints the table and the stash hold, counted slot by slot
   * @param tailIsClear whether every bit of the table after its last slot is zero
   * @throws CorruptFilterException if anything differs
   * @throws IOException if reading fails
   */
  void verify(long items, long held, boolean tailIsClear) throws IOException {
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
   * Forces a writable file and closes it; does nothing the second time.
   *
   * @param items the items in the table and the stash
   * @param stash the stash
   * @throws IOException if writing or closing fails
   */
  void close(long items, FingerprintStash stash) throws IOException {
    if (closed) {
      return;
    }
    try {
      force(items, stash);
    } finally {
      closed = true;
      payload.close();
    }
  }
}
