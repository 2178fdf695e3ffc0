package dev.cuckoo.internal;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.FilterProvider;
import dev.cuckoo.spi.HashStrategy;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The common file format every variant writes and {@link dev.cuckoo.CuckooFilters#read} reads. A variant
 * writes and reads only its payload; this class writes and checks the envelope around it.
 *
 * <pre>
 * offset      size  field (big-endian)
 * 0           4     magic 0x434B4F46 ("CKOF")
 * 4           2     format version: 2 here (3 below, 1 without the hash check)
 * 6           2     V, length of the variant name, 1..64
 * 8           V     variant name (ASCII)
 * 8+V         4     S, length of the spec, 1..65536
 * 12+V        S     resolved spec as its config string (UTF-8)
 * 12+V+S      32    hash check: the filter's hash of the four probe keys below, 4 longs
 * 44+V+S      8     P, length of the payload
 * 52+V+S      P     payload, written by the variant
 * 52+V+S+P    4     CRC32C of every byte before it
 * </pre>
 *
 * <p>Version 3 aligns the payload so that a variant can map its table where it lies ({@link
 * dev.cuckoo.CuckooFilters#open}). Its header adds three fields after the payload's length, then
 * zeros up to the payload:
 *
 * <pre>
 * offset      size  field (big-endian)
 * 44+V+S      8     P, length of the payload
 * 52+V+S      8     O, the payload's offset: 68+V+S rounded up to a multiple of 4096
 * 60+V+S      4     CRC32C of bytes [0, 60+V+S): the header checksum, checked at every open
 * 64+V+S      4     state: 0 = clean; 1 = a writer had changed it in place since its last force
 * 68+V+S      ...   zeros up to O
 * O           P     payload, written by the variant
 * O+P         4     CRC32C of every byte before it, with the state as 0
 * </pre>
 *
 * <p>The file is exactly {@code O+P+4} bytes. A file in state 1 is refused, by {@link #read} and
 * {@link #open} alike: its writer has it open now (it holds the file's lock, which {@link #open}
 * tells the reader), or stopped between forces, and pages of a mapping reach the file in any
 * order, so its table may hold a half-moved fingerprint. Version 3 is written for filters whose
 * payload asks to be aligned ({@link dev.cuckoo.spi.AbstractCuckooFilter#alignsPayload}); others
 * are still written as version 2.
 *
 * <p>The probe keys, hashed with {@link HashStrategy#hashBytes(byte[], int, int)}: the empty
 * key; the 8 bytes {@code 01 23 45 67 89 AB CD EF}; the 6 ASCII bytes {@code cuckoo}; the 100
 * bytes {@code 00 01 02 ... 63}. A filter's buckets and fingerprints come from its hash, so a
 * filter read with any other hash (another seed, or another function under the same name)
 * would miss every key it holds. The hash check makes that impossible: a reader hashes the
 * probe keys with the hash it is about to use and refuses a mismatch.
 *
 * <p>Version 1 (written by 0.1.0) is version 2 without the hash check; it is still read, with
 * the hash its spec names (or the one given).
 *
 * <p>Reading checks each length before it allocates, pulls no byte from the stream past the
 * checksum, and turns anything wrong (bad magic, unknown version or variant, a spec the variant
 * rejects, a hash that is not installed or does not match the hash check, a payload that is
 * short or has bytes left over, a checksum mismatch) into {@link CorruptFilterException}. When
 * a name in the file is unknown or its spec or hash is refused, the reader verifies the
 * checksum first, so that a damaged file is reported as damaged rather than as, say, a variant
 * that is not installed. The version changes only when the envelope changes; a variant that
 * changes its payload keeps reading the payloads it wrote before.
 */
public final class FilterFile {
  /** The first four bytes of every filter file: "CKOF". */
  public static final int MAGIC = 0x434B4F46;
  /** The newest envelope version, which this library writes for aligned payloads; it reads every earlier one. */
  public static final int FORMAT_VERSION = 3;
  /** The envelope version written for payloads that are not aligned: version 3 without alignment. */
  public static final int UNALIGNED_VERSION = 2;
  /** What the payload's offset in a version 3 file is a multiple of: a page, so that it maps as it lies. */
  public static final int PAYLOAD_ALIGNMENT = 4096;
  /** The state of a version 3 file that its writer forced or closed. */
  static final int CLEAN = 0;
  /** The state of a version 3 file that its writer changed after its last force. */
  static final int DIRTY = 1;
  /** The first envelope version, written by 0.1.0: no hash check. */
  static final int FIRST_VERSION = 1;
  /** The bytes of the hash check. */
  public static final int HASH_CHECK_BYTES = 4 * Long.BYTES;
  /** The longest variant name a file may hold, in bytes. */
  public static final int MAX_VARIANT_BYTES = 64;
  /** The longest spec a file may hold, in bytes. */
  public static final int MAX_SPEC_BYTES = 1 << 16;

  private FilterFile() {}

  /** Writes a variant's payload. */
  @FunctionalInterface
  public interface PayloadWriter {
    /**
     * @param out where to write exactly the number of bytes declared to {@link FilterFile#write}
     * @throws IOException if writing fails
     */
    void writeTo(PayloadOutput out) throws IOException;
  }

  /**
   * Writes a filter file with the hash the spec names. The stream is flushed, not closed.
   *
   * @param out where to write
   * @param spec the filter's resolved spec
   * @param payloadLength how many bytes {@code payload} writes
   * @param payload writes the variant's payload
   * @throws IOException if writing fails
   * @throws IllegalStateException if the payload writer writes a different number of bytes
   */
  public static void write(OutputStream out, FilterSpec spec, long payloadLength, PayloadWriter payload)
      throws IOException {
    write(out, spec, ProviderRegistry.hashOf(spec), payloadLength, payload);
  }

  /**
   * Writes a filter file. The stream is flushed, not closed.
   *
   * @param out where to write
   * @param spec the filter's resolved spec
   * @param hash the hash the filter's keys were hashed with, for the hash check
   * @param payloadLength how many bytes {@code payload} writes
   * @param payload writes the variant's payload
   * @throws IOException if writing fails
   * @throws IllegalStateException if the payload writer writes a different number of bytes
   */
  public static void write(OutputStream out, FilterSpec spec, HashStrategy hash, long payloadLength,
      PayloadWriter payload) throws IOException {
    write(out, spec, hash, payloadLength, payload, false);
  }

  /**
   * Writes a filter file, as version 3 with its payload at an offset that is a multiple of {@link
   * #PAYLOAD_ALIGNMENT} if {@code aligned}, else as version 2. The stream is flushed, not closed.
   *
   * @param out where to write
   * @param spec the filter's resolved spec
   * @param hash the hash the filter was built with, for the hash check
   * @param payloadLength how many bytes {@code payload} writes
   * @param payload writes the variant's payload
   * @param aligned whether to align the payload
   * @throws IOException if writing fails
   * @throws IllegalStateException if the payload writer writes a different number of bytes
   */
  public static void write(OutputStream out, FilterSpec spec, HashStrategy hash, long payloadLength,
      PayloadWriter payload, boolean aligned) throws IOException {
    Objects.requireNonNull(out, "out must not be null");
    EnvelopePayloadOutput o = new EnvelopePayloadOutput(out);
    writeHeader(o, spec, hash, payloadLength, aligned);
    long start = o.written();
    payload.writeTo(o);
    long wrote = o.written() - start;
    if (wrote != payloadLength) {
      throw new IllegalStateException(
          "variant " + spec.variant() + " wrote " + wrote + " payload bytes but declared " + payloadLength);
    }
    o.finish(o.checksum());
  }

  /** Writes the header, and in version 3 the zeros up to the payload. */
  static void writeHeader(EnvelopePayloadOutput o, FilterSpec spec, HashStrategy hash, long payloadLength,
      boolean aligned) throws IOException {
    byte[] variant = spec.variant().getBytes(StandardCharsets.US_ASCII);
    byte[] specBytes = spec.toString().getBytes(StandardCharsets.UTF_8);
    if (specBytes.length > MAX_SPEC_BYTES) {
      throw new IllegalArgumentException("spec is longer than " + MAX_SPEC_BYTES + " bytes: " + spec);
    }
    o.writeInt(MAGIC);
    o.writeShort(aligned ? FORMAT_VERSION : UNALIGNED_VERSION);
    o.writeShort(variant.length);
    o.write(variant);
    o.writeInt(specBytes.length);
    o.write(specBytes);
    for (long h : hashCheck(hash)) {
      o.writeLong(h);
    }
    o.writeLong(payloadLength);
    if (aligned) {
      long offset = payloadOffset(o.written() + 16);
      o.writeLong(offset);
      o.writeInt(o.checksum());
      o.writeInt(CLEAN);
      o.write(new byte[(int) (offset - o.written())]);
    }
  }

  /**
   * @param spec a resolved spec
   * @param payloadLength its payload's length
   * @return the length of a version 3 file of that spec and payload: header, padding, payload and
   *     checksum
   */
  public static long mappedFileLength(FilterSpec spec, long payloadLength) {
    long headerEnd = 68L + spec.variant().getBytes(StandardCharsets.US_ASCII).length
        + spec.toString().getBytes(StandardCharsets.UTF_8).length;
    return payloadOffset(headerEnd) + payloadLength + 4;
  }

  /** @return where the payload of a version 3 file whose header ends at {@code headerEnd} starts */
  static long payloadOffset(long headerEnd) {
    return (headerEnd + PAYLOAD_ALIGNMENT - 1) / PAYLOAD_ALIGNMENT * PAYLOAD_ALIGNMENT;
  }

  /**
   * Reads one filter file from the stream, stopping right after its checksum.
   *
   * @param in where to read
   * @param hash the hash to use instead of looking up the file's hash by name, or {@code null};
   *     when given, its name must be the one the file records
   * @return the filter
   * @throws CorruptFilterException if the input is truncated, corrupted, forged or of an unknown
   *     variant, version or hash
   * @throws IOException if reading fails
   */
  public static CuckooFilter read(InputStream in, HashStrategy hash) throws IOException {
    Objects.requireNonNull(in, "input stream must not be null");
    EnvelopeReader r = new EnvelopeReader(in);
    Header header = header(r);
    String variant = header.variant();
    String specText = header.spec();
    long[] check = header.hashCheck();
    long payloadLength = header.payloadLength();
    if (header.dirty()) {
      throw new CorruptFilterException(dirtyMessage("the file"));
    }
    r.section("padding before the payload");
    r.allow(header.payloadOffset() - r.consumed());
    r.requireZeros(header.payloadOffset() - r.consumed());
    // A truncated file then says how much payload it promised against where it ended.
    r.section("payload (" + payloadLength + " bytes declared)");
    r.allow(payloadLength);
    r.allow(4); // the checksum: apart, so that a payload length near 2^63 cannot overflow

    ProviderRegistry.Resolved resolved;
    try {
      resolved = resolve(variant, specText, check, hash);
    } catch (IllegalArgumentException e) {
      throw checkedFirst(r, payloadLength,
          new CorruptFilterException("filter file cannot be read: " + e.getMessage(), e));
    }
    FilterProvider provider = resolved.provider();
    FilterSpec spec = resolved.spec();
    if (header.version() >= 3) {
      // Its header is checksummed, so the spec is the writer's: a table past the heap's one array
      // is no damage, and is refused as create refuses it, naming open, before the payload is read.
      HeapRoom.requireHeapTable(provider, spec);
    }
    IllegalArgumentException noRoom = HeapRoom.roomToRead(provider, spec, payloadLength, header.version());
    if (noRoom != null) {
      // A version 3 header is checksummed, so its sizes are the writer's; an older one's payload
      // length is not, and a damaged one is reported as damage, after a pass that allocates nothing.
      if (header.version() >= 3) {
        throw noRoom;
      }
      throw refusedIfIntact(r, payloadLength, noRoom);
    }

    EnvelopePayloadInput payload = new EnvelopePayloadInput(r, variant, payloadLength);
    CuckooFilter filter;
    try {
      filter = provider.read(spec, payload);
    } catch (OutOfMemoryError e) {
      // Below the heap's maximum but more than it had free: only the new filter's arrays were
      // being allocated, so they are garbage now and the refusal is safe to make.
      throw HeapRoom.noRoomToRead(provider, spec, payloadLength, header.version(), e);
    } catch (CorruptFilterException e) {
      throw checkedFirst(r, payload.remaining(), e);
    } catch (RuntimeException e) {
      // A payload the variant cannot make sense of is most often a damaged file (a flipped
      // version byte reads a version 3 file's padding as fields): the checksum, read over what
      // is left, tells damage from a payload that is intact but refused.
      throw checkedFirst(r, payload.remaining(),
          new CorruptFilterException("payload of variant " + variant + " cannot be read: " + e, e));
    }
    if (filter == null) {
      throw new IllegalStateException("provider of variant " + variant + " returned no filter");
    }
    if (payload.remaining() != 0) {
      throw checkedFirst(r, payload.remaining(), new CorruptFilterException(
          "payload of variant " + variant + " has " + payload.remaining()
              + " bytes its contents do not account for (" + payloadLength + " declared)"));
    }
    requireChecksum(r);
    return filter;
  }

  /**
   * Finds the provider of a file's variant and resolves its spec with the hash the file names
   * (or the one given), checking the file's hash check.
   *
   * @throws IllegalArgumentException saying what is unknown or refused
   */
  private static ProviderRegistry.Resolved resolve(String variant, String specText, long[] check, HashStrategy hash) {
    FilterProvider provider = ProviderRegistry.provider(variant);
    FilterSpec spec = FilterSpec.parse(specText);
    if (!spec.variant().equals(variant)) {
      throw new IllegalArgumentException("spec '" + specText + "' is not for variant " + variant);
    }
    if (hash != null) {
      if (!spec.hash().orElse("").equals(hash.name())) {
        throw new IllegalArgumentException(
            "the file uses hash " + spec.hash().orElse("(none)") + ", not the given " + hash.name());
      }
      spec = spec.toBuilder().hash(hash).build();
    }
    spec = provider.validate(spec);
    if (hash == null) {
      try {
        ProviderRegistry.requireInstalledHash(spec);
      } catch (IllegalArgumentException notInstalled) {
        throw new IllegalArgumentException(notInstalled.getMessage() + "; if the filter was built with a"
            + " HashStrategy instance, read it with CuckooFilters.read(in, hash), passing that instance");
      }
    }
    if (check != null) {
      requireSameHash(check, spec, hash != null);
    }
    return new ProviderRegistry.Resolved(provider, spec);
  }

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
    if (java.nio.file.Files.isDirectory(path)) {
      throw new java.nio.file.FileSystemException(path.toString(), null, "is a directory, not a filter file");
    }
    FileChannel channel = writable
        ? FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)
        : FileChannel.open(path, StandardOpenOption.READ);
    try {
      if (writable && !locked(channel)) {
        throw new IOException(path + " is being written by another writer (it holds the file's lock)");
      }
      // The header is read in a few small pieces, each what its length fields allow: a page of
      // buffer holds any but a huge spec at once, where a whole file's reader takes 64 KiB.
      EnvelopeReader r = new EnvelopeReader(Channels.newInputStream(channel), PAYLOAD_ALIGNMENT);
      Header header;
      try {
        header = header(r);
      } catch (CorruptFilterException e) {
        throw new CorruptFilterException(path + ": " + e.getMessage(), e);
      }
      if (header.version() < FORMAT_VERSION) {
        // A variant that never maps is told as such: converting its file would change nothing.
        if (ProviderRegistry.variants().contains(header.variant())
            && !ProviderRegistry.provider(header.variant()).mapsFiles()) {
          throw notMappable(header.variant());
        }
        // A version 3 file whose version field was damaged reads as an older header whose file
        // would end right after its payload: its length tells it from a real older file.
        requireLength(path, channel, header, "(truncated, extended, or its format version field is damaged)");
        throw new UnsupportedOperationException(path + " is a filter file of format version " + header.version()
            + ", whose table is not aligned for mapping; CuckooFilters.read still reads it, and"
            + " CuckooFilters.convert (or 'cuckoo convert " + path + " OUT') rewrites it as version "
            + FORMAT_VERSION + ", which opens mapped");
      }
      if (header.dirty()) {
        throw new CorruptFilterException(dirtyMessage(path, channel, writable));
      }
      requireLength(path, channel, header, "(truncated, or extended)");
      ProviderRegistry.Resolved resolved;
      try {
        resolved = resolve(header.variant(), header.spec(), header.hashCheck(), null);
      } catch (IllegalArgumentException e) {
        throw new CorruptFilterException(path + " cannot be opened: " + e.getMessage(), e);
      }
      FilterProvider provider = resolved.provider();
      if (!provider.mapsFiles()) {
        throw notMappable(provider.name());
      }
      MappedEnvelope payload = new MappedEnvelope(path, channel, writable, header.payloadOffset(),
          header.payloadLength(), header.stateOffset(), false);
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
    FileChannel channel = FileChannel.open(path, option, StandardOpenOption.READ, StandardOpenOption.WRITE);
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
    writeHeader(o, spec, ProviderRegistry.hashOf(spec), payloadLength, true);
    o.checksum(); // drains into head
    byte[] header = head.toByteArray();
    long stateOffset = readHeader(new java.io.ByteArrayInputStream(header)).stateOffset();
    ByteBuffer.wrap(header).putInt((int) stateOffset, DIRTY);
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
   * @throws CorruptFilterException if {@code from} is damaged or refused as {@link #read} refuses it
   * @throws IOException if {@code to} exists, or reading or writing fails
   */
  public static int convert(Path from, Path to) throws IOException {
    Objects.requireNonNull(from, "from must not be null");
    Objects.requireNonNull(to, "to must not be null");
    if (java.nio.file.Files.isDirectory(from)) {
      throw new java.nio.file.FileSystemException(from.toString(), null, "is a directory, not a filter file");
    }
    Header header;
    try (InputStream in = java.nio.file.Files.newInputStream(from)) {
      header = readHeader(in);
    } catch (CorruptFilterException e) {
      throw new CorruptFilterException(from + ": " + e.getMessage(), e);
    }
    boolean maps = ProviderRegistry.variants().contains(header.variant())
        && ProviderRegistry.provider(header.variant()).mapsFiles();
    if (maps && header.version() >= FORMAT_VERSION) {
      // Already current: checked whole as open and verify check it, then copied.
      try (dev.cuckoo.MappedFilter current = open(from, false)) {
        current.verify();
      }
    }
    // Created first, so that a failure removes only a file this call made.
    java.nio.file.Files.createFile(to);
    boolean done = false;
    try {
      int version;
      if (maps && header.version() >= FORMAT_VERSION) {
        java.nio.file.Files.copy(from, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        version = FORMAT_VERSION;
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
        version = FORMAT_VERSION;
      } else {
        CuckooFilter filter;
        try (InputStream in = new java.io.BufferedInputStream(java.nio.file.Files.newInputStream(from), 1 << 16)) {
          filter = read(in, null);
        } catch (CorruptFilterException e) {
          throw new CorruptFilterException(from + ": " + e.getMessage(), e);
        }
        try (OutputStream out = new java.io.BufferedOutputStream(
            java.nio.file.Files.newOutputStream(to, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE),
            1 << 16)) {
          filter.writeTo(out);
        }
        version = UNALIGNED_VERSION;
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

  /** Reads an older file of a variant that maps and writes it as version 3 into {@code to}, streaming its table. */
  private static void realign(InputStream from, Path to) throws IOException {
    EnvelopeReader r = new EnvelopeReader(from);
    Header header = header(r);
    long payloadLength = header.payloadLength();
    r.section("payload (" + payloadLength + " bytes declared)");
    r.allow(payloadLength);
    r.allow(4);
    ProviderRegistry.Resolved resolved;
    try {
      resolved = resolve(header.variant(), header.spec(), header.hashCheck(), null);
    } catch (IllegalArgumentException e) {
      throw checkedFirst(r, payloadLength,
          new CorruptFilterException("filter file cannot be read: " + e.getMessage(), e));
    }
    FilterSpec spec = resolved.spec();
    FileChannel channel = lockedFile(to, StandardOpenOption.TRUNCATE_EXISTING);
    try {
      MappedEnvelope[] made = new MappedEnvelope[1];
      EnvelopePayloadInput payload = new EnvelopePayloadInput(r, header.variant(), payloadLength);
      try {
        resolved.provider().realign(spec, payload, length -> made[0] = newPayload(to, channel, spec, length));
      } catch (CorruptFilterException e) {
        throw checkedFirst(r, payload.remaining(), e);
      } catch (RuntimeException e) {
        throw checkedFirst(r, payload.remaining(), new CorruptFilterException(
            "payload of variant " + header.variant() + " cannot be read: " + e, e));
      }
      if (payload.remaining() != 0 || made[0] == null) {
        throw checkedFirst(r, payload.remaining(), new CorruptFilterException(
            "payload of variant " + header.variant() + " has " + payload.remaining()
                + " bytes its contents do not account for (" + payloadLength + " declared)"));
      }
      requireChecksum(r);
      made[0].seal();
    } finally {
      channel.close();
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
      if (ProviderRegistry.provider(name).mapsFiles()) {
        mappable.add(name);
      }
    }
    return new UnsupportedOperationException("variant " + variant + " cannot be mapped from a file; variants that"
        + " can: " + mappable + "; CuckooFilters.read still reads its files");
  }

  /**
   * What a file's envelope says before its payload. It is read without looking anything up, so
   * that a file can be described when its variant or hash is not installed.
   *
   * @param version the format version
   * @param variant the variant's name
   * @param spec the spec as the file holds it, its config string
   * @param hashCheck the hash check, or {@code null} for version 1, which has none
   * @param payloadLength the payload's length in bytes
   * @param payloadOffset where the payload starts in the file
   * @param dirty whether a writer changed the file in place after its last force (version 3)
   */
  @SuppressWarnings("ArrayRecordComponent") // what a reader found, handed on, never compared
  public record Header(int version, String variant, String spec, long[] hashCheck, long payloadLength,
      long payloadOffset, boolean dirty) {
    /** @return where the state field of a version 3 file is: {@code 64+V+S}, after the header checksum */
    public long stateOffset() {
      return 64L + variant.getBytes(StandardCharsets.US_ASCII).length + spec.getBytes(StandardCharsets.UTF_8).length;
    }
  }

  /**
   * Reads a filter file's header, up to and including the payload's length, and no further. Its
   * fields are checked as {@link #read} checks them, but nothing is looked up (variant, spec and
   * hash may be unknown here), and neither the payload nor the checksum is read, so damage after
   * the header goes unnoticed.
   *
   * @param in where to read; not closed
   * @return the header
   * @throws CorruptFilterException if the input is not a filter file, of a format version this
   *     library does not read, ends inside the header, or has a length field out of range
   * @throws IOException if reading fails
   */
  public static Header readHeader(InputStream in) throws IOException {
    Objects.requireNonNull(in, "input stream must not be null");
    return header(new EnvelopeReader(in));
  }

  private static Header header(EnvelopeReader r) throws IOException {
    r.allow(8);
    int magic = r.readInt();
    if (magic != MAGIC) {
      throw new CorruptFilterException(
          String.format("not a cuckoo filter file: magic 0x%08X, expected 0x%08X (\"CKOF\")", magic, MAGIC));
    }
    int version = r.readUnsignedShort();
    if (version < FIRST_VERSION || version > FORMAT_VERSION) {
      throw new CorruptFilterException(
          "unsupported filter file format version " + version + "; this library reads versions "
              + FIRST_VERSION + " to " + FORMAT_VERSION);
    }
    int variantLength = r.readUnsignedShort();
    if (variantLength < 1 || variantLength > MAX_VARIANT_BYTES) {
      throw new CorruptFilterException(
          "variant name length " + variantLength + " is out of range: 1.." + MAX_VARIANT_BYTES);
    }
    r.allow(variantLength + 4L);
    String variant = text(r, variantLength, "variant name");
    int specLength = r.readInt();
    if (specLength < 1 || specLength > MAX_SPEC_BYTES) {
      throw new CorruptFilterException(
          "spec length " + Integer.toUnsignedString(specLength) + " is out of range: 1.." + MAX_SPEC_BYTES);
    }
    long[] check = version >= 2 ? new long[HASH_CHECK_BYTES / Long.BYTES] : null;
    r.allow(specLength + (check == null ? 0L : HASH_CHECK_BYTES) + 8L);
    String specText = text(r, specLength, "spec");
    for (int i = 0; check != null && i < check.length; i++) {
      check[i] = r.readLong();
    }
    long payloadLength = r.readLong();
    if (payloadLength < 0) {
      throw new CorruptFilterException("payload length " + Long.toUnsignedString(payloadLength) + " is out of range");
    }
    if (version < FORMAT_VERSION) {
      return new Header(version, variant, specText, check, payloadLength, r.consumed(), false);
    }
    r.allow(16);
    long offset = r.readLong();
    long expected = payloadOffset(r.consumed() + 8);
    if (offset != expected) {
      throw new CorruptFilterException("payload offset " + offset + " is not where a header of "
          + (r.consumed() + 8) + " bytes puts it: " + expected);
    }
    int computed = r.checksum();
    int stored = r.readInt();
    if (stored != computed) {
      throw new CorruptFilterException(String.format(
          "filter file header is damaged: checksum mismatch, stored CRC32C 0x%08X, computed 0x%08X", stored, computed));
    }
    int state = r.readInt();
    if (state != CLEAN && state != DIRTY) {
      throw new CorruptFilterException("filter file state " + state + " is unknown: 0 (clean) or 1 (being written)");
    }
    return new Header(version, variant, specText, check, payloadLength, offset, state == DIRTY);
  }

  /**
   * @param file the file, as messages name it
   * @return why a file in state 1 is refused, and what to do
   */
  static String dirtyMessage(String file) {
    return file + " is marked as being changed in place: either a writer has it open now (wait until it"
        + " forces or closes it, then read it again), or its writer stopped before it forced or closed it,"
        + " and its table may hold a half-moved fingerprint (rebuild it, or use the copy written before);"
        + " reading it is refused";
  }

  /**
   * Why a file marked as being changed is refused, told apart by the file's lock: a writer holds
   * it while it has the file open ({@link #open} with {@code writable}, {@link #createFile}), and
   * the operating system releases it when the writer's process ends, however it ends.
   *
   * @param path the file
   * @param channel the file, open
   * @param locked whether this channel already holds the file's lock (it was opened for writing)
   * @return the message
   */
  static String dirtyMessage(Path path, FileChannel channel, boolean locked) throws IOException {
    if (!locked && writerHolds(channel)) {
      return path + " is being changed in place by a writer that has it open now (it holds the file's lock):"
          + " its table is consistent only after the writer forces or closes it; open it once the writer has"
          + " closed it (or forced it and stopped changing it)";
    }
    return path + " was being changed in place when its writer stopped (it was not forced or closed"
        + " after its last change), so its table may hold a half-moved fingerprint; rebuild it, or use the"
        + " copy written before; opening it is refused";
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

  /** Reads the checksum and compares it with what the reader computed. */
  private static void requireChecksum(EnvelopeReader r) throws IOException {
    int computed = r.checksum();
    r.section("checksum");
    int stored = r.readChecksum();
    if (stored != computed) {
      throw new CorruptFilterException(
          String.format("filter file is damaged: checksum mismatch, stored CRC32C 0x%08X, computed 0x%08X", stored, computed));
    }
  }

  /**
   * What to throw for a file whose header names something unknown or refused: a damaged file
   * (the checksum does not match, read over the rest of the file) is reported as damaged, and
   * only an intact one with {@code refusal}.
   */
  private static CorruptFilterException checkedFirst(EnvelopeReader r, long payloadLeft,
      CorruptFilterException refusal) throws IOException {
    CorruptFilterException damaged = damage(r, payloadLeft, refusal);
    return damaged != null ? damaged : refusal;
  }

  /**
   * {@link #checkedFirst} for a refusal that is not about damage (the heap cannot hold the
   * filter, say): the refusal itself for an intact file; the damage, thrown, for a damaged one.
   */
  private static RuntimeException refusedIfIntact(EnvelopeReader r, long payloadLeft, RuntimeException refusal)
      throws IOException {
    CorruptFilterException damaged = damage(r, payloadLeft, refusal);
    if (damaged != null) {
      throw damaged;
    }
    return refusal;
  }

  /**
   * Reads the rest of the file against its checksum.
   *
   * @return {@code null} if it holds, else the damage, with what the file says read as it is
   */
  private static CorruptFilterException damage(EnvelopeReader r, long payloadLeft, Exception refusal)
      throws IOException {
    try {
      r.skip(payloadLeft);
      requireChecksum(r);
      return null;
    } catch (CorruptFilterException damaged) {
      return new CorruptFilterException(
          damaged.getMessage() + "; read as it is, the file says: " + refusal.getMessage(), damaged);
    }
  }

  /**
   * The hash check a file of a filter with this hash records: its values for the four probe
   * keys of the format, in order.
   *
   * @param hash the hash
   * @return its values for the four probe keys
   */
  public static long[] hashCheck(HashStrategy hash) {
    long[] values = new long[PROBE_KEYS.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = hash.hashBytes(PROBE_KEYS[i], 0, PROBE_KEYS[i].length);
    }
    return values;
  }

  private static final byte[][] PROBE_KEYS = probeKeys();

  private static byte[][] probeKeys() {
    byte[] hundred = new byte[100];
    for (int i = 0; i < hundred.length; i++) {
      hundred[i] = (byte) i;
    }
    return new byte[][] {
      {},
      {0x01, 0x23, 0x45, 0x67, (byte) 0x89, (byte) 0xAB, (byte) 0xCD, (byte) 0xEF},
      "cuckoo".getBytes(StandardCharsets.US_ASCII),
      hundred,
    };
  }

  private static void requireSameHash(long[] check, FilterSpec spec, boolean given) {
    if (java.util.Arrays.equals(check, hashCheck(ProviderRegistry.hashOf(spec)))) {
      return;
    }
    String name = spec.hash().orElseThrow();
    if (given) {
      throw new IllegalArgumentException(
          "the given hash '" + name + "' is not the hash this filter was written with (the file's"
              + " hash check differs, so every lookup would miss): pass the HashStrategy the"
              + " filter was built with, configured (seed included) as it was then");
    }
    throw new IllegalArgumentException(
        "the installed hash '" + name + "' with seed " + spec.seed().orElse(0L) + " is not the hash"
            + " this filter was written with (the file's hash check differs, so every lookup would"
            + " miss); the filter was built with a HashStrategy instance (or another version of"
            + " that hash): read it with CuckooFilters.read(in, hash), passing that instance");
  }

  private static String text(EnvelopeReader r, int length, String what) throws IOException {
    byte[] bytes = new byte[length];
    r.readFully(bytes, 0, length);
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new CorruptFilterException("the " + what + " in the filter file is not valid UTF-8", e);
    }
  }
}
