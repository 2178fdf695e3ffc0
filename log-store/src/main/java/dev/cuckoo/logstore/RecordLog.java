package dev.cuckoo.logstore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The append-only log of a {@link LogStore}: one file of records, appended through a buffer,
 * read at any offset, scanned from the start. Not thread-safe for writes; reads of records that
 * are no longer being written may run together.
 *
 * <pre>
 * file:    8 bytes   "CKLG", then the format version (1) as a 4-byte int
 *          records, each starting at a multiple of 8
 * record:  4         CRC32C of the record's bytes from its kind to the end of its value
 *          1         kind: 'P' (a put) or 'D' (a delete, whose value is empty)
 *          3         zero
 *          4         K, the key's length, 0..65536
 *          4         V, the value's length, 0..16 MiB
 *          K         the key
 *          V         the value
 *                    zero bytes to the next multiple of 8
 * </pre>
 *
 * <p>All numbers are big-endian. The checksum lets {@link #scan} tell a record that a crash cut
 * short (the last one, which the store drops) from one that is damaged (anywhere else, which it
 * refuses to open past).
 */
final class RecordLog implements AutoCloseable {
  static final int MAGIC = 0x434B4C47; // "CKLG"
  static final int VERSION = 1;
  static final int FILE_HEADER_BYTES = 8;
  static final int RECORD_HEADER_BYTES = 16;
  static final byte PUT = 'P';
  static final byte DELETE = 'D';
  /** The longest key, 64 KiB. */
  static final int MAX_KEY_BYTES = 1 << 16;
  /** The longest value, 16 MiB. */
  static final int MAX_VALUE_BYTES = 1 << 24;
  /** The end offset a log may not pass: its offsets must fit the index. */
  static final long MAX_END = IndexTable.MAX_UNITS * IndexTable.UNIT;

  private static final int BUFFER_BYTES = 1 << 16;
  /**
   * Bytes per mapped segment. A get reads its record from the mapped log, without a system call
   * (on this project's VM a {@code pread} of a cached page took about 4 µs, the copy from a
   * mapping a few hundred ns); a record that straddles two segments, or lies past what is
   * mapped yet, is read with {@code pread}.
   */
  private static final long SEGMENT_BYTES = 1L << 30;
  /**
   * The tail is mapped again when this much of the log, or a sixteenth of what is mapped, is
   * not: a geometric step, so a log mapped as it grows keeps few stale mappings for the GC to
   * release.
   */
  private static final long REMAP_BYTES = 1 << 20;
  /**
   * Not on Windows: there a mapped file cannot be renamed over, which compaction does, and a
   * mapping is released only when the GC collects it.
   */
  private static final boolean MAPPING = !System.getProperty("os.name", "").startsWith("Windows");
  /** Value bytes the first read of a get takes along with the header and the key. */
  private static final int FIRST_READ_VALUE_BYTES = 496;

  private final Path file;
  private final FileChannel channel;
  /** Opened for reading only: nothing is appended, and a torn last record is skipped, not cut. */
  private final boolean readOnly;
  /** Appended records not yet written to the channel; they start at {@link #written}. */
  private final ByteBuffer pending = ByteBuffer.allocate(BUFFER_BYTES);
  /** Where the channel's bytes end: records from here on are in {@link #pending}. */
  private long written;
  private final CRC32C crc = new CRC32C();
  /**
   * The log's bytes up to {@link #mappedEnd}, memory-mapped: segment {@code k} from offset
   * {@code k · SEGMENT_BYTES}. Changed only by writes (under the store's write lock), read by
   * gets (under its read lock).
   */
  private MappedByteBuffer[] segments = new MappedByteBuffer[0];
  private long mappedEnd;

  /** A log whose records, as far as the channel knows, end where the file does. */
  private RecordLog(Path file, FileChannel channel, boolean readOnly) throws IOException {
    this.file = file;
    this.channel = channel;
    this.readOnly = readOnly;
    this.written = channel.size();
  }

  /**
   * Creates a new, empty log, replacing any file of that name.
   *
   * @param file the file
   * @return the log, its header written and forced to disk
   * @throws IOException if writing fails
   */
  static RecordLog create(Path file) throws IOException {
    FileChannel c = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      ByteBuffer header = ByteBuffer.allocate(FILE_HEADER_BYTES).putInt(MAGIC).putInt(VERSION).flip();
      while (header.hasRemaining()) {
        c.write(header);
      }
      c.force(true);
      return new RecordLog(file, c, false);
    } catch (IOException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /**
   * Opens an existing log for reading and appending; {@link #scan} with {@code verify} must run
   * before anything is appended, to find (and cut off) where its records end.
   *
   * @param file the file
   * @param readOnly whether to open it for reading only: then nothing may be appended, and
   *     {@link #scan} with {@code verify} ends the log before a torn last record rather than
   *     cutting it off the file
   * @return the log
   * @throws IOException if the file is not a log of this format, or reading fails
   */
  static RecordLog open(Path file, boolean readOnly) throws IOException {
    FileChannel c = readOnly
        ? FileChannel.open(file, StandardOpenOption.READ)
        : FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      ByteBuffer header = ByteBuffer.allocate(FILE_HEADER_BYTES);
      readFully(c, header, 0);
      int magic = header.getInt(0);
      int version = header.getInt(4);
      if (header.position() < FILE_HEADER_BYTES || magic != MAGIC) {
        throw new IOException(file + " is not a log store's log: it does not start with \"CKLG\"");
      }
      if (version != VERSION) {
        throw new IOException(file + " is a log of format version " + version + "; this library reads version " + VERSION);
      }
      return new RecordLog(file, c, readOnly);
    } catch (IOException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /** @return the log's file */
  Path file() {
    return file;
  }

  /** @return the offset just past the last record: where the next one goes */
  long end() {
    return written + pending.position();
  }

  /**
   * @param keyLength K
   * @param valueLength V
   * @return the bytes a record of these lengths takes, padding included
   */
  static long recordBytes(int keyLength, int valueLength) {
    return align((long) RECORD_HEADER_BYTES + keyLength + valueLength);
  }

  private static long align(long n) {
    return (n + IndexTable.UNIT - 1) & -IndexTable.UNIT;
  }

  // ---------------------------------------------------------------- appending

  /**
   * Appends a record.
   *
   * @param kind {@link #PUT} or {@link #DELETE}
   * @param key the key, at most {@link #MAX_KEY_BYTES}
   * @param value the value, at most {@link #MAX_VALUE_BYTES} (empty for a delete)
   * @return the record's offset
   * @throws IOException if writing fails, or the log would pass {@link #MAX_END}
   */
  long append(byte kind, byte[] key, byte[] value) throws IOException {
    long offset = end();
    long bytes = recordBytes(key.length, value.length);
    if (offset + bytes > MAX_END) {
      throw new IOException("log " + file + " is full: a record of " + bytes + " bytes at offset " + offset
          + " would pass the " + MAX_END + " bytes its index can address; compact the store");
    }
    crc.reset();
    ByteBuffer header = ByteBuffer.allocate(RECORD_HEADER_BYTES)
        .putInt(0).put(kind).put((byte) 0).putShort((short) 0).putInt(key.length).putInt(value.length);
    crc.update(header.array(), 4, RECORD_HEADER_BYTES - 4);
    crc.update(key);
    crc.update(value);
    header.putInt(0, (int) crc.getValue());
    int padding = (int) (bytes - RECORD_HEADER_BYTES - key.length - value.length);
    if (bytes <= pending.remaining()) {
      pending.put(header.array()).put(key).put(value).put(new byte[padding]);
    } else {
      drain();
      // A gathering write goes where the channel's position is; every other write names its
      // offset, so the position is set here.
      channel.position(written);
      ByteBuffer[] parts = {header.flip(), ByteBuffer.wrap(key), ByteBuffer.wrap(value), ByteBuffer.allocate(padding)};
      long left = bytes;
      while (left > 0) {
        left -= channel.write(parts);
      }
      written += bytes;
      map(false);
    }
    return offset;
  }

  /** Writes the buffered records to the file (not yet forced to disk). */
  void drain() throws IOException {
    if (pending.position() == 0) {
      return;
    }
    pending.flip();
    try {
      while (pending.hasRemaining()) {
        written += channel.write(pending, written);
      }
    } finally {
      pending.compact();
    }
    map(false);
  }

  /**
   * Maps the bytes written to the file that are not mapped yet: all of them, or (for {@code
   * whole} false) only once they are a step's worth. Call it only where no get runs (the store
   * holds its write lock, or has not opened yet), and not before {@link #scan} with {@code
   * verify} has found the log's end.
   */
  void map(boolean whole) throws IOException {
    long unmapped = written - mappedEnd;
    if (!MAPPING || unmapped <= 0 || (!whole && unmapped < Math.max(REMAP_BYTES, mappedEnd / 16))) {
      return;
    }
    int count = (int) ((written + SEGMENT_BYTES - 1) / SEGMENT_BYTES);
    MappedByteBuffer[] s = Arrays.copyOf(segments, count);
    for (int k = (int) (mappedEnd / SEGMENT_BYTES); k < count; k++) {
      long start = k * SEGMENT_BYTES;
      s[k] = channel.map(FileChannel.MapMode.READ_ONLY, start, Math.min(SEGMENT_BYTES, written - start));
    }
    segments = s;
    mappedEnd = written;
  }

  /** Writes the buffered records and forces them to disk: after it, a crash loses none of them. */
  void force() throws IOException {
    drain();
    channel.force(false);
    map(true);
  }

  // ---------------------------------------------------------------- reading

  /**
   * Reads the record at {@code offset} if it is a put of {@code key}.
   *
   * @param offset a record's offset, as {@link #append} returned it
   * @param key the key it should hold
   * @return its value, or {@code null} if the record holds another key
   * @throws IOException if reading fails, or the record is damaged (its checksum does not match)
   */
  byte[] valueIfKey(long offset, byte[] key) throws IOException {
    // One read takes the header, the key and a small value whole (a hit costs one system call);
    // only a longer value needs a second read for the rest.
    int head = RECORD_HEADER_BYTES + key.length;
    int first = (int) Math.min(head + FIRST_READ_VALUE_BYTES, Math.max(head, end() - offset));
    ByteBuffer b = ByteBuffer.allocate(first);
    read(b, offset);
    if (b.position() < head) {
      return null; // cut short: not a whole record of this key
    }
    int keyLength = b.getInt(8);
    int valueLength = b.getInt(12);
    if (b.get(4) != PUT || keyLength != key.length
        || !Arrays.equals(b.array(), RECORD_HEADER_BYTES, head, key, 0, key.length)) {
      return null;
    }
    if (valueLength < 0 || valueLength > MAX_VALUE_BYTES) {
      throw damaged(offset, "value length " + valueLength + " is out of range");
    }
    byte[] value = new byte[valueLength];
    int inFirst = Math.min(valueLength, b.position() - head);
    System.arraycopy(b.array(), head, value, 0, inFirst);
    if (inFirst < valueLength) {
      ByteBuffer rest = ByteBuffer.wrap(value, inFirst, valueLength - inFirst);
      read(rest, offset + head + inFirst);
      if (rest.hasRemaining()) {
        throw damaged(offset, "the log ends inside its value");
      }
    }
    CRC32C check = new CRC32C();
    check.update(b.array(), 4, head - 4);
    check.update(value);
    if ((int) check.getValue() != b.getInt(0)) {
      throw damaged(offset, "its checksum does not match");
    }
    return value;
  }

  private IOException damaged(long offset, String what) {
    return new IOException("log " + file + " is damaged at offset " + offset + ": " + what);
  }

  /** Fills {@code dst} from {@code offset}, from the file or the buffered records. */
  private void read(ByteBuffer dst, long offset) throws IOException {
    int wanted = dst.remaining();
    if (offset + wanted <= mappedEnd) {
      int k = (int) (offset / SEGMENT_BYTES);
      long inSegment = offset - k * SEGMENT_BYTES;
      if (inSegment + wanted <= SEGMENT_BYTES) {
        segments[k].get((int) inSegment, dst.array(), dst.arrayOffset() + dst.position(), wanted);
        dst.position(dst.position() + wanted);
        return;
      }
    }
    if (offset < written) {
      long end = Math.min(written, offset + dst.remaining());
      int limit = dst.limit();
      dst.limit(dst.position() + (int) (end - offset));
      readFully(channel, dst, offset);
      dst.limit(limit);
      offset = end;
    }
    if (dst.hasRemaining()) {
      int from = (int) (offset - written);
      int n = Math.min(dst.remaining(), pending.position() - from);
      if (from < 0 || n < 0) {
        throw new IOException("log " + file + " has no record at offset " + offset);
      }
      dst.put(pending.array(), from, n);
    }
  }

  private static void readFully(FileChannel c, ByteBuffer dst, long offset) throws IOException {
    while (dst.hasRemaining()) {
      int n = c.read(dst, offset);
      if (n < 0) {
        return;
      }
      offset += n;
    }
  }

  // ---------------------------------------------------------------- scanning

  /** What a scan is told of each record. */
  @FunctionalInterface
  interface Visitor {
    /**
     * @param offset the record's offset
     * @param kind {@link #PUT} or {@link #DELETE}
     * @param key the key (a fresh array)
     * @param bytes the bytes the record takes, padding included
     * @throws IOException if the visitor's own reads fail
     */
    void record(long offset, byte kind, byte[] key, long bytes) throws IOException;
  }

  /**
   * Reads the records from the first to {@code until}, in order.
   *
   * <p>With {@code verify}, every record's checksum is checked, and the end of the log is found:
   * a last record that a crash cut short (it runs past the end of the file, or is followed only
   * by zero bytes, or is the last and its checksum fails) is cut off, the file truncated to where
   * it began; a damaged record with records after it is refused. Without {@code verify} (for
   * records this log verified or wrote itself), values are skipped unread.
   *
   * @param until the offset to stop at ({@link #end()} for all)
   * @param verify whether to check checksums and find the end
   * @param visitor told of each record
   * @return the records scanned
   * @throws IOException naming the file and offset of a damaged record, or if reading fails
   */
  long scan(long until, boolean verify, Visitor visitor) throws IOException {
    drain();
    long fileEnd = channel.size();
    long stop = Math.min(until, fileEnd);
    Window window = new Window(fileEnd);
    long offset = FILE_HEADER_BYTES;
    long records = 0;
    CRC32C check = new CRC32C();
    while (offset < stop) {
      String problem = null;
      long bytes = 0;
      byte kind = 0;
      int keyLength = 0;
      int valueLength = 0;
      ByteBuffer b = window.at(offset, RECORD_HEADER_BYTES);
      if (b == null) {
        problem = "the file ends inside its header";
      } else {
        int p = b.position();
        kind = b.get(p + 4);
        keyLength = b.getInt(p + 8);
        valueLength = b.getInt(p + 12);
        if (kind != PUT && kind != DELETE) {
          problem = "its kind " + (kind & 0xFF) + " is neither 'P' nor 'D'";
        } else if (keyLength < 0 || keyLength > MAX_KEY_BYTES || valueLength < 0 || valueLength > MAX_VALUE_BYTES
            || (kind == DELETE && valueLength != 0)) {
          problem = "its lengths (key " + keyLength + ", value " + valueLength + ") are out of range";
        } else {
          bytes = recordBytes(keyLength, valueLength);
          if (offset + bytes > fileEnd) {
            problem = "the file ends inside it";
          }
        }
      }
      byte[] key = null;
      if (problem == null) {
        // The whole record when checking it, else its header and key: values are skipped.
        int need = RECORD_HEADER_BYTES + keyLength + (verify ? valueLength : 0);
        b = window.at(offset, need);
        int p = b.position();
        key = new byte[keyLength];
        b.get(p + RECORD_HEADER_BYTES, key);
        if (verify) {
          check.reset();
          check.update(b.array(), b.arrayOffset() + p + 4, need - 4);
          if ((int) check.getValue() != b.getInt(p)) {
            problem = "its checksum does not match";
          }
        }
      }
      if (problem != null) {
        if (!verify) {
          throw damaged(offset, problem);
        }
        if (!isTornTail(offset, bytes, fileEnd, problem)) {
          throw new IOException("log " + file + " is damaged at offset " + offset + ": " + problem + ", and "
              + (fileEnd - offset) + " bytes of the file follow it; the store will not open past it");
        }
        // A mapping past the cut would fault on its next read: the store maps a log only after
        // this scan, and nothing mapped before it is read again.
        segments = new MappedByteBuffer[0];
        mappedEnd = 0;
        if (!readOnly) {
          channel.truncate(offset);
          channel.force(true);
        }
        written = offset;
        return records;
      }
      visitor.record(offset, kind, key, bytes);
      records++;
      offset += bytes;
    }
    return records;
  }

  /**
   * A sliding window over the file for a scan: reads a megabyte at a time, so a scan costs a
   * read call per megabyte, not per record; grows (up to the largest record) for a record
   * larger than the window.
   */
  private final class Window {
    private final long fileEnd;
    private ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
    /** The file offset of the buffer's first byte. */
    private long start;

    Window(long fileEnd) {
      this.fileEnd = fileEnd;
      buffer.limit(0);
    }

    /**
     * @return the buffer, positioned at {@code offset} with at least {@code n} bytes after it,
     *     or {@code null} if the file ends first
     */
    ByteBuffer at(long offset, int n) throws IOException {
      if (offset + n > fileEnd) {
        return null;
      }
      if (offset < start || offset + n > start + buffer.limit()) {
        if (n > buffer.capacity()) {
          buffer = ByteBuffer.allocate(n);
        }
        buffer.clear();
        int want = (int) Math.min(buffer.capacity(), fileEnd - offset);
        buffer.limit(want);
        readFully(channel, buffer, offset);
        buffer.flip();
        start = offset;
      }
      return buffer.position((int) (offset - start));
    }
  }

  /**
   * Whether a bad record at {@code offset} is what a crash in the middle of an append leaves:
   * nothing of a later record after it.
   */
  private boolean isTornTail(long offset, long bytes, long fileEnd, String problem) throws IOException {
    if (problem.startsWith("the file ends")) {
      return true;
    }
    if (bytes > 0 && offset + bytes == fileEnd) {
      return true; // the last record, damaged: its write did not complete
    }
    // A file system may extend a file before the data lands: zeros from here on are no record.
    ByteBuffer rest = ByteBuffer.allocate(BUFFER_BYTES);
    for (long at = offset; at < fileEnd; at += rest.position()) {
      rest.clear().limit((int) Math.min(rest.capacity(), fileEnd - at));
      readFully(channel, rest, at);
      for (int i = 0; i < rest.position(); i++) {
        if (rest.get(i) != 0) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Copies a record, as it is, to the end of another log (for compaction).
   *
   * @param offset the record's offset here
   * @param bytes the bytes it takes
   * @param to the log to append it to
   * @return its offset there
   * @throws IOException if reading or writing fails
   */
  long copyTo(long offset, long bytes, RecordLog to) throws IOException {
    to.drain();
    long at = to.written;
    for (long done = 0; done < bytes; ) {
      done += channel.transferTo(offset + done, bytes - done, to.channel.position(at + done));
    }
    to.written += bytes;
    return at;
  }

  @Override
  public void close() throws IOException {
    try {
      drain();
    } finally {
      channel.close();
    }
  }
}
