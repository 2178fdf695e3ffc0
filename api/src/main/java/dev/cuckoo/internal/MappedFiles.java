package dev.cuckoo.internal;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.internal.FilterFile.Header;
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

/**
 * The life of a filter file whose table is mapped where it lies: {@link #open} maps a version 3
 * file, {@link #createFile} makes a new one, and {@link #convert} writes any file again in its
 * variant's current format version. The envelope, its layout and its stream codec are {@link
 * FilterFile}'s; this class adds what a file on disk needs around them: its length checked
 * against its header, a new file's header written and its table's pages left as holes, and the
 * file's lock.
 *
 * <p>A writer holds the file's exclusive lock while it has the file open, so a second writer is
 * refused, and a reader of a file marked as being changed learns from the lock whether a writer is
 * at work ({@link #liveWriterMessage}) or one stopped, whose file a writer's open recovers ({@link
 * #recover}).
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
    Objects.requireNonNull(path, "path must not be null");
    requireNotDirectory(path);
    FileChannel channel = opened(path, writable
        ? FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)
        : FileChannel.open(path, StandardOpenOption.READ));
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
        if (ProviderRegistry.variants().contains(header.variant()) && !ProviderRegistry.mapsFiles(header.variant())) {
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
        recover(path);
        return open(path, false);
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
      MappedEnvelope payload = new MappedEnvelope(path, channel, writable, header.payloadOffset(),
          header.payloadLength(), header.stateOffset(), false);
      if (header.dirty()) {
        // Open for writing, lock held: no writer is at work on it.
        if (isMachineDurable(resolved.spec())) {
          payload.replayJournal(); // its force was cut short: the journal holds it whole
        } else {
          payload.toRecover(); // its writer's process died: the variant recovers what it stored
        }
      }
      try {
        return provider.open(resolved.spec(), payload);
      } catch (RuntimeException e) {
        throw new CorruptFilterException(path + ": payload of variant " + header.variant() + " cannot be mapped: " + e, e);
      }
    } catch (IOException | RuntimeException | Error e) {
      channel.close();
      throw e;
    }
  }

  /**
   * Creates a new file holding an empty filter of the spec, sized for its whole table (the
   * table's pages are not written: on most file systems the file is sparse until keys arrive),
   * and maps it read-write.
   *
   * @param resolved the provider and resolved spec
   * @param path the file, which must not exist
   * @return the filter
   * @throws UnsupportedOperationException if the variant cannot be mapped
   * @throws IOException if the file exists or writing fails
   */
  public static dev.cuckoo.MappedFilter createFile(ProviderRegistry.Resolved resolved, Path path) throws IOException {
    Objects.requireNonNull(path, "path must not be null");
    FilterProvider provider = resolved.provider();
    FilterSpec spec = resolved.spec();
    long payloadLength = provider.mappedPayloadLength(spec).orElseThrow(() -> notMappable(provider.name()));
    FileChannel channel = newLockedFile(path);
    try {
      // Not forced here: that would read the whole file for its checksum. The file stays marked as
      // being changed until the first force or close, so a creation cut short leaves a file that
      // open refuses.
      return provider.createIn(spec, newPayload(path, channel, spec, payloadLength));
    } catch (IOException | RuntimeException | Error e) {
      channel.close();
      throw e;
    }
  }

  /** @return a new file, open read-write, whose lock this process holds */
  private static FileChannel newLockedFile(Path path) throws IOException {
    return lockedFile(path, StandardOpenOption.CREATE_NEW);
  }

  /** @return the file, open read-write with the extra option, whose lock this process holds */
  private static FileChannel lockedFile(Path path, StandardOpenOption option) throws IOException {
    FileChannel channel = opened(path, FileChannel.open(path, option, StandardOpenOption.READ, StandardOpenOption.WRITE));
    try {
      if (!locked(channel)) {
        throw new IOException(path + " is being written by another writer (it holds the file's lock)");
      }
      return channel;
    } catch (IOException | RuntimeException | Error e) {
      channel.close();
      throw e;
    }
  }

  /**
   * Writes the header of a version 3 file into a new, empty file, marked as being changed until
   * its first seal (so that a writer cut short leaves a file that open refuses), and sizes the
   * file for the payload, whose pages stay holes until written.
   *
   * @return the payload, writable, zeros
   */
  private static MappedEnvelope newPayload(Path path, FileChannel channel, FilterSpec spec, long payloadLength)
      throws IOException {
    java.io.ByteArrayOutputStream head = new java.io.ByteArrayOutputStream();
    EnvelopePayloadOutput o = new EnvelopePayloadOutput(head);
    FilterFile.writeHeader(o, spec, ProviderRegistry.hashOf(spec), payloadLength, true);
    o.checksum(); // drains into head
    byte[] header = head.toByteArray();
    long stateOffset = FilterFile.readHeader(new java.io.ByteArrayInputStream(header)).stateOffset();
    ByteBuffer.wrap(header).putInt((int) stateOffset, FilterFile.DIRTY);
    channel.write(ByteBuffer.wrap(header), 0);
    // setLength by writing the last byte: the pages between stay holes
    channel.write(ByteBuffer.allocate(1), header.length + payloadLength + 3);
    return new MappedEnvelope(path, channel, true, header.length, payloadLength, stateOffset, true);
  }

  /**
   * Writes a filter file again, to a new file, in the current format version of its variant: see
   * {@link dev.cuckoo.CuckooFilters#convert}. An older file of a variant that maps is rewritten by
   * {@link FilterProvider#realign}, its table streamed into the new file; a current one is copied;
   * any other file is read and written again.
   *
   * @param from the file to read
   * @param to the file to write, which must not exist; removed if the conversion fails
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
    // Created first, so that a failure removes only a file this call made.
    java.nio.file.Files.createFile(to);
    boolean done = false;
    try {
      int version;
      if (current) {
        java.nio.file.Files.copy(from, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        version = FilterFile.FORMAT_VERSION;
      } else if (maps) {
        try (InputStream in = new java.io.BufferedInputStream(java.nio.file.Files.newInputStream(from), 1 << 16)) {
          realign(in, to);
        } catch (CorruptFilterException e) {
          throw new CorruptFilterException(from + ": " + e.getMessage(), e);
        }
        // The old file's checksum held, but not yet its table's encoding: the new file is checked
        // as a reader of it would check it, the table against the items it declares included.
        try (dev.cuckoo.MappedFilter written = open(to, false)) {
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
        try (OutputStream out = new java.io.BufferedOutputStream(
            java.nio.file.Files.newOutputStream(to, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE),
            1 << 16)) {
          filter.writeTo(out);
        }
        version = FilterFile.UNALIGNED_VERSION;
      }
      try (FileChannel written = FileChannel.open(to, StandardOpenOption.WRITE)) {
        written.force(true); // on the storage device before anyone renames it into place
      }
      done = true;
      return version;
    } finally {
      if (!done) {
        java.nio.file.Files.deleteIfExists(to);
      }
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

  /** Reads an older file of a variant that maps and writes it as version 3 into {@code to}, streaming its table. */
  private static void realign(InputStream from, Path to) throws IOException {
    EnvelopeReader r = new EnvelopeReader(from);
    Header header = FilterFile.header(r);
    ProviderRegistry.Resolved resolved = FilterFile.resolvePayload(r, header, null);
    FilterSpec spec = resolved.spec();
    try (FileChannel channel = lockedFile(to, StandardOpenOption.TRUNCATE_EXISTING)) {
      MappedEnvelope[] made = new MappedEnvelope[1];
      FilterFile.overPayload(r, header, payload -> {
        resolved.provider().realign(spec, payload, length -> made[0] = newPayload(to, channel, spec, length));
        return made[0];
      });
      if (made[0] == null) {
        throw new IllegalStateException("provider of variant " + header.variant() + " wrote no payload");
      }
      made[0].seal();
    }
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

  /** Wraps every channel opened on a filter file or its journal; {@code null} for none. */
  private static volatile java.util.function.BiFunction<Path, FileChannel, FileChannel> channels;

  /**
   * For tests that stage a machine's crash: from now on every channel this class and the
   * envelope open on a filter file or its journal is first given to {@code wrap}, with its file.
   *
   * @param wrap what wraps each channel, or {@code null} to stop
   */
  public static void wrapChannels(java.util.function.BiFunction<Path, FileChannel, FileChannel> wrap) {
    channels = wrap;
  }

  /** @return the channel, as {@link #wrapChannels} wraps it */
  static FileChannel opened(Path path, FileChannel channel) {
    java.util.function.BiFunction<Path, FileChannel, FileChannel> wrap = channels;
    return wrap == null ? channel : wrap.apply(path, channel);
  }

  /** @return whether a resolved spec asks for {@code durability=machine} */
  static boolean isMachineDurable(FilterSpec resolved) {
    return FilterSpec.DURABILITY_MACHINE.equals(resolved.option(FilterSpec.DURABILITY).orElse(null));
  }

  /**
   * Recovers a file whose writer died while it was marked as being changed, as {@link #open} for
   * writing does: see {@link dev.cuckoo.CuckooFilters#recover}.
   *
   * @param path the file
   * @return {@code true} if it was recovered, {@code false} if it was consistent already
   * @throws CorruptFilterException if it cannot be recovered (the machine restarted since, or it
   *     is damaged) or is not a filter file
   * @throws IOException if a writer has it open, or reading or writing fails
   */
  public static boolean recover(Path path) throws IOException {
    Header header = headerOf(path);
    if (header.version() < FilterFile.FORMAT_VERSION || !header.dirty()) {
      return false;
    }
    open(path, true).close();
    return true;
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
