package dev.cuckoo.internal;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.internal.io.FileFault;
import dev.cuckoo.internal.io.FileWrites;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * The journal of a {@code durability=machine} file ({@code FILE.journal}, beside it): the one
 * class that writes it, parses it, replays it and removes it.
 *
 * <p>Layout: "CKJ1", the payload's offset and length in the file (so that a journal is never
 * replayed into another file), the count of ranges, each range's offset in the payload, length
 * and bytes, then the CRC32C of all of it. A journal is whole when its CRC holds and its ranges
 * fill it exactly; only a whole one is ever replayed.
 *
 * <p>Its life: a writer's open makes it, empty, and forces its folder, so that its name survives
 * a power loss before any force needs it ({@link #open}); a force writes the pages it commits
 * into it and forces it ({@link #write}), the file is marked, written and sealed, and it is
 * emptied ({@link #empty}); closing the writer removes it ({@link #remove}). A force cut short
 * before the journal was whole left the file as it was, and the journal is emptied, not replayed;
 * one cut short after left the file marked, and the journal is replayed into it ({@link
 * #replay}) by the next force of the same writer or by the next open. A journal beside a file
 * that is not marked is left over from a force that finished or never began, and the next
 * writer's open empties it.
 */
final class Journal {
  /** "CKJ1": the first bytes of a journal. */
  private static final int MAGIC = 0x434B4A31;
  /** Bytes of a journal before its ranges: magic, payload offset and length, range count. */
  private static final int HEAD = 4 + 8 + 8 + 4;
  /** Bytes of a range before its bytes: offset and length. */
  private static final int RANGE_HEAD = 8 + 4;
  /** Bytes gathered before a write, and read at a time. */
  private static final int BUFFER = 1 << 20;

  private final Path file;
  private final Path path;
  private final FileWrites writes;
  private final long payloadOffset;
  private final long payloadLength;
  /** Open while a writer has the file open; {@code null} before {@link #open} and after {@link #remove}. */
  private FileChannel channel;

  /**
   * @param file the filter file
   * @param writes the writes the file takes
   * @param payloadOffset where its payload starts
   * @param payloadLength the payload's length
   */
  Journal(Path file, FileWrites writes, long payloadOffset, long payloadLength) {
    this.file = file;
    this.path = of(file);
    this.writes = writes;
    this.payloadOffset = payloadOffset;
    this.payloadLength = payloadLength;
  }

  /** @return the journal beside a filter file */
  static Path of(Path file) {
    return file.resolveSibling(file.getFileName() + ".journal");
  }

  /** @return the journal's path */
  Path path() {
    return path;
  }

  /** @return whether a journal lies beside the file */
  boolean exists() {
    return Files.exists(path);
  }

  /** @return whether a journal lies beside the file and holds anything */
  boolean holdsAnything() throws IOException {
    return Files.exists(path) && Files.size(path) > 0;
  }

  /**
   * For a writer's open: opens the journal, making it (empty) if there is none and forcing its
   * folder, so that a folder the journal cannot be made in is refused now rather than at the
   * first force.
   *
   * @throws IOException naming the journal and the cause, if it cannot be made or opened
   */
  void open() throws IOException {
    boolean made = !Files.exists(path);
    try {
      channel = writes.open(path, Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE));
      if (made) {
        writes.forceFolder(path.toAbsolutePath().getParent());
      }
    } catch (IOException e) {
      closeQuietly();
      throw FileFault.of(file, "make its journal " + path + " (a durability=machine file keeps one beside it while"
          + " it is open for writing; its folder must be writable)", 0, e);
    }
  }

  /**
   * Writes ranges as the journal's whole content and forces it. If it fails, the journal is
   * emptied again (a part of one is never left to be taken for the whole), and the file was not
   * touched.
   *
   * @param at each range's offset in the payload
   * @param bytes each range's bytes, from its position to its limit (not moved)
   * @throws IOException naming the journal, the cause and, for a full disk, the bytes it needed
   */
  void write(long[] at, ByteBuffer[] bytes) throws IOException {
    long size = HEAD + 4L;
    for (int i = 0; i < at.length; i++) {
      size += RANGE_HEAD + bytes[i].remaining();
    }
    try {
      writes.truncate(path, channel, 0);
      CRC32C crc = new CRC32C();
      ByteBuffer out = ByteBuffer.allocateDirect(BUFFER);
      out.putInt(MAGIC).putLong(payloadOffset).putLong(payloadLength).putInt(at.length);
      long position = 0;
      for (int i = 0; i < at.length; i++) {
        if (out.remaining() < RANGE_HEAD) {
          position = drain(position, out, crc);
        }
        out.putLong(at[i]).putInt(bytes[i].remaining());
        ByteBuffer range = bytes[i].duplicate();
        while (range.hasRemaining()) {
          if (!out.hasRemaining()) {
            position = drain(position, out, crc);
          }
          int n = Math.min(out.remaining(), range.remaining());
          out.put(range.slice(range.position(), n));
          range.position(range.position() + n);
        }
      }
      position = drain(position, out, crc);
      writes.write(path, channel, ByteBuffer.allocate(4).putInt(0, (int) crc.getValue()), position);
      writes.force(path, channel, true);
    } catch (IOException e) {
      IOException failed = FileFault.of(file, "write its journal " + path, size, e);
      try {
        writes.truncate(path, channel, 0);
      } catch (IOException alsoFailed) {
        failed.addSuppressed(FileFault.of(file, "empty the journal " + path + " it could not finish (the next open"
            + " empties it: the file is not marked, so it is never replayed)", 0, alsoFailed));
      }
      throw failed;
    }
  }

  /** Writes what the buffer gathered and empties it. */
  private long drain(long position, ByteBuffer out, CRC32C crc) throws IOException {
    out.flip();
    crc.update(out.duplicate());
    int n = out.remaining();
    writes.write(path, channel, out, position);
    out.clear();
    return position + n;
  }

  /**
   * Empties the journal once the file was sealed: a file that is not marked is never replayed
   * into, so the emptied journal need not reach the disk.
   *
   * @throws IOException if it cannot be emptied
   */
  void empty() throws IOException {
    if (channel == null) {
      try (FileChannel c = writes.open(path, Set.of(StandardOpenOption.WRITE))) {
        writes.truncate(path, c, 0);
      }
      return;
    }
    writes.truncate(path, channel, 0);
  }

  /**
   * Removes the journal: a writer closing its file, or an open finding one left over.
   *
   * @return whether there was one
   * @throws IOException naming the journal, if it cannot be removed
   */
  boolean remove() throws IOException {
    closeQuietly();
    try {
      return writes.delete(path);
    } catch (IOException e) {
      throw FileFault.of(file, "remove its journal " + path, 0, e);
    }
  }

  private void closeQuietly() {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // closing a channel that wrote nothing it still owes: nothing is lost
      }
      channel = null;
    }
  }

  /**
   * Replays the journal into a file left marked by a force that was cut short after the journal
   * was whole: the journal is read once, checked whole (magic, this payload, ranges inside it
   * that fill it exactly, its CRC) before anything is written, then its ranges are written into
   * the payload. The caller seals the file.
   *
   * @param payload the payload to write the ranges into
   * @param refused how a refusal begins: what the file was found to be
   * @throws CorruptFilterException if there is no whole journal of this file
   * @throws IOException if reading or writing fails
   */
  void replay(MappedEnvelope payload, String refused) throws IOException {
    if (!Files.exists(path)) {
      throw new CorruptFilterException(refused + ", and its journal " + path + " is missing: it cannot be"
          + " recovered; rebuild it, or use the copy written before");
    }
    try (FileChannel j = writes.open(path, Set.of(StandardOpenOption.READ))) {
      Ranges ranges = parse(j, refused);
      ByteBuffer bytes = ByteBuffer.allocate((int) Math.min(BUFFER, Math.max(1, ranges.longest)));
      for (int i = 0; i < ranges.count; i++) {
        long length = ranges.lengths[i];
        for (long done = 0; done < length; ) {
          bytes.clear().limit((int) Math.min(bytes.capacity(), length - done));
          readFully(j, bytes, ranges.positions[i] + done);
          bytes.flip();
          payload.write(ranges.offsets[i] + done, bytes);
          done += bytes.limit();
        }
      }
    }
  }

  /** Where each range of a whole journal is: its offset in the payload, its length, its bytes' position in the journal. */
  private static final class Ranges {
    int count;
    long[] offsets = new long[16];
    long[] lengths = new long[16];
    long[] positions = new long[16];
    long longest;

    void add(long offset, long length, long position) {
      if (count == offsets.length) {
        offsets = java.util.Arrays.copyOf(offsets, count * 2);
        lengths = java.util.Arrays.copyOf(lengths, count * 2);
        positions = java.util.Arrays.copyOf(positions, count * 2);
      }
      offsets[count] = offset;
      lengths[count] = length;
      positions[count] = position;
      count++;
      longest = Math.max(longest, length);
    }
  }

  /**
   * Reads the journal once, front to back: its head, each range's place (skipping its bytes for
   * the CRC only), and its CRC.
   *
   * @throws CorruptFilterException if it is not a whole journal of this file
   */
  private Ranges parse(FileChannel j, String refused) throws IOException {
    long size = j.size();
    String notWhole = refused + " (" + (size == 0 ? "before its journal was written" : "before its journal was"
        + " whole") + "), and its journal " + path + " holds no whole change: it cannot be recovered; rebuild it,"
        + " or use the copy written before";
    if (size < HEAD + 4L) {
      throw new CorruptFilterException(notWhole);
    }
    CRC32C crc = new CRC32C();
    ByteBuffer head = ByteBuffer.allocate(HEAD);
    readFully(j, head, 0);
    head.flip();
    crc.update(head.duplicate());
    if (head.getInt() != MAGIC) {
      throw new CorruptFilterException(notWhole);
    }
    if (head.getLong() != payloadOffset || head.getLong() != payloadLength) {
      throw new CorruptFilterException(refused + ", and its journal " + path + " is of another file");
    }
    int count = head.getInt();
    if (count < 0 || count > (size - HEAD - 4) / RANGE_HEAD) {
      throw new CorruptFilterException(notWhole);
    }
    Ranges ranges = new Ranges();
    ByteBuffer chunk = ByteBuffer.allocate(BUFFER);
    ByteBuffer rangeHead = ByteBuffer.allocate(RANGE_HEAD);
    long position = HEAD;
    for (int i = 0; i < count; i++) {
      if (position + RANGE_HEAD > size - 4) {
        throw new CorruptFilterException(notWhole);
      }
      rangeHead.clear();
      readFully(j, rangeHead, position);
      rangeHead.flip();
      crc.update(rangeHead.duplicate());
      long at = rangeHead.getLong();
      int length = rangeHead.getInt();
      position += RANGE_HEAD;
      if (at < 0 || length < 0 || length > payloadLength - at || length > size - 4 - position) {
        throw new CorruptFilterException(notWhole);
      }
      ranges.add(at, length, position);
      for (long done = 0; done < length; ) {
        chunk.clear().limit((int) Math.min(chunk.capacity(), length - done));
        readFully(j, chunk, position + done);
        chunk.flip();
        crc.update(chunk);
        done += chunk.limit();
      }
      position += length;
    }
    ByteBuffer stored = ByteBuffer.allocate(4);
    if (position != size - 4) {
      throw new CorruptFilterException(notWhole);
    }
    readFully(j, stored, position);
    if (stored.getInt(0) != (int) crc.getValue()) {
      throw new CorruptFilterException(notWhole);
    }
    return ranges;
  }

  /** Fills a cleared buffer with the journal's bytes from {@code at}. */
  private void readFully(FileChannel channel, ByteBuffer into, long at) throws IOException {
    if (!ChannelReads.readFully(channel, into, at)) {
      throw new CorruptFilterException(file + ": its journal " + path + " ends early");
    }
  }
}
