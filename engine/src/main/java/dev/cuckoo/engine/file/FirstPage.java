package dev.cuckoo.engine.file;

import dev.cuckoo.engine.FingerprintStash;
import dev.cuckoo.internal.io.FileWrites;
import dev.cuckoo.spi.MappedPayload;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;

/**
 * The first page of a table's payload in layout 3 ({@link TablePayload}), and its one owner: the
 * offsets of its fields, the image a force writes, and, for a writer of a {@code
 * durability=process} file, the page mapped so that the records a writer that dies leaves for the
 * next are stored where the kernel keeps them.
 *
 * <pre>
 * offset  size   field (big-endian)
 * 0       4      payload layout, 3
 * 4       4      sizing: 2 (CuckooSizing.bucketCount) or 1 (0.1.0's legacyBucketCount)
 * 8       8      bucket count m
 * 16      8      items stored
 * 24      8      W, the table's length in longs
 * 32      4      S, stashed fingerprints
 * 36      12·S   each: 8-byte bucket, 4-byte fingerprint
 * 36+12·S ...    zeros up to 1024
 * 1024    32     the merge record ({@link MergeRecord}): zeros unless a merge into the file was
 *                cut short by its writer's death
 * 1056    ...    zeros up to 2048
 * 2048    2048   undo records ({@link UndoRecords}): zeros unless a writer died in the middle of
 *                a rewrite of several words, or of a clear
 * </pre>
 *
 * <p>A force writes the fields, the stash and the zeros after it ({@link #image}, the first
 * {@value #MERGE_AT} bytes), and zeros over the undo records (a record's tag is cleared when its
 * rewrite is done, its words are not); the stash is also written as it changes ({@link
 * TableFile}). The merge record is only ever stored to, word by word. The
 * merge record and the undo records are stored through the mapping, one word at a time, each
 * store ordered after the one before: a process's stores to a shared mapping reach the file's
 * pages in the order they were made, however the process ends.
 */
final class FirstPage {
  /** Its bytes: a page, so that the table after it starts at a multiple of 4096 in the file. */
  static final int BYTES = 4096;
  /** Where the stash starts: its count, then its entries. */
  static final int STASH_AT = 32;
  /** Where the merge record is. */
  static final int MERGE_AT = 1024;
  /** The merge record's bytes. */
  static final int MERGE_BYTES = 32;
  /** Where the undo records are, to the page's end. */
  static final int UNDO_AT = 2048;
  /** Bytes of the undo records: {@link #UNDO_SLOTS} of {@link #UNDO_RECORD_BYTES}. */
  static final int UNDO_BYTES = BYTES - UNDO_AT;
  /** Undo records: as many writers may rewrite a run of words at once. */
  static final int UNDO_SLOTS = 64;
  /** Bytes of one undo record: a tag (first word and count), then up to three words. */
  static final int UNDO_RECORD_BYTES = 32;
  /** The most words one undo record keeps. */
  static final int UNDO_MAX_WORDS = 3;
  /** The undo records' bytes as a forced file holds them; never written to. */
  static final byte[] UNDO_ZEROS = new byte[UNDO_BYTES];

  private final MappedPayload payload;
  private final MappedByteBuffer page;
  private final long address;
  private final FileWrites writes;

  private FirstPage(MappedPayload payload, MappedByteBuffer page, long address, FileWrites writes) {
    this.payload = payload;
    this.page = page;
    this.address = address;
    this.writes = writes;
  }

  /**
   * Maps the first page of a writable payload, for the records a writer keeps in it.
   *
   * @param payload the payload, open for writing
   * @return the page
   * @throws IOException if mapping fails
   */
  static FirstPage map(MappedPayload payload) throws IOException {
    MappedByteBuffer page = payload.map(0, BYTES);
    return new FirstPage(payload, page, RawMemory.addressOf(page), FileWrites.installed());
  }

  /** @return the payload */
  MappedPayload payload() {
    return payload;
  }

  /**
   * Stores a word of the page, through the file's writes: ordered after every store before it
   * and before every store after it (the JIT may move neither across).
   *
   * @param offset a multiple of 8 in the page
   * @param value the word
   */
  void store(int offset, long value) {
    long at = address + offset;
    long bytes = Long.reverseBytes(value); // the file is big-endian
    java.lang.invoke.VarHandle.storeStoreFence();
    try {
      writes.beforeStore(at, bytes);
      RawMemory.put(at, bytes);
    } finally {
      java.lang.ref.Reference.reachabilityFence(page);
    }
    java.lang.invoke.VarHandle.storeStoreFence();
  }

  /**
   * @param offset a multiple of 8 in the page
   * @return the word there
   */
  long load(int offset) {
    try {
      return Long.reverseBytes(RawMemory.get(address + offset));
    } finally {
      java.lang.ref.Reference.reachabilityFence(page);
    }
  }

  /**
   * The bytes a force writes at the start of the page: the fields, the stash, then zeros up to
   * the merge record.
   *
   * @param sizing the sizing the bucket count follows ({@link TablePayload#LAYOUT} or {@link
   *     TablePayload#LEGACY_LAYOUT})
   * @param buckets the bucket count
   * @param items the items in the table and the stash
   * @param tableWords W, the table's longs
   * @param stash the stash
   * @return {@value #MERGE_AT} bytes
   */
  static byte[] image(int sizing, long buckets, long items, long tableWords, FingerprintStash stash) {
    ByteBuffer b = ByteBuffer.allocate(MERGE_AT);
    b.putInt(TablePayload.ALIGNED_LAYOUT).putInt(sizing).putLong(buckets).putLong(items).putLong(tableWords);
    stash.putTo(b);
    return b.array();
  }
}
