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
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The common file format every variant writes and {@link dev.cuckoo.CuckooFilters#read} reads. A variant
 * writes and reads only its payload; this class writes and checks the envelope around it, on
 * streams. {@link MappedFiles} opens, creates and converts the files whose table is mapped.
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
 * dev.cuckoo.CuckooFilters#open}). Its header adds two fields after the payload's length, then
 * zeros up to the payload, whose last 32 bytes are the mark:
 *
 * <pre>
 * offset      size  field (big-endian)
 * 44+V+S      8     P, length of the payload
 * 52+V+S      8     O, the payload's offset: 96+V+S rounded up to a multiple of 4096
 * 60+V+S      4     CRC32C of bytes [0, 60+V+S): the header checksum, checked at every open
 * 64+V+S      ...   zeros up to O-32
 * O-32        4     the mark's state: 0 = consistent; 1 = a writer changed it in place since its last force
 * O-28        12    zeros
 * O-16        16    with state 1, the boot id of the machine whose writer set it (zeros if it had none)
 * O           P     payload, written by the variant
 * O+P         4     CRC32C of every byte before it, the mark's 32 bytes read as zeros
 * </pre>
 *
 * <p>The file is exactly {@code O+P+4} bytes. The mark ends at a page boundary, so one write,
 * inside one page, sets it or clears it whole: a writer killed at any instant leaves either the
 * state and boot id it wrote or those before ({@link MappedEnvelope#beginChange}). A file in
 * state 1 is refused by {@link #read}: its writer has it open now (it holds the file's lock,
 * which {@link MappedFiles#open} tells a reader), or stopped between forces, and {@link
 * Recovery} brings such a file back when a writer opens it. Version 3 is written for filters
 * whose payload asks to be aligned ({@link dev.cuckoo.spi.AbstractCuckooFilter#alignsPayload});
 * others are still written as version 2.
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
  /** The bytes of a version 3 file's mark, which end at its payload: state, zeros, boot id. */
  static final int MARK_BYTES = 32;
  /** Where the boot id is in the mark. */
  public static final int MARK_BOOT_ID = 16;
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
      long offset = payloadOffset(o.written() + 8 + 4 + MARK_BYTES);
      o.writeLong(offset);
      o.writeInt(o.checksum());
      o.write(new byte[(int) (offset - o.written())]); // zeros, the mark's "consistent" included
    }
  }

  /**
   * @param spec a resolved spec
   * @param payloadLength its payload's length
   * @return the length of a version 3 file of that spec and payload: header, padding, payload and
   *     checksum
   */
  public static long mappedFileLength(FilterSpec spec, long payloadLength) {
    long headerEnd = 64L + MARK_BYTES + spec.variant().getBytes(StandardCharsets.US_ASCII).length
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
    if (header.dirty()) {
      throw new CorruptFilterException(dirtyMessage("the file"));
    }
    long payloadLength = header.payloadLength();
    ProviderRegistry.Resolved resolved = resolvePayload(r, header, hash);
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
    CuckooFilter filter;
    try {
      filter = overPayload(r, header, payload -> provider.read(spec, payload));
    } catch (OutOfMemoryError e) {
      // Below the heap's maximum but more than it had free: only the new filter's arrays were
      // being allocated, so they are garbage now and the refusal is safe to make.
      throw HeapRoom.noRoomToRead(provider, spec, payloadLength, header.version(), e);
    }
    if (filter == null) {
      throw new IllegalStateException("provider of variant " + header.variant() + " returned no filter");
    }
    return filter;
  }

  /** What a variant does with a file's payload: reads it, or writes it again elsewhere. */
  @FunctionalInterface
  interface PayloadStep<T> {
    T run(EnvelopePayloadInput payload) throws IOException;
  }

  /**
   * Declares the rest of the file to the reader (the padding before the payload, which must be
   * zeros, the payload and the checksum) and resolves the file's variant and spec: what every
   * pass over a whole file does after its header. A name or spec that is unknown or refused is
   * reported as damage when the file's checksum does not hold.
   *
   * @param r the reader, right after the header
   * @param header the header
   * @param hash the hash given instead of the file's by name, or {@code null}
   * @return the provider and the resolved spec
   */
  static ProviderRegistry.Resolved resolvePayload(EnvelopeReader r, Header header, HashStrategy hash)
      throws IOException {
    long payloadLength = header.payloadLength();
    r.section("padding before the payload");
    r.allow(header.payloadOffset() - r.consumed());
    r.requireZeros(header.payloadOffset() - r.consumed());
    // A truncated file then says how much payload it promised against where it ended.
    r.section("payload (" + payloadLength + " bytes declared)");
    r.allow(payloadLength);
    r.allow(4); // the checksum: apart, so that a payload length near 2^63 cannot overflow
    try {
      return resolve(header.variant(), header.spec(), header.hashCheck(), hash);
    } catch (IllegalArgumentException e) {
      throw checkedFirst(r, payloadLength,
          new CorruptFilterException("filter file cannot be read: " + e.getMessage(), e));
    }
  }

  /**
   * Runs a variant's step over the payload, then checks that it read the payload to its end and
   * the file's checksum. What the variant refuses is reported as damage when the checksum, read
   * over what is left, does not hold: a payload the variant cannot make sense of is most often a
   * damaged file (a flipped version byte reads a version 3 file's padding as fields).
   *
   * @param r the reader, at the payload ({@link #resolvePayload})
   * @param header the header
   * @param step what the variant does with the payload
   * @return what the step returned
   */
  static <T> T overPayload(EnvelopeReader r, Header header, PayloadStep<T> step) throws IOException {
    String variant = header.variant();
    long payloadLength = header.payloadLength();
    EnvelopePayloadInput payload = new EnvelopePayloadInput(r, variant, payloadLength);
    T result;
    try {
      result = step.run(payload);
    } catch (CorruptFilterException e) {
      throw checkedFirst(r, payload.remaining(), e);
    } catch (RuntimeException e) {
      throw checkedFirst(r, payload.remaining(),
          new CorruptFilterException("payload of variant " + variant + " cannot be read: " + e, e));
    }
    if (payload.remaining() != 0) {
      throw checkedFirst(r, payload.remaining(), new CorruptFilterException(
          "payload of variant " + variant + " has " + payload.remaining()
              + " bytes its contents do not account for (" + payloadLength + " declared)"));
    }
    requireChecksum(r);
    return result;
  }

  /**
   * Finds the provider of a file's variant and resolves its spec with the hash the file names
   * (or the one given), checking the file's hash check.
   *
   * @throws IllegalArgumentException saying what is unknown or refused
   */
  static ProviderRegistry.Resolved resolve(String variant, String specText, long[] check, HashStrategy hash) {
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
   * @param bootId with {@code dirty}, the boot id of the machine whose writer marked it (zeros if
   *     it had none); else zeros
   */
  @SuppressWarnings("ArrayRecordComponent") // what a reader found, handed on, never compared
  public record Header(int version, String variant, String spec, long[] hashCheck, long payloadLength,
      long payloadOffset, boolean dirty, byte[] bootId) {
    /** @return where the mark of a version 3 file is: the {@value #MARK_BYTES} bytes before its payload */
    public long markOffset() {
      return payloadOffset - MARK_BYTES;
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

  static Header header(EnvelopeReader r) throws IOException {
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
      return new Header(version, variant, specText, check, payloadLength, r.consumed(), false, new byte[BootId.BYTES]);
    }
    r.allow(12);
    long offset = r.readLong();
    long expected = payloadOffset(r.consumed() + 4 + MARK_BYTES);
    if (offset != expected) {
      throw new CorruptFilterException("payload offset " + offset + " is not where a header of "
          + (r.consumed() + 4 + MARK_BYTES) + " bytes puts it: " + expected);
    }
    int computed = r.checksum();
    int stored = r.readInt();
    if (stored != computed) {
      throw new CorruptFilterException(String.format(
          "filter file header is damaged: checksum mismatch, stored CRC32C 0x%08X, computed 0x%08X", stored, computed));
    }
    r.section("padding before the mark");
    r.allow(offset - r.consumed());
    r.requireZeros(offset - MARK_BYTES - r.consumed());
    r.section("mark");
    int state = r.readInt();
    if (state != CLEAN && state != DIRTY) {
      throw new CorruptFilterException("filter file state " + state + " is unknown: 0 (clean) or 1 (being written)");
    }
    r.requireZeros(MARK_BOOT_ID - Integer.BYTES);
    byte[] bootId = new byte[BootId.BYTES];
    r.readFully(bootId, 0, bootId.length);
    if (state == CLEAN && !BootId.isUnknown(bootId)) {
      throw new CorruptFilterException("filter file is marked consistent but its mark holds a boot id: the mark is"
          + " damaged");
    }
    return new Header(version, variant, specText, check, payloadLength, offset, state == DIRTY, bootId);
  }

  /**
   * @param file the file, as messages name it
   * @return why a file in state 1 is refused, and what to do
   */
  static String dirtyMessage(String file) {
    return file + " is marked as being changed in place: either a writer has it open now (wait until it"
        + " forces or closes it, then read it again), or its writer stopped before it forced or closed it"
        + " (CuckooFilters.open, openWritable and recover, or 'cuckoo recover FILE', recover it); reading it as"
        + " a stream is refused";
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
