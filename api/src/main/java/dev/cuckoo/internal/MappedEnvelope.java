package dev.cuckoo.internal;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.FileRecovery;
import dev.cuckoo.internal.io.FileFault;
import dev.cuckoo.internal.io.FileWrites;
import dev.cuckoo.spi.MappedPayload;
import dev.cuckoo.spi.PayloadInput;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The payload of a version 3 filter file opened for mapping ({@link MappedFiles#open}), and the
 * envelope's part of keeping the file consistent: the mark, the trailing checksum ({@link
 * RegionChecksums}) and, for a {@code durability=machine} file, the journal ({@link Journal}).
 * Every write it makes goes through the file's {@link FileWrites}, and every one that fails is
 * reported by {@link FileFault}, naming the file.
 *
 * <p>The mark: {@link #beginChange} sets it (state 1 and this machine's boot id, one write of 32
 * bytes inside one page) and forces it; {@link #seal} forces what was written, writes the
 * checksum, forces it, then clears the mark (one write) and forces that. A process that dies at
 * any write in between leaves the mark set with its boot id, which {@link Recovery} reads.
 *
 * <p>A file that {@link MappedFiles#createFile} is making is not yet where anyone opens it: its
 * commits write straight into it, with no journal, until {@link #publish} renames it into place.
 */
final class MappedEnvelope implements MappedPayload {
  private Path path;
  private final FileChannel channel;
  private final FileWrites writes;
  private final boolean writable;
  private final long payloadOffset;
  private final long payloadLength;
  private final long markOffset;
  /** Where the file is known to hold zeros from: a new file's payload, else its end. */
  private final long zerosFrom;
  /** The file's checksum by region; made at the first write or checksum, which a reader may never need. */
  private RegionChecksums checksums;
  /** A machine-durable writer's journal; {@code null} for a reader or a process-durable file. */
  private Journal journal;
  private final boolean machine;
  /** Whether the file is where it will be opened: false while {@link MappedFiles#createFile} makes it. */
  private boolean published;
  /**
   * Whether a commit failed after it marked the file: the journal is whole and the file needs it,
   * so the next commit replays it first and a close keeps it.
   */
  private boolean journalNeeded;
  /** What the envelope did before handing the file over, if anything. */
  private FileRecovery recovered;
  /** The mark that says "being changed", with this machine's boot id: made once. */
  private final byte[] changingMark;

  /**
   * @param path the file
   * @param channel its channel, through {@code writes}
   * @param writes the writes the file takes
   * @param writable whether it is open for writing
   * @param header its header
   * @param machine whether its spec asks for {@code durability=machine}
   * @param created whether this is a new file {@link MappedFiles#createFile} is making: zeros
   *     after its header, and not yet published
   */
  MappedEnvelope(Path path, FileChannel channel, FileWrites writes, boolean writable, FilterFile.Header header,
      boolean machine, boolean created) {
    this.path = path;
    this.channel = channel;
    this.writes = writes;
    this.writable = writable;
    this.payloadOffset = header.payloadOffset();
    this.payloadLength = header.payloadLength();
    this.markOffset = header.markOffset();
    this.machine = machine;
    this.zerosFrom = created ? payloadOffset : end();
    this.published = !created;
    this.changingMark = ByteBuffer.allocate(FilterFile.MARK_BYTES).putInt(0, FilterFile.DIRTY)
        .put(FilterFile.MARK_BOOT_ID, BootId.current()).array();
  }

  /**
   * For a machine-durable writer: opens the file's journal (making it if there is none), so that
   * a folder it cannot be made in is refused at the open.
   */
  void openJournal() throws IOException {
    if (machine && writable && journal == null) {
      Journal j = new Journal(path, writes, payloadOffset, payloadLength);
      j.open();
      journal = j;
    }
  }

  /** @return the journal beside the file, whether or not one lies there */
  Journal journal() {
    return journal != null ? journal : new Journal(path, writes, payloadOffset, payloadLength);
  }

  /**
   * Puts a new file where it will be opened, once it is whole and sealed: renames it, forces its
   * folder (so that its name survives a power loss), and opens its journal if it keeps one.
   *
   * @param to the file's name, which must not exist
   * @throws IOException naming the file, if it cannot be renamed
   */
  void publish(Path to) throws IOException {
    try {
      writes.rename(path, to);
    } catch (java.nio.file.FileAlreadyExistsException e) {
      throw e;
    } catch (IOException e) {
      throw FileFault.of(to, "put the new file in place (renaming " + path + ")", 0, e);
    }
    path = to;
    published = true;
    try {
      writes.forceFolder(to.toAbsolutePath().getParent());
    } catch (IOException e) {
      throw FileFault.of(to, "force its folder, which holds its name", 0, e);
    }
    openJournal();
  }

  /** Records what was done to the file before it was handed over. */
  void recovered(FileRecovery report) {
    this.recovered = report;
  }

  @Override
  public Optional<FileRecovery> recovered() {
    return Optional.ofNullable(recovered);
  }

  @Override
  public Path path() {
    return path;
  }

  @Override
  public boolean writable() {
    return writable;
  }

  @Override
  public long length() {
    return payloadLength;
  }

  private long end() {
    return payloadOffset + payloadLength;
  }

  private void requireInside(long at, long bytes) {
    if (at < 0 || bytes < 0 || bytes > payloadLength - at) {
      throw new IllegalArgumentException(
          "bytes [" + at + ", " + at + " + " + bytes + ") are not inside a payload of " + payloadLength);
    }
  }

  @Override
  public MappedByteBuffer map(long at, long bytes) throws IOException {
    requireInside(at, bytes);
    return writes.map(path, channel, writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY,
        payloadOffset + at, bytes);
  }

  @Override
  public MappedByteBuffer mapPrivate(long at, long bytes) throws IOException {
    requireInside(at, bytes);
    if (!writable) {
      throw new UnsupportedOperationException(path + " is open read-only: it has no pages of its own to change");
    }
    return writes.map(path, channel, FileChannel.MapMode.PRIVATE, payloadOffset + at, bytes);
  }

  @Override
  public PayloadInput read(long at, int bytes) throws IOException {
    requireInside(at, bytes);
    ByteBuffer buffer = ByteBuffer.allocate(bytes);
    if (!ChannelReads.readFully(channel, buffer, payloadOffset + at)) {
      throw new CorruptFilterException(path + " ends inside its payload");
    }
    EnvelopeReader reader = new EnvelopeReader(new ByteArrayInputStream(buffer.array()), Math.max(bytes, Long.BYTES));
    reader.allow(bytes);
    return new EnvelopePayloadInput(reader, path.toString(), bytes);
  }

  @Override
  public void write(long at, ByteBuffer bytes) throws IOException {
    requireInside(at, bytes.remaining());
    long position = payloadOffset + at;
    int n = bytes.remaining();
    checksums().changed(position, n);
    try {
      writes.write(path, channel, bytes, position);
    } catch (IOException e) {
      throw FileFault.of(path, "write " + n + " bytes at " + position, n, e);
    }
  }

  @Override
  public void changed(long at, long bytes) {
    requireInside(at, bytes);
    checksums().changed(payloadOffset + at, bytes);
  }

  @Override
  public void beginChange() throws IOException {
    try {
      writes.write(path, channel, ByteBuffer.wrap(changingMark), markOffset);
      writes.force(path, channel, false);
    } catch (IOException e) {
      throw FileFault.of(path, "mark it as being changed", 0, e);
    }
  }

  @Override
  public void seal() throws IOException {
    try {
      writes.force(path, channel, false);
      ByteBuffer crc = ByteBuffer.allocate(4).putInt(0, checksums().checksum(channel, path));
      writes.write(path, channel, crc, end());
      writes.force(path, channel, false);
      writes.write(path, channel, ByteBuffer.allocate(FilterFile.MARK_BYTES), markOffset);
      writes.force(path, channel, false);
    } catch (IOException e) {
      throw FileFault.of(path, "seal it (its checksum and its mark as consistent)", 0, e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>See {@link Journal} for the journal's life. A file not yet published is written and
   * sealed directly: no one can open it before it is whole.
   */
  @Override
  public void commit(long[] at, ByteBuffer[] bytes) throws IOException {
    for (int i = 0; i < at.length; i++) {
      requireInside(at[i], bytes[i].remaining());
    }
    if (!published) {
      writeRanges(at, bytes);
      seal();
      return;
    }
    if (journal == null) {
      throw new IllegalStateException(path + " keeps no journal: it is not open for writing with durability=machine");
    }
    if (journalNeeded) {
      // The last commit failed once its journal was whole, perhaps after it marked the file:
      // finish it from the journal (marked first, in case its mark did not land) before the
      // journal is written again.
      beginChange();
      journal.replay(this, path + " was marked by a force that failed");
      seal();
      journalNeeded = false;
    }
    journal.write(at, bytes);
    try {
      writes.write(path, channel, ByteBuffer.wrap(changingMark), markOffset);
    } catch (IOException e) {
      IOException failed = FileFault.of(path, "mark it as being changed", 0, e);
      try {
        journal.empty(); // the mark was not written: the file is as it was, and needs no journal
      } catch (IOException alsoFailed) {
        failed.addSuppressed(alsoFailed);
      }
      throw failed;
    }
    journalNeeded = true; // the mark is written: from here on the file may need the journal
    try {
      writes.force(path, channel, false);
    } catch (IOException e) {
      throw FileFault.of(path, "mark it as being changed", 0, e);
    }
    writeRanges(at, bytes);
    seal();
    journalNeeded = false;
    try {
      journal.empty();
    } catch (IOException e) {
      // The file is sealed: a journal beside a file that is not marked is never replayed, and the
      // next force or open empties it.
    }
  }

  private void writeRanges(long[] at, ByteBuffer[] bytes) throws IOException {
    for (int i = 0; i < at.length; i++) {
      write(at[i], bytes[i].duplicate());
    }
  }

  /**
   * Replays the journal into a file whose force was cut short after its journal was whole, and
   * seals it ({@link Recovery}).
   *
   * @throws CorruptFilterException if there is no whole journal of this file
   * @throws IOException if reading or writing fails
   */
  void replayJournal() throws IOException {
    Journal beside = journal();
    beside.replay(this, path + " was being changed when its writer or its machine stopped, in the middle of"
        + " a force");
    seal();
    beside.empty();
  }

  @Override
  public void verifyChecksum() throws IOException {
    ByteBuffer stored = ByteBuffer.allocate(4);
    if (!ChannelReads.readFully(channel, stored, end())) {
      throw new CorruptFilterException(path + " ends before its checksum");
    }
    int computed = checksums().verify(channel, path);
    if (stored.getInt(0) != computed) {
      throw new CorruptFilterException(String.format(
          "%s is damaged: checksum mismatch, stored CRC32C 0x%08X, computed 0x%08X", path, stored.getInt(0), computed));
    }
  }

  /**
   * {@inheritDoc} A machine-durable writer's journal goes with it, unless a failed force left the
   * file needing it.
   */
  @Override
  public void close() throws IOException {
    IOException failed = null;
    try {
      channel.close();
    } catch (IOException e) {
      failed = e;
    }
    if (journal != null && !journalNeeded) {
      try {
        journal.remove();
      } catch (IOException e) {
        if (failed == null) {
          failed = e;
        } else {
          failed.addSuppressed(e);
        }
      }
    }
    if (failed != null) {
      throw failed;
    }
  }

  /** @return the bytes read so far to compute checksums, for tests */
  long checksummedBytes() {
    return checksums == null ? 0 : checksums.bytesRead();
  }

  private RegionChecksums checksums() {
    if (checksums == null) {
      checksums = new RegionChecksums(end(), markOffset, zerosFrom);
    }
    return checksums;
  }
}
