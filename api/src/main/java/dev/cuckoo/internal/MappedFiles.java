package dev.cuckoo.internal;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.Durability;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.internal.FilterFile.Header;
import dev.cuckoo.internal.io.FileFault;
import dev.cuckoo.internal.io.FileWrites;
import dev.cuckoo.spi.FilterProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.Set;

/**
 * The life of a filter file whose table is mapped where it lies: {@link #open} maps a version 3
 * file, {@link #createFile} makes a new one, and {@link #convert} writes any file again in its
 * variant's current format version. The envelope, its layout and its stream codec are {@link
 * FilterFile}'s; this class adds what a file on disk needs around them: its length checked
 * against its header, a new file made whole under another name and renamed into place, the
 * file's lock, and, at a writer's open, {@link Recovery}.
 *
 * <p>A writer holds the file's exclusive lock while it has the file open, so a second writer is
 * refused, and a reader of a file marked as being changed learns from the lock whether a writer is
 * at work ({@link #liveWriterMessage}) or one stopped, whose file a writer's open recovers ({@link
 * #recover}). Every write goes through {@link FileWrites}.
 */
public final class MappedFiles {
  private MappedFiles() {}

  /**
   * Opens a version 3 file and maps its variant's table where it lies, checking the header, its
   * checksum, the state and the file's length, but not the whole file's checksum.
   *
   * @param path the file
   * @param writable whether to open it read-write
   * @return the filter
   * @throws CorruptFilterException if the header is damaged, the length is not what the header
   *     says, the file was left being changed, or the variant refuses its payload's fields
   * @throws UnsupportedOperationException if the variant cannot be mapped, or the file is of an
   *     older version, whose payload is not aligned (the message says how to convert it)
   * @throws IOException if reading fails, or another process is writing the file
   */
  public static dev.cuckoo.MappedFilter open(Path path, boolean writable) throws IOException {
    return open(path, writable, null);
  }

  /**
   * @param recovered what a writer's open just did to the file, for a reader's open after it to
   *     report, or {@code null}
   */
  private static dev.cuckoo.MappedFilter open(Path path, boolean writable, dev.cuckoo.FileRecovery recovered)
      throws IOException {
    Objects.requireNonNull(path, "path must not be null");
    requireNotDirectory(path);
    FileWrites writes = FileWrites.installed();
    FileChannel channel = writes.open(path, writable ? Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE)
        : Set.of(StandardOpenOption.READ));
    try {
      if (writable && !locked(channel)) {
        throw new IOException(path + " is being written by another writer (it holds the file's lock)");
      }
      // The header is read in a few small pieces, each what its length fields allow: a page of
      // buffer holds any but a huge spec at once, where a whole file's reader takes 64 KiB.
      EnvelopeReader r = new EnvelopeReader(Channels.newInputStream(channel), FilterFile.PAYLOAD_ALIGNMENT);
      Header header;
      try {
        header = FilterFile.header(r);
      } catch (CorruptFilterException e) {
        throw new CorruptFilterException(path + ": " + e.getMessage(), e);
      }
      if (header.version() < FilterFile.FORMAT_VERSION) {
        // A variant that never maps is told as such: converting its file would change nothing.
        if (ProviderRegistry.isInstalled(header.variant()) && !ProviderRegistry.mapsFiles(header.variant())) {
          throw notMappable(header.variant());
        }
        // A version 3 file whose version field was damaged reads as an older header whose file
        // would end right after its payload: its length tells it from a real older file.
        requireLength(path, channel, header, "(truncated, extended, or its format version field is damaged)");
        throw new UnsupportedOperationException(path + " is a filter file of format version " + header.version()
            + ", whose table is not aligned for mapping; CuckooFilters.read still reads it, and"
            + " CuckooFilters.convert (or 'cuckoo convert " + path + " OUT') rewrites it as version "
            + FilterFile.FORMAT_VERSION + ", which opens mapped");
      }
      if (header.dirty() && !writable) {
        if (writerHolds(channel)) {
          throw new IOException(liveWriterMessage(path));
        }
        // Its writer is gone: recovered by a writer's open, if this process may write the file.
        channel.close();
        if (!java.nio.file.Files.isWritable(path)) {
          throw new CorruptFilterException(stoppedWriterMessage(path) + "; this process may not write it: recover it"
              + " as a user who may ('cuckoo recover " + path + "', or CuckooFilters.recover)");
        }
        dev.cuckoo.FileRecovery report;
        try (dev.cuckoo.MappedFilter writer = open(path, true, null)) {
          report = writer.recovery().orElse(null);
        }
        return open(path, false, report);
      }
      requireLength(path, channel, header, "(truncated, or extended)");
      ProviderRegistry.Resolved resolved;
      try {
        resolved = FilterFile.resolve(header.variant(), header.spec(), header.hashCheck(), null);
      } catch (IllegalArgumentException e) {
        throw new CorruptFilterException(path + " cannot be opened: " + e.getMessage(), e);
      }
      FilterProvider provider = resolved.provider();
      if (!provider.mapsFiles()) {
        throw notMappable(provider.name());
      }
      FilterSpec spec = resolved.spec();
      MappedEnvelope payload = new MappedEnvelope(path, channel, writes, writable, header,
          spec.durability() == Durability.MACHINE, false);
      if (recovered != null) {
        payload.recovered(recovered);
      }
      try {
        return writable ? Recovery.openWritable(provider, spec, header, payload) : provider.open(spec, payload);
      } catch (RuntimeException e) {
        throw new CorruptFilterException(path + ": payload of variant " + header.variant() + " cannot be mapped: " + e, e);
      }
    } catch (IOException | RuntimeException | Error e) {
      channel.close();
      throw e;
    }
  }

  /**
   * Creates a new file holding an empty filter of the spec and maps it read-write. The file is
   * made whole under another name beside it ({@link #creating}): its header, zeros over its
   * whole length (so that the file system gives it all its blocks now, and no later store into
   * its mapping finds the disk full), the payload's first page, its checksum and a clear mark,
   * forced; only then is it renamed into place and its folder forced. A creation cut short, by a
   * failure or a crash, leaves no file at {@code path}.
   *
   * @param resolved the provider and resolved spec
   * @param path the file, which must not exist
   * @return the filter
   * @throws UnsupportedOperationException if the variant cannot be mapped
   * @throws java.nio.file.FileAlreadyExistsException if the file exists
   * @throws IOException if another process is creating it, or writing fails (naming the cause;
   *     for a full disk, the bytes the file needs)
   */
  public static dev.cuckoo.MappedFilter createFile(ProviderRegistry.Resolved resolved, Path path) throws IOException {
    Objects.requireNonNull(path, "path must not be null");
    FilterProvider provider = resolved.provider();
    FilterSpec spec = resolved.spec();
    long payloadLength = provider.mappedPayloadLength(spec).orElseThrow(() -> notMappable(provider.name()));
    requireAbsent(path);
    FileWrites writes = FileWrites.installed();
    Path temporary = creating(path);
    FileChannel channel = newLockedFile(path, temporary, writes);
    MappedEnvelope payload = null;
    try {
      payload = newPayload(path, temporary, channel, writes, spec, payloadLength);
      dev.cuckoo.MappedFilter filter = provider.createIn(spec, payload);
      filter.force(); // seals it: a file no one can open yet needs no journal
      writes.delete(Journal.of(path)); // one left by a file of the same name that is gone: not this file's
      payload.publish(path);
      return filter;
    } catch (IOException | RuntimeException | Error e) {
      discard(path, payload == null ? temporary : payload.path(), channel, writes, e);
      throw e;
    }
  }

  /**
   * Closes and removes what a creation that failed had made, as far as the file system lets it:
   * what fails here is added to the failure, which it does not replace.
   */
  private static void discard(Path path, Path made, FileChannel channel, FileWrites writes, Throwable failure) {
    try {
      channel.close();
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
    try {
      writes.delete(made);
    } catch (IOException e) {
      failure.addSuppressed(FileFault.of(path, "remove " + made + ", which the failed creation had made", 0, e));
    }
  }

  /** @return the name a new file is made under until it is whole: hidden, beside it */
  static Path creating(Path path) {
    return path.resolveSibling("." + path.getFileName() + ".creating");
  }

  /** @throws java.nio.file.FileAlreadyExistsException if something is at {@code path} */
  private static void requireAbsent(Path path) throws java.nio.file.FileAlreadyExistsException {
    if (java.nio.file.Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      throw new java.nio.file.FileAlreadyExistsException(path.toString(), null,
          "a new filter file is made only where there is no file");
    }
  }

  /**
   * @param path the file being made, for messages
   * @param temporary the name it is made under
   * @return a new, empty file at {@code temporary}, open read-write, whose lock this process
   *     holds; a file left there by a creation that was killed (no process holds its lock) is
   *     removed first
   * @throws IOException if another process is making the same file, or the file cannot be made
   */
  private static FileChannel newLockedFile(Path path, Path temporary, FileWrites writes) throws IOException {
    Set<StandardOpenOption> options = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    for (int attempt = 0; ; attempt++) {
      FileChannel channel;
      try {
        channel = writes.open(temporary, options);
      } catch (java.nio.file.FileAlreadyExistsException e) {
        if (attempt == 0 && isStale(temporary, writes)) {
          continue;
        }
        throw new IOException(path + " is being made by another process now (it holds " + temporary + ")", e);
      } catch (IOException e) {
        throw FileFault.of(path, "make it (as " + temporary + ", until it is whole)", 0, e);
      }
      try {
        if (!locked(channel)) {
          throw new IOException(path + " is being made by another process now (it holds " + temporary + ")");
        }
        return channel;
      } catch (IOException | RuntimeException | Error e) {
        channel.close();
        throw e;
      }
    }
  }

  /** @return whether a file a creation is made under was left by one that stopped: removed, if so */
  private static boolean isStale(Path temporary, FileWrites writes) throws IOException {
    try (FileChannel old = writes.open(temporary, Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE))) {
      if (!locked(old)) {
        return false;
      }
      writes.delete(temporary);
      return true;
    } catch (java.nio.file.NoSuchFileException gone) {
      return true;
    }
  }

  /** Bytes copied at a time by {@link #convert}. */
  private static final int COPY_BYTES = 1 << 20;

  /**
   * Writes the header of a version 3 file into a new, empty file, and zeros after it over the
   * whole file, so that the file system gives the file every block it will hold now: a store
   * into a mapped page the file system cannot back faults in the JVM rather than failing as a
   * write, so a full disk must be met here.
   *
   * @param path the file being made, for messages
   * @param temporary where it is made
   * @return the payload, writable, zeros
   */
  private static MappedEnvelope newPayload(Path path, Path temporary, FileChannel channel, FileWrites writes,
      FilterSpec spec, long payloadLength) throws IOException {
    java.io.ByteArrayOutputStream head = new java.io.ByteArrayOutputStream();
    EnvelopePayloadOutput o = new EnvelopePayloadOutput(head);
    FilterFile.writeHeader(o, spec, ProviderRegistry.hashOf(spec), payloadLength, true);
    o.checksum(); // drains into head
    byte[] header = head.toByteArray();
    long length = header.length + payloadLength + 4;
    String making = "make it: a filter file takes all its " + length + " bytes when it is made (so that no store"
        + " into its mapping finds the disk full later)";
    if (usableSpace(temporary) < length) {
      // Refused before a byte is written: filling the disk to find out would starve its other users.
      throw FileFault.of(path, making, length, new IOException("No space left on device"));
    }
    try {
      writes.write(temporary, channel, ByteBuffer.wrap(header), 0);
      writes.allocate(temporary, channel, header.length, length - header.length);
    } catch (IOException e) {
      try {
        writes.truncate(temporary, channel, 0); // gives the disk back, so that the error says what it has free
      } catch (IOException alsoFailed) {
        e.addSuppressed(alsoFailed);
      }
      throw FileFault.of(path, making, length, e);
    }
    Header parsed = FilterFile.readHeader(new java.io.ByteArrayInputStream(header));
    return new MappedEnvelope(temporary, channel, writes, true, parsed, spec.durability() == Durability.MACHINE, true);
  }

  /** @return the bytes the file system of {@code file} has free for this process, or {@code Long.MAX_VALUE} if it does not say */
  private static long usableSpace(Path file) {
    try {
      long usable = java.nio.file.Files.getFileStore(file.toAbsolutePath().getParent()).getUsableSpace();
      return usable > 0 ? usable : Long.MAX_VALUE; // 0 may be a file system that does not tell: the write finds out
    } catch (IOException | RuntimeException unknown) {
      return Long.MAX_VALUE;
    }
  }

  /**
   * Writes a filter file again, to a new file, in the current format version of its variant: see
   * {@link dev.cuckoo.CuckooFilters#convert}. An older file of a variant that maps is rewritten by
   * {@link FilterProvider#realign}, its table streamed into the new file; a current one is copied;
   * any other file is read and written again. The new file is made under another name ({@link
   * #creating}), checked, forced, and renamed into place: a conversion cut short, by a failure or
   * a crash, leaves no file at {@code to}.
   *
   * @param from the file to read
   * @param to the file to write, which must not exist
   * @return the format version written
   * @throws CorruptFilterException if {@code from} is damaged or refused as {@link FilterFile#read} refuses it
   * @throws IOException if {@code to} exists, or reading or writing fails
   */
  public static int convert(Path from, Path to) throws IOException {
    Objects.requireNonNull(from, "from must not be null");
    Objects.requireNonNull(to, "to must not be null");
    Header header = headerOf(from);
    boolean maps = ProviderRegistry.mapsFiles(header.variant());
    boolean current = maps && header.version() >= FilterFile.FORMAT_VERSION;
    if (current) {
      // Already current: checked whole as open and verify check it, then copied.
      try (dev.cuckoo.MappedFilter mapped = open(from, false)) {
        mapped.verify();
      }
    }
    requireAbsent(to);
    FileWrites writes = FileWrites.installed();
    Path temporary = creating(to);
    FileChannel channel = newLockedFile(to, temporary, writes);
    try {
      int version;
      if (current) {
        try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ)) {
          ByteBuffer buffer = ByteBuffer.allocateDirect(COPY_BYTES);
          for (long at = 0; ; ) {
            buffer.clear();
            if (in.read(buffer, at) < 0) {
              break;
            }
            buffer.flip();
            int n = buffer.remaining();
            writeTo(to, temporary, channel, writes, buffer, at);
            at += n;
          }
        }
        version = FilterFile.FORMAT_VERSION;
      } else if (maps) {
        try (InputStream in = new java.io.BufferedInputStream(java.nio.file.Files.newInputStream(from), 1 << 16)) {
          realign(in, to, temporary, channel, writes);
        } catch (CorruptFilterException e) {
          throw new CorruptFilterException(from + ": " + e.getMessage(), e);
        }
        // The old file's checksum held, but not yet its table's encoding: the new file is checked
        // as a reader of it would check it, the table against the items it declares included.
        try (dev.cuckoo.MappedFilter written = open(temporary, false)) {
          written.verify();
        } catch (CorruptFilterException e) {
          throw new CorruptFilterException(from + ": its table is not valid (" + e.getMessage() + ")", e);
        }
        version = FilterFile.FORMAT_VERSION;
      } else {
        CuckooFilter filter;
        try (InputStream in = new java.io.BufferedInputStream(java.nio.file.Files.newInputStream(from), 1 << 16)) {
          filter = FilterFile.read(in, null);
        } catch (CorruptFilterException e) {
          throw new CorruptFilterException(from + ": " + e.getMessage(), e);
        }
        try (OutputStream out = new java.io.BufferedOutputStream(new ChannelOutput(to, temporary, channel, writes),
            1 << 16)) {
          filter.writeTo(out);
        }
        version = FilterFile.UNALIGNED_VERSION;
      }
      try {
        writes.force(temporary, channel, true); // on the storage device before it is renamed into place
        writes.rename(temporary, to);
        writes.forceFolder(to.toAbsolutePath().getParent());
      } catch (java.nio.file.FileAlreadyExistsException e) {
        throw e;
      } catch (IOException e) {
        throw FileFault.of(to, "put the converted file in place", 0, e);
      }
      channel.close();
      return version;
    } catch (IOException | RuntimeException | Error e) {
      discard(to, temporary, channel, writes, e);
      throw e;
    }
  }

  /** Writes bytes of a file being made, naming it if that fails. */
  private static void writeTo(Path path, Path temporary, FileChannel channel, FileWrites writes, ByteBuffer bytes,
      long at) throws IOException {
    int n = bytes.remaining();
    try {
      writes.write(temporary, channel, bytes, at);
    } catch (IOException e) {
      throw FileFault.of(path, "write " + n + " bytes at " + at + " (of " + temporary + ", until it is whole)", n, e);
    }
  }

  /** A stream into a file being made, through its writes. */
  private static final class ChannelOutput extends OutputStream {
    private final Path path;
    private final Path temporary;
    private final FileChannel channel;
    private final FileWrites writes;
    private long at;

    ChannelOutput(Path path, Path temporary, FileChannel channel, FileWrites writes) {
      this.path = path;
      this.temporary = temporary;
      this.channel = channel;
      this.writes = writes;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      writeTo(path, temporary, channel, writes, ByteBuffer.wrap(b, off, len), at);
      at += len;
    }
  }

  /**
   * Refuses a directory by its name before it is opened: reading one fails later, with an
   * "Is a directory" that names no path.
   *
   * @param path a file to read
   * @throws java.nio.file.FileSystemException if it is a directory, naming it
   */
  private static void requireNotDirectory(Path path) throws java.nio.file.FileSystemException {
    if (java.nio.file.Files.isDirectory(path)) {
      throw new java.nio.file.FileSystemException(path.toString(), null, "is a directory, not a filter file");
    }
  }

  /**
   * Reads a file's header and nothing after it.
   *
   * @param path the file
   * @return its header
   * @throws CorruptFilterException naming the file, if it is not a filter file or its header is
   *     damaged or cut short
   * @throws IOException if it is a directory or cannot be read
   */
  public static Header headerOf(Path path) throws IOException {
    requireNotDirectory(path);
    try (InputStream in = java.nio.file.Files.newInputStream(path)) {
      return FilterFile.readHeader(in);
    } catch (CorruptFilterException e) {
      throw new CorruptFilterException(path + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads an older file of a variant that maps and writes it as version 3 into a file being made,
   * streaming its table, and seals it.
   */
  private static void realign(InputStream from, Path to, Path temporary, FileChannel channel, FileWrites writes)
      throws IOException {
    EnvelopeReader r = new EnvelopeReader(from);
    Header header = FilterFile.header(r);
    ProviderRegistry.Resolved resolved = FilterFile.resolvePayload(r, header, null);
    FilterSpec spec = resolved.spec();
    MappedEnvelope[] made = new MappedEnvelope[1];
    FilterFile.overPayload(r, header, payload -> {
      resolved.provider().realign(spec, payload,
          length -> made[0] = newPayload(to, temporary, channel, writes, spec, length));
      return made[0];
    });
    if (made[0] == null) {
      throw new IllegalStateException("provider of variant " + header.variant() + " wrote no payload");
    }
    made[0].seal();
  }

  /**
   * @throws CorruptFilterException if the file is not as long as its header says, naming the
   *     likely {@code cause}
   */
  private static void requireLength(Path path, FileChannel channel, Header header, String cause) throws IOException {
    long size = channel.size();
    long expected = header.payloadOffset() + header.payloadLength() + 4;
    if (header.payloadLength() > Long.MAX_VALUE - header.payloadOffset() - 4 || size != expected) {
      throw new CorruptFilterException(path + " is damaged: it is " + size + " bytes long, but its header says "
          + header.payloadOffset() + " + " + header.payloadLength() + " + 4 = " + Long.toUnsignedString(expected)
          + " " + cause);
    }
  }

  /** @return whether this channel now holds the file's exclusive lock: no other process or channel holds it */
  private static boolean locked(FileChannel channel) throws IOException {
    try {
      return channel.tryLock() != null;
    } catch (java.nio.channels.OverlappingFileLockException heldInThisJvm) {
      return false;
    }
  }

  /**
   * @param variant a variant that cannot be mapped
   * @return the exception saying so, naming those that can
   */
  static UnsupportedOperationException notMappable(String variant) {
    java.util.List<String> mappable = new java.util.ArrayList<>();
    for (String name : ProviderRegistry.variants()) {
      if (ProviderRegistry.mapsFiles(name)) {
        mappable.add(name);
      }
    }
    return new UnsupportedOperationException("variant " + variant + " cannot be mapped from a file; variants that"
        + " can: " + mappable + "; CuckooFilters.read still reads its files");
  }

  /**
   * Opens a file for writing and closes it, as {@link #open} for writing does, recovering it if
   * its last writer left it marked as being changed or left a journal: see {@link
   * dev.cuckoo.CuckooFilters#recover}.
   *
   * @param path the file
   * @return what was done, or empty if the file was consistent (its last writer forced or closed
   *     it) or is of a format version older than 3, which no writer changes in place
   * @throws CorruptFilterException if it cannot be recovered (the machine restarted since, or it
   *     is damaged: cut short, say) or is not a filter file
   * @throws IOException if a writer has it open, or reading or writing fails
   */
  public static java.util.Optional<dev.cuckoo.FileRecovery> recover(Path path) throws IOException {
    Header header = headerOf(path);
    if (header.version() < FilterFile.FORMAT_VERSION) {
      return java.util.Optional.empty();
    }
    try (dev.cuckoo.MappedFilter filter = open(path, true)) {
      return filter.recovery();
    }
  }

  /**
   * @param path a file marked as being changed whose lock a writer holds
   * @return why it is not read now: a reader is told a writer is at work, never that one stopped
   */
  static String liveWriterMessage(Path path) {
    return path + " is being changed in place by a writer that has it open now (it holds the file's lock):"
        + " its table is consistent only after the writer forces or closes it; open it once the writer has"
        + " closed it (or forced it and stopped changing it)";
  }

  /** @return the start of what is said of a file whose writer stopped while it was marked as being changed */
  static String stoppedWriterMessage(Path path) {
    return path + " was being changed in place when its writer stopped (it was not forced or closed after its"
        + " last change)";
  }

  /** @return whether another channel, in this process or another, holds the lock of a file open for reading */
  private static boolean writerHolds(FileChannel readOnly) throws IOException {
    try {
      java.nio.channels.FileLock probe = readOnly.tryLock(0, Long.MAX_VALUE, true);
      if (probe == null) {
        return true;
      }
      probe.release();
      return false;
    } catch (java.nio.channels.OverlappingFileLockException heldInThisJvm) {
      return true;
    }
  }
}
