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
 * filter's changes go to the mapping at once; {@link #force} makes them durable and the file
 * consistent. The first change after an open or a force marks the file as being changed (and
 * forces that mark to the file before the change), so a writer that stops between forces leaves
 * a file that {@code open}, {@code openWritable} and {@code read} refuse with an {@link
 * IOException} naming it, never one that opens without keys it had forced. A filter is not
 * thread-safe; two processes may map one file read-only at once, but a writer must have it to
 * itself.
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
   * table's mapped pages, then the items count and the stash, then the file's checksum (a pass
   * over the whole file), then its state as consistent. After it returns, a crash of the process
   * or the machine leaves a file that opens with every key added before the call. Does nothing
   * on a read-only filter or one without changes since its last force.
   *
   * @throws IOException if writing fails
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
   * Forces a writable filter ({@link #force}) and closes the file. Later writes throw {@link
   * IllegalStateException}; the mapping itself is released when the filter is garbage-collected
   * (Java 17 has no way to unmap a buffer at once), so do not use the filter after closing it.
   * Closing twice does nothing.
   *
   * @throws IOException if forcing or closing fails
   */
  @Override
  void close() throws IOException;
}
