package dev.cuckoo.spi;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The common file format every variant writes and {@link CuckooFilters#read} reads. A variant
 * writes and reads only its payload; this class writes and checks the envelope around it.
 *
 * <pre>
 * offset      size  field (big-endian)
 * 0           4     magic 0x434B4F46 ("CKOF")
 * 4           2     format version, 1
 * 6           2     V, length of the variant name, 1..64
 * 8           V     variant name (ASCII)
 * 8+V         4     S, length of the spec, 1..65536
 * 12+V        S     resolved spec as its config string (UTF-8)
 * 12+V+S      8     P, length of the payload
 * 20+V+S      P     payload, written by the variant
 * 20+V+S+P    4     CRC32C of every byte before it
 * </pre>
 *
 * <p>Reading checks each length before it allocates, pulls no byte from the stream past the
 * checksum, and turns anything wrong (bad magic, unknown version or variant, a spec the variant
 * rejects, a payload that is short or has bytes left over, a checksum mismatch) into {@link
 * CorruptFilterException}. The version changes only when the envelope changes; a variant that
 * changes its payload keeps reading the payloads it wrote before.
 */
public final class FilterFile {
  /** The first four bytes of every filter file: "CKOF". */
  public static final int MAGIC = 0x434B4F46;
  /** The envelope version this library writes and reads. */
  public static final int FORMAT_VERSION = 1;
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
   * Writes a filter file. The stream is flushed, not closed.
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
    Objects.requireNonNull(out, "out");
    byte[] variant = spec.variant().getBytes(StandardCharsets.US_ASCII);
    byte[] specBytes = spec.toString().getBytes(StandardCharsets.UTF_8);
    if (specBytes.length > MAX_SPEC_BYTES) {
      throw new IllegalArgumentException("spec is longer than " + MAX_SPEC_BYTES + " bytes: " + spec);
    }
    PayloadOutput o = new PayloadOutput(out);
    o.writeInt(MAGIC);
    o.writeShort(FORMAT_VERSION);
    o.writeShort(variant.length);
    o.write(variant);
    o.writeInt(specBytes.length);
    o.write(specBytes);
    o.writeLong(payloadLength);
    long start = o.written();
    payload.writeTo(o);
    long wrote = o.written() - start;
    if (wrote != payloadLength) {
      throw new IllegalStateException(
          "variant " + spec.variant() + " wrote " + wrote + " payload bytes but declared " + payloadLength);
    }
    o.finish(o.checksum());
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
    Objects.requireNonNull(in, "in");
    EnvelopeReader r = new EnvelopeReader(in);
    r.allow(8);
    int magic = r.readInt();
    if (magic != MAGIC) {
      throw new CorruptFilterException(
          String.format("not a cuckoo filter file: magic 0x%08X, expected 0x%08X (\"CKOF\")", magic, MAGIC));
    }
    int version = r.readUnsignedShort();
    if (version != FORMAT_VERSION) {
      throw new CorruptFilterException(
          "unsupported filter file format version " + version + "; this library reads version "
              + FORMAT_VERSION);
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
    r.allow(specLength + 8L);
    String specText = text(r, specLength, "spec");
    long payloadLength = r.readLong();
    if (payloadLength < 0) {
      throw new CorruptFilterException("payload length " + Long.toUnsignedString(payloadLength) + " is out of range");
    }

    FilterProvider provider;
    FilterSpec spec;
    try {
      provider = CuckooFilters.provider(variant);
      spec = FilterSpec.parse(specText);
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
    } catch (IllegalArgumentException e) {
      throw new CorruptFilterException("filter file cannot be read: " + e.getMessage(), e);
    }

    // A truncated file then says how much payload it promised against where it ended.
    r.section("payload (" + payloadLength + " bytes declared)");
    r.allow(payloadLength);
    r.allow(4); // the checksum: apart, so that a payload length near 2^63 cannot overflow
    PayloadInput payload = new PayloadInput(r, variant, payloadLength);
    CuckooFilter filter;
    try {
      filter = provider.read(spec, payload);
    } catch (RuntimeException e) {
      throw new CorruptFilterException(
          "payload of variant " + variant + " cannot be read: " + e, e);
    }
    if (filter == null) {
      throw new IllegalStateException("provider of variant " + variant + " returned no filter");
    }
    if (payload.remaining() != 0) {
      throw new CorruptFilterException(
          "payload of variant " + variant + " has " + payload.remaining()
              + " bytes its contents do not account for (" + payloadLength + " declared)");
    }
    int computed = r.checksum();
    r.section("checksum");
    int stored = r.readChecksum();
    if (stored != computed) {
      throw new CorruptFilterException(
          String.format("filter file checksum mismatch: stored CRC32C 0x%08X, computed 0x%08X", stored, computed));
    }
    return filter;
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
