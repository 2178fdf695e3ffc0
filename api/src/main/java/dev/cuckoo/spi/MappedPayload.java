package dev.cuckoo.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

/**
 * A variant's payload inside a filter file that is mapped rather than read: what {@link
 * FilterProvider#open} and {@link FilterProvider#createIn} are handed. The envelope around it has
 * been checked (header, hash, the file's length); the payload's own fields are the variant's to
 * check, by their ranges, never by a pass over the table. The payload starts at a file offset
 * that is a multiple of 4096.
 *
 * <p>A writer calls {@link #beginChange} before its first change after an open or a {@link
 * #seal}, reports what it changed through a mapping with {@link #changed}, and calls {@link
 * #seal} after forcing its mappings and writing its fields.
 *
 * <p>Every write the payload makes fails with an {@link IOException} that names the file and the
 * cause (for a full disk, the space the write needed), never with an error of the JVM.
 */
public interface MappedPayload {

  /** @return the file, for messages */
  Path path();

  /** @return whether the file is open for writing */
  boolean writable();

  /** @return the payload's length in bytes */
  long length();

  /**
   * Maps part of the payload: read-write if the file is open for writing, else read-only.
   *
   * @param at the offset in the payload
   * @param bytes the length, at most {@link Integer#MAX_VALUE}
   * @return the mapping, in big-endian order
   * @throws IOException if mapping fails
   * @throws IllegalArgumentException if the range is not inside the payload
   */
  MappedByteBuffer map(long at, long bytes) throws IOException;

  /**
   * Maps part of the payload copy-on-write: stores reach this process's own copy of the pages
   * they touch, never the file, until {@link #commit} writes them there. For a filter whose file
   * must survive the machine's crash ({@code durability=machine}): between commits the file is
   * exactly what the last one left.
   *
   * @param at the offset in the payload
   * @param bytes the length, at most {@link Integer#MAX_VALUE}
   * @return the mapping, in big-endian order
   * @throws IOException if mapping fails
   * @throws UnsupportedOperationException if the file is not open for writing
   */
  default MappedByteBuffer mapPrivate(long at, long bytes) throws IOException {
    throw new UnsupportedOperationException("this payload maps no private copy");
  }

  /**
   * Writes ranges of bytes into the payload as one change that a crash of the process or of the
   * machine leaves whole or not at all, then {@link #seal}s the file: the ranges are written to
   * a journal beside the file ({@code FILE.journal}) and forced, the file is marked as being
   * changed, the ranges are written into it and forced, and the file is sealed. The next open of
   * a file left marked replays the journal. The journal takes as many bytes as the ranges, and is
   * emptied after the seal. A commit that fails before its journal is whole leaves the file as it
   * was and no journal; one that fails after leaves the file marked with its journal whole, which
   * the next commit (or the next open) finishes first.
   *
   * @param at each range's offset in the payload
   * @param bytes each range's bytes, from its position to its limit
   * @throws IOException if writing fails
   */
  default void commit(long[] at, ByteBuffer[] bytes) throws IOException {
    throw new UnsupportedOperationException("this payload keeps no journal");
  }

  /**
   * Reads part of the payload as a stream that reports a short read as a corrupt file.
   *
   * @param at the offset in the payload
   * @param bytes how many bytes the stream holds
   * @return them
   * @throws IOException if reading fails
   */
  PayloadInput read(long at, int bytes) throws IOException;

  /**
   * Writes bytes into the payload, without forcing them.
   *
   * @param at the offset in the payload
   * @param bytes what to write, from its position to its limit
   * @throws IOException if writing fails
   */
  void write(long at, ByteBuffer bytes) throws IOException;

  /**
   * Reports bytes changed through a mapping since the last {@link #seal}, so that the seal
   * rereads them for the checksum; bytes written through {@link #write} need no report. A change
   * not reported leaves the checksum wrong, which {@link #verifyChecksum} then reports.
   *
   * @param at the offset in the payload
   * @param bytes how many bytes from there
   * @throws IllegalArgumentException if the range is not inside the payload
   */
  void changed(long at, long bytes);

  /**
   * What the envelope did to the file before handing it over, if anything: a journal replayed
   * (a force of a machine-durable file cut short) or left over and removed. A variant's filter
   * reports it as its {@link dev.cuckoo.MappedFilter#recovery}.
   *
   * @return the report, or empty
   */
  default java.util.Optional<dev.cuckoo.FileRecovery> recovered() {
    return java.util.Optional.empty();
  }

  /**
   * Marks the file as being changed, with this machine's boot id, and forces the mark to the
   * storage device: a file whose writer's process stops before its next {@link #seal} is then
   * recovered by the next writer ({@link FilterProvider#recover}), and one whose machine stops is
   * refused. One write sets the mark, so a writer killed in the middle leaves it set or not.
   *
   * @throws IOException if writing fails
   */
  void beginChange() throws IOException;

  /**
   * Forces what was written through {@link #write}, computes and writes the file's checksum, and
   * marks the file consistent. The variant forces its own mappings first. The checksum is
   * updated from what changed ({@link #changed}, {@link #write}) since the last seal: only
   * those parts of the file, and parts never read before, are read.
   *
   * @throws IOException if writing fails
   */
  void seal() throws IOException;

  /**
   * Reads the whole file, whatever is known of it, and compares it with its checksum.
   *
   * @throws dev.cuckoo.CorruptFilterException if they differ
   * @throws IOException if reading fails
   */
  void verifyChecksum() throws IOException;

  /**
   * Closes the file.
   *
   * @throws IOException if closing fails
   */
  void close() throws IOException;

  /** Creates the payload of a new file once its length is known ({@link FilterProvider#realign}). */
  @FunctionalInterface
  interface Factory {
    /**
     * @param length the payload's length in bytes
     * @return the new payload, writable, zeros
     * @throws IOException if the file cannot be created at that length
     */
    MappedPayload create(long length) throws IOException;
  }
}
