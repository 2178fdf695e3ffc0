package dev.cuckoo.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.HashStrategy;
import dev.cuckoo.spi.PayloadInput;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * The envelope, attacked field by field with forged but checksum-valid files: every rejection is
 * a {@link CorruptFilterException} that says what was wrong, and nothing is allocated in
 * proportion to a declared size.
 */
class FilterFileTest {
  private static final String SPEC =
      "exact?capacity=100&fingerprintBits=64&bucketSize=1&hash=fnv1a-mix&seed=0&maxKicks=0&concurrency=none&flavour=plain&spare=0";

  /**
   * A file with every field chosen by the caller and a valid checksum. From version 2 on it has
   * the hash check of the hash the spec names where that is installed (zeros where not).
   */
  private static byte[] forge(int magic, int version, byte[] variant, int variantLength, byte[] spec, int specLength,
      long payloadLength, byte[] payload) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(magic);
    out.writeShort(version);
    out.writeShort(variantLength);
    out.write(variant);
    out.writeInt(specLength);
    out.write(spec);
    if (version >= 2) {
      for (long h : hashCheckOf(new String(spec, UTF_8))) {
        out.writeLong(h);
      }
    }
    out.writeLong(payloadLength);
    out.write(payload);
    CRC32C crc = new CRC32C();
    crc.update(bytes.toByteArray());
    out.writeInt((int) crc.getValue());
    return bytes.toByteArray();
  }

  private static long[] hashCheckOf(String spec) {
    try {
      FilterSpec parsed = FilterSpec.parse(spec);
      String name = parsed.hash().orElse("fnv1a-mix");
      if (CuckooFilters.hashes().contains(name)) {
        return FilterFile.hashCheck(CuckooFilters.hash(name, parsed.seed().orElse(0L)));
      }
    } catch (IllegalArgumentException notASpec) {
      // forged on purpose: any check will do
    }
    return new long[4];
  }

  /** A file of version 2, which variants that do not align their payload still write. */
  private static byte[] forge(String variant, String spec, byte[] payload) throws IOException {
    return forge(FilterFile.UNALIGNED_VERSION, variant, spec, payload);
  }

  private static byte[] forge(int version, String variant, String spec, byte[] payload) throws IOException {
    byte[] v = variant.getBytes(UTF_8);
    byte[] s = spec.getBytes(UTF_8);
    return forge(FilterFile.MAGIC, version, v, v.length, s, s.length, payload.length, payload);
  }

  private static byte[] exactPayload(long distinct, long... entries) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeLong(distinct);
    for (int i = 0; i < entries.length; i += 2) {
      out.writeLong(entries[i]);
      out.writeInt((int) entries[i + 1]);
    }
    return bytes.toByteArray();
  }

  private static String rejection(byte[] file) {
    return assertThrows(CorruptFilterException.class, () -> CuckooFilters.read(new ByteArrayInputStream(file))).getMessage();
  }

  @Test
  void aForgedButValidFileIsAccepted() throws IOException {
    CuckooFilter f = CuckooFilters.read(new ByteArrayInputStream(forge("exact", SPEC, exactPayload(2, 7, 1, 9, 3))));
    assertEquals(4, f.size());
    assertEquals(SPEC, f.spec().toString());
  }

  @Test
  void aFileOfVersion1WithoutHashCheckIsRead() throws IOException {
    CuckooFilter f = CuckooFilters.read(new ByteArrayInputStream(forge(1, "exact", SPEC, exactPayload(2, 7, 1, 9, 3))));
    assertEquals(4, f.size());
    assertEquals(SPEC, f.spec().toString());
  }

  @Test
  void theLayoutIsAsDocumented() throws IOException {
    CuckooFilter f = CuckooFilters.create("exact?capacity=100");
    f.add(1L);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    byte[] expected = forge("exact", f.spec().toString(), exactPayload(1, dev.cuckoo.CuckooFilters.hashOf(f.spec()).hashLong(1L), 1));
    assertEquals(java.util.Arrays.toString(expected), java.util.Arrays.toString(out.toByteArray()));
  }

  @Test
  void theHeaderIsReadWithoutLookingUpItsVariantOrHash() throws IOException {
    String spec = "nope?capacity=9&hash=not-installed&seed=7";
    byte[] file = forge("nope", spec, exactPayload(2, 7, 1));
    ByteArrayInputStream in = new ByteArrayInputStream(file);
    FilterFile.Header h = FilterFile.readHeader(in);
    assertEquals(FilterFile.UNALIGNED_VERSION, h.version());
    assertEquals("nope", h.variant());
    assertEquals(spec, h.spec());
    assertEquals(4, h.hashCheck().length);
    assertEquals(exactPayload(2, 7, 1).length, h.payloadLength());
    assertEquals(h.payloadLength() + 4, in.available(), "nothing read past the header");
    assertEquals(null, FilterFile.readHeader(new ByteArrayInputStream(forge(1, "exact", SPEC, new byte[0]))).hashCheck());
    assertThrows(CorruptFilterException.class, () -> FilterFile.readHeader(new ByteArrayInputStream(new byte[] {0x43, 0x4B})));
  }

  @Test
  void headerFieldsAreChecked() throws IOException {
    byte[] v = "exact".getBytes(UTF_8);
    byte[] s = SPEC.getBytes(UTF_8);
    byte[] p = exactPayload(0);
    assertEquals("not a cuckoo filter file: magic 0x434B4F47, expected 0x434B4F46 (\"CKOF\")",
        rejection(forge(FilterFile.MAGIC + 1, 1, v, v.length, s, s.length, p.length, p)));
    assertEquals("unsupported filter file format version 4; this library reads versions 1 to 3",
        rejection(forge(FilterFile.MAGIC, 4, v, v.length, s, s.length, p.length, p)));
    assertEquals("unsupported filter file format version 0; this library reads versions 1 to 3",
        rejection(forge(FilterFile.MAGIC, 0, v, v.length, s, s.length, p.length, p)));
    assertEquals("variant name length 0 is out of range: 1..64",
        rejection(forge(FilterFile.MAGIC, 1, new byte[0], 0, s, s.length, p.length, p)));
    assertEquals("variant name length 65535 is out of range: 1..64",
        rejection(forge(FilterFile.MAGIC, 1, v, 65535, s, s.length, p.length, p)));
    assertEquals("spec length 4294967295 is out of range: 1..65536",
        rejection(forge(FilterFile.MAGIC, 1, v, v.length, s, -1, p.length, p)));
    assertEquals("spec length 2147483647 is out of range: 1..65536",
        rejection(forge(FilterFile.MAGIC, 1, v, v.length, s, Integer.MAX_VALUE, p.length, p)));
    assertEquals("payload length 18446744073709551615 is out of range",
        rejection(forge(FilterFile.MAGIC, 1, v, v.length, s, s.length, -1, p)));
  }

  @Test
  void namesAndSpecsAreChecked() throws IOException {
    String unknown = rejection(forge("nope", "nope?capacity=1", new byte[0]));
    assertTrue(unknown.contains("variant 'nope' is not installed") && unknown.contains("exact"), unknown);
    assertTrue(rejection(forge("exact", "classic?capacity=5", new byte[0])).contains("is not for variant exact"));
    assertTrue(rejection(forge("exact", "exact?capacity=lots", new byte[0])).contains("capacity=lots is not a whole number"));
    // no variant takes it: the spec, a value that looks nothing up, says so; what exact takes is its own refusal
    assertTrue(rejection(forge("exact", "exact?capacity=0", new byte[0])).contains("capacity=0 is out of range: at least 1"));
    assertTrue(rejection(forge("exact", "exact?capacity=100000000", new byte[0])).contains("capacity=100000000 is out of range for variant exact"));
    String hash = rejection(forge("exact", "exact?capacity=5&hash=sha512", exactPayload(0)));
    assertTrue(hash.contains("hash=sha512 is not installed") && hash.contains("fnv1a-mix")
        && hash.contains("CuckooFilters.read(in, hash)"), hash);
    byte[] badUtf8 = forge(FilterFile.MAGIC, 1, "exact".getBytes(UTF_8), 5, new byte[] {'e', (byte) 0xC3}, 2, 0, new byte[0]);
    assertEquals("the spec in the filter file is not valid UTF-8", rejection(badUtf8));
  }

  @Test
  void aDamagedNameOrSpecIsReportedAsDamageNotAsSomethingMissing() throws IOException {
    CuckooFilter f = CuckooFilters.create("exact?capacity=100");
    f.add(1L);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    byte[] file = out.toByteArray();
    byte[] variant = file.clone();
    variant[8 + 2] ^= 0x02; // "exact" becomes "excct"
    String m = rejection(variant);
    assertTrue(m.startsWith("filter file is damaged: checksum mismatch") && m.contains("variant 'excct' is not installed")
        && m.contains("did you mean 'exact'?"), m);
    byte[] spec = file.clone();
    spec[8 + 5 + 4 + "exact?capacity=".length()] ^= 0x01; // capacity=100 becomes capacity=000
    String s = rejection(spec);
    assertTrue(s.startsWith("filter file is damaged: checksum mismatch") && s.contains("capacity=0"), s);
    byte[] check = file.clone();
    check[8 + 5 + 4 + f.spec().toString().length() + 3] ^= 0x10;
    String c = rejection(check);
    assertTrue(c.startsWith("filter file is damaged: checksum mismatch") && c.contains("hash check differs"), c);
    // An intact file of a variant that is not installed says just that.
    String intact = rejection(forge("nope", "nope?capacity=1", new byte[0]));
    assertTrue(intact.startsWith("filter file cannot be read: variant 'nope' is not installed"), intact);
    // A truncated one is truncated, whatever its header says.
    byte[] cut = forge("nope", "nope?capacity=1", new byte[10]);
    String t = rejection(java.util.Arrays.copyOf(cut, cut.length - 8));
    assertTrue(t.startsWith("filter file is truncated") && t.contains("variant 'nope' is not installed"), t);
  }

  @Test
  void hugeDeclaredSizesAllocateNothing() throws IOException {
    // The payload claims 2^40 entries (12 TiB) and the envelope 2^62 payload bytes; the file is tiny.
    byte[] v = "exact".getBytes(UTF_8);
    byte[] s = SPEC.getBytes(UTF_8);
    byte[] p = exactPayload(1L << 40);
    String m = rejection(forge(FilterFile.MAGIC, 1, v, v.length, s, s.length, 1L << 62, p));
    assertTrue(m.contains("truncated") && m.contains("(4611686018427387904 bytes declared)"), m);
    // The largest length a file can declare: still a truncation, reported as such.
    String max = rejection(forge(FilterFile.MAGIC, 1, v, v.length, s, s.length, Long.MAX_VALUE, p));
    assertTrue(max.contains("truncated") && max.contains("(" + Long.MAX_VALUE + " bytes declared)"), max);
    String m2 = rejection(forge("exact", SPEC, exactPayload(1L << 40)));
    assertTrue(m2.contains("but only 0 of its 8 bytes remain"), m2);
  }

  @Test
  void arraysGrowOnlyAsTheirBytesArrive() throws IOException {
    // A payload that claims 2^28 longs (2 GiB) in a 2^62-byte payload, but holds 16 of them.
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    for (int i = 0; i < 16; i++) {
      out.writeLong(i);
    }
    EnvelopeReader r = new EnvelopeReader(new ByteArrayInputStream(bytes.toByteArray()));
    r.allow(Long.MAX_VALUE);
    PayloadInput in = new EnvelopePayloadInput(r, "demo", 1L << 62);
    long before = dev.cuckoo.testkit.AllocationMeter.threadAllocatedBytes();
    String m = assertThrows(CorruptFilterException.class, () -> in.readLongArray(1 << 28, "a table")).getMessage();
    long allocated = dev.cuckoo.testkit.AllocationMeter.threadAllocatedBytes() - before;
    assertTrue(m.contains("truncated"), m);
    assertTrue(allocated <= PayloadInput.DIRECT_READ_BYTES + (1 << 20), allocated + " bytes allocated");

    EnvelopeReader r2 = new EnvelopeReader(new ByteArrayInputStream(bytes.toByteArray()));
    r2.allow(Long.MAX_VALUE);
    PayloadInput in2 = new EnvelopePayloadInput(r2, "demo", 128);
    assertEquals(5L, in2.readLongArray(16, "a table")[5]);
    assertThrows(CorruptFilterException.class, () -> in2.readByteArray(1, "one more"));
  }

  @Test
  void thePayloadMustBeReadExactly() throws IOException {
    byte[] p = exactPayload(1, 5, 1);
    byte[] longer = java.util.Arrays.copyOf(p, p.length + 3);
    assertEquals("payload of variant exact has 3 bytes its contents do not account for (23 declared)",
        rejection(forge("exact", SPEC, longer)));
    byte[] v = "exact".getBytes(UTF_8);
    byte[] s = SPEC.getBytes(UTF_8);
    String shorter = rejection(forge(FilterFile.MAGIC, 1, v, v.length, s, s.length, p.length - 4, java.util.Arrays.copyOf(p, p.length - 4)));
    assertTrue(shorter.contains("payload of variant exact declares 1 entries (12 bytes), but only 8 of its 16 bytes remain"), shorter);
  }

  @Test
  void checksumAndTruncationAreReported() throws IOException {
    byte[] file = forge("exact", SPEC, exactPayload(1, 5, 1));
    byte[] bad = file.clone();
    bad[bad.length - 1] ^= 1;
    assertTrue(rejection(bad).startsWith("filter file is damaged: checksum mismatch, stored CRC32C 0x"));
    assertEquals("filter file is truncated: it ends after 3 bytes, inside the header", rejection(java.util.Arrays.copyOf(file, 3)));
    assertTrue(rejection(java.util.Arrays.copyOf(file, file.length - 10)).contains("inside the payload"));
    assertTrue(rejection(java.util.Arrays.copyOf(file, file.length - 2)).contains("inside the checksum"));
  }

  @Test
  void aGivenHashReplacesTheLookupByName() throws IOException {
    HashStrategy custom = new HashStrategy() {
      @Override public String name() { return "custom-hash"; }
      @Override public long hashBytes(byte[] b, int off, int len) { return 31L * len + (len > 0 ? b[off] : 0); }
    };
    CuckooFilter f = CuckooFilters.create(FilterSpec.builder("exact").capacity(10).hash(custom).build());
    f.add("hello");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    byte[] file = out.toByteArray();
    String m = rejection(file);
    assertTrue(m.contains("hash=custom-hash is not installed"), m);
    CuckooFilter g = CuckooFilters.read(new ByteArrayInputStream(file), custom);
    assertTrue(g.mightContain("hello"));
    assertEquals(custom, g.spec().hashInstance().get());
    HashStrategy other = CuckooFilters.hash("fnv1a-mix");
    String mismatch = assertThrows(CorruptFilterException.class,
        () -> CuckooFilters.read(new ByteArrayInputStream(file), other)).getMessage();
    assertTrue(mismatch.contains("uses hash custom-hash, not the given fnv1a-mix"), mismatch);
  }

  @Test
  void aWriterThatMisstatesItsLengthIsABug() {
    FilterSpec spec = CuckooFilters.create("exact?capacity=3").spec();
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> FilterFile.write(OutputStream.nullOutputStream(), spec, 5, out -> out.writeInt(1)));
    assertEquals("variant exact wrote 4 payload bytes but declared 5", e.getMessage());
  }

  @Test
  void payloadStreamsRoundTripEveryPrimitive() throws IOException {
    FilterSpec spec = CuckooFilters.create("exact?capacity=3").spec();
    long[] longs = new long[20_000];
    for (int i = 0; i < longs.length; i++) {
      longs[i] = i * 0x9E3779B97F4A7C15L;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long length = 1 + 1 + 2 + 2 + 4 + 8 + 4 + 8 + 3 + (2 + 5) + 8L * longs.length;
    FilterFile.write(out, spec, length, o -> {
      o.writeBoolean(true);
      o.writeByte(-2);
      o.writeShort(-3);
      o.writeChar('é');
      o.writeInt(-4);
      o.writeLong(-5);
      o.writeFloat(1.5f);
      o.writeDouble(2.5);
      o.write(new byte[] {1, 2, 3});
      o.writeUTF("héllo".substring(0, 4));
      o.writeLongs(longs, 0, longs.length);
    });
    // Read the payload back through the reader's own stream, as a provider would.
    EnvelopeReader r = new EnvelopeReader(new ByteArrayInputStream(out.toByteArray()));
    r.allow(Long.MAX_VALUE);
    int header = 4 + 2 + 2 + 5 + 4 + spec.toString().length() + FilterFile.HASH_CHECK_BYTES + 8;
    r.skip(header);
    PayloadInput in = new EnvelopePayloadInput(r, "exact", length);
    assertTrue(in.readBoolean());
    assertEquals(-2, in.readByte());
    assertEquals(-3, in.readShort());
    assertEquals('é', in.readChar());
    assertEquals(-4, in.readInt());
    assertEquals(-5, in.readLong());
    assertEquals(1.5f, in.readFloat());
    assertEquals(2.5, in.readDouble());
    byte[] three = new byte[3];
    in.readFully(three);
    assertEquals("[1, 2, 3]", java.util.Arrays.toString(three));
    assertEquals("héll", in.readUTF());
    long[] back = new long[longs.length];
    in.readLongs(back, 0, back.length);
    assertEquals(java.util.Arrays.toString(longs), java.util.Arrays.toString(back));
    assertEquals(0, in.remaining());
    assertThrows(CorruptFilterException.class, in::readByte);
    assertThrows(CorruptFilterException.class, () -> in.requireRemaining(1, "one more byte"));
  }
}
