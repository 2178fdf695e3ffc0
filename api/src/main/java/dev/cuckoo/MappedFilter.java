package dev.cuckoo;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A filter whose table is a file the operating system maps into memory: {@link
 * CuckooFilters#open} maps one read-only, {@link CuckooFilters#openWritable} and {@link
 * CuckooFilters#createFile} read-write. It answers every lookup exactly as the filter {@link
 * CuckooFilters#read} would read from the same file, but holds its table in the page cache
 * rather than on the heap, so opening it takes no pass over the table, processes that map one
 * file share its pages, and the table may be larger than the heap.
 *
 * <p>Writes to a read-only filter throw {@link UnsupportedOperationException}. A writable
 * filter's changes go to the mapping at once ({@link Durability#PROCESS}, the default) or to this
 * process's copy of the pages they touch ({@link Durability#MACHINE}); {@link #force} makes them
 * durable and the file consistent. The first change after an open or a force marks the file as
 * being changed (and forces that mark before the change). A writer that stops between forces,
 * however it stops, leaves a file that the next {@code open}, {@code openWritable} or {@link
 * CuckooFilters#recover} brings back (with every add that had returned, or with what the last
 * force left, by durability), and {@link #recovery} says what that open did; {@code read} refuses
 * such a file until then. What each crash and each fault leaves is in the guide ({@code
 * docs/guide/mapped.md}). A filter is not thread-safe unless its spec says {@code
 * concurrency=striped}; any number of processes may map one file read-only at once, but a writer
 * must have it to itself (it holds the file's lock).
 *
 * <p>A write that fails (a full disk, an I/O error, a permission taken away) throws an {@link
 * IOException} naming the file and the cause, or, from a method that declares none ({@code add},
 * {@code remove}, ...), an {@link java.io.UncheckedIOException} wrapping one. The operation that
 * threw may or may not have taken effect; every one that returned before it has, and the file
 * still recovers: {@link #force} and {@link #close} may be called again once the cause is gone,
 * or the next open brings the file back as after a crash.
 *
 * <p>Truncating the file while it is mapped (from another process, say) makes the next access to
 * a page past the new end fail with {@link InternalError} (the JVM's report of a SIGBUS on a
 * mapped buffer); opening checks the file's length, so only a change made after the open can do
 * that.
 */
public interface MappedFilter extends CuckooFilter, Closeable {

  /** @return the file the filter is mapped from */
  Path path();

  /** @return whether the filter was opened for writing */
  boolean isWritable();

  /**
   * Writes every change to the file and waits until the file is on the storage device: the
   * table's changed pages, then the items count and the stash, then the file's checksum (updated
   * from the parts that changed), then its mark as consistent; with {@link Durability#MACHINE}
   * through a journal beside the file. After it returns, a crash of the process or of the machine
   * leaves a file that opens with every key added before the call. Does nothing on a read-only
   * filter or one without changes since its last force. With {@code concurrency=striped}, writers
   * of other threads wait while it runs.
   *
   * @throws IOException if writing fails, naming the file and the cause (for a full disk, the
   *     space needed); the file then stays marked as being changed, and a later force (or the next
   *     open) finishes the job
   * @throws IllegalStateException if the filter is closed
   */
  void force() throws IOException;

  /**
   * Checks the whole file against its checksum and the table against the items it declares: the
   * pass over the table that opening skips. A writable filter is forced first.
   *
   * @throws CorruptFilterException naming what does not match
   * @throws IOException if reading fails
   */
  void verify() throws IOException;

  /**
   * What the open that returned this filter found its file's last writer had left, and did to
   * bring it back: empty if the file was consistent (its last writer forced or closed it).
   *
   * @return the report, if the open recovered the file
   */
  default java.util.Optional<FileRecovery> recovery() {
    return java.util.Optional.empty();
  }

  /**
   * A merge into this file ({@link #addAll(CuckooFilter)}) whose writer stopped before it
   * returned leaves a record in the file of how far it got (with {@link Durability#PROCESS}; a
   * {@link Durability#MACHINE} file keeps what its last force left, from before the merge). Merging
   * the same filter again finishes it: the entries it had moved are not moved twice. A merge of
   * another filter is refused until then, or until {@link #abandonMerge}.
   *
   * @return the entries the unfinished merge had moved, if the file records one
   */
  default java.util.OptionalLong unfinishedMerge() {
    return java.util.OptionalLong.empty();
  }

  /**
   * Forgets the unfinished merge the file records ({@link #unfinishedMerge}): the entries it moved
   * stay, and a merge of another filter may begin. Does nothing if there is none.
   *
   * @throws IOException if the file cannot be written
   * @throws UnsupportedOperationException if the filter is read-only
   */
  default void abandonMerge() throws IOException {}

  /**
   * Forces a writable filter ({@link #force}) and closes the file. Later writes throw {@link
   * IllegalStateException}; the mapping itself is released when the filter is garbage-collected
   * (Java 17 has no way to unmap a buffer at once), so do not use the filter after closing it.
   * Closing twice does nothing.
   *
   * @throws IOException if forcing or closing fails; the file is closed all the same, and the
   *     next open recovers it as after a crash
   */
  @Override
  void close() throws IOException;
}
