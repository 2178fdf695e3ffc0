package dev.cuckoo.engine;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.spi.MappedPayload;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * What keeps a {@link TableFilter} whose table is mapped from a file ({@link
 * TablePayload#open}) consistent with its file: the page of fields before the table (items and
 * stash, which live on the heap while the filter is open) and the envelope's state and checksum.
 *
 * <p>Pages of a mapping reach the file in any order and at any time, so a writer that stops in
 * the middle of a kick path may leave a forced key half-moved in the file. The file is therefore
 * marked as being changed, and the mark forced, before the first change after an open or a
 * force; {@link #force} writes the table's pages, then the fields, then the checksum, and only then
 * marks the file consistent. A file left marked is refused at the next open: it never opens
 * without a key it had forced.
 */
public final class MappedTable {
  private final MappedPayload payload;
  private final String variant;
  private final long capacity;
  private final int slots;
  private final int fingerprintBits;
  private final int shards;
  private final long buckets;
  private final long tableWords;
  private final TableWords words;
  /** Whether the file is marked as being changed: after {@link MappedPayload#beginChange}, until a seal. */
  private boolean changing;
  private boolean closed;

  MappedTable(MappedPayload payload, String variant, long capacity, int slots, int fingerprintBits, int shards,
      long buckets, long tableWords, TableWords words, boolean changing) {
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
    try {
      payload.beginChange();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot mark " + payload.path() + " as being changed", e);
    }
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
    words.force();
    payload.write(0, ByteBuffer.wrap(TablePayload.state(capacity, slots, fingerprintBits, shards, buckets, items,
        tableWords, stash)));
    payload.seal();
    changing = false;
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
