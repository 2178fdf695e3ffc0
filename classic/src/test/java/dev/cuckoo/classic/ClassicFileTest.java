package dev.cuckoo.classic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.CuckooSizing;
import dev.cuckoo.spi.FilterFile;
import dev.cuckoo.spi.PayloadOutput;
import dev.cuckoo.testkit.AllocationMeter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Files that are well formed, checksum and all, but whose classic payload lies: each must be
 * rejected with {@link CorruptFilterException}, and none may make the reader allocate what
 * it claims.
 */
class ClassicFileTest {

  /** Writes a payload, field by field. */
  @FunctionalInterface
  interface Fields {
    void write(PayloadOutput out) throws IOException;
  }

  /** A checksum-valid file of this spec whose payload is whatever {@code fields} writes. */
  private static byte[] file(String spec, long payloadLength, Fields fields) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FilterSpec resolved = CuckooFilters.provider("classic").validate(FilterSpec.parse(spec));
    FilterFile.write(out, resolved, payloadLength, fields::write);
    return out.toByteArray();
  }

  private static CorruptFilterException rejected(byte[] file) {
    long before = AllocationMeter.threadAllocatedBytes();
    CorruptFilterException e =
        assertThrows(CorruptFilterException.class, () -> CuckooFilters.read(new ByteArrayInputStream(file)));
    long allocated = AllocationMeter.threadAllocatedBytes() - before;
    assertTrue(allocated < (8L << 20), allocated + " bytes allocated to reject a file of " + file.length + " bytes");
    return e;
  }

  @Test
  void aPayloadThatClaimsAHugeTableIsRejectedWithoutAllocatingIt() throws IOException {
    // 30 billion items of 4 bits in buckets of 8: a 16 GiB table, declared consistently with
    // the spec, in a file of a few dozen bytes.
    String spec = "classic?capacity=30000000000&fingerprintBits=4&bucketSize=8";
    long buckets = CuckooSizing.bucketCount(30_000_000_000L, 8, 4);
    long words = BucketTable.payloadWords(buckets, 8, 4);
    CorruptFilterException e = rejected(file(spec, 28, out -> {
      out.writeInt(ClassicFilter.PAYLOAD_LAYOUT);
      out.writeLong(buckets);
      out.writeLong(0);
      out.writeLong(words);
    }));
    assertTrue(e.getMessage().contains(Long.toString(words)), e.getMessage());
  }

  @Test
  void aForgedPayloadLengthWithATruncatedFileAllocatesInStepWithTheBytes() throws IOException {
    // The envelope itself claims the 2 GiB payload the spec implies, and the stream ends early:
    // no length check can tell, so the table must grow with the bytes that really arrive.
    long capacity = 4_000_000_000L;
    FilterSpec spec = CuckooFilters.provider("classic").validate(
        FilterSpec.parse("classic?capacity=" + capacity + "&fingerprintBits=4&bucketSize=4"));
    long buckets = CuckooSizing.bucketCount(capacity, 4, 4);
    long words = BucketTable.payloadWords(buckets, 4, 4);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    byte[] specText = spec.toString().getBytes(StandardCharsets.UTF_8);
    out.writeInt(FilterFile.MAGIC);
    out.writeShort(FilterFile.FORMAT_VERSION);
    out.writeShort(7);
    out.write("classic".getBytes(StandardCharsets.US_ASCII));
    out.writeInt(specText.length);
    out.write(specText);
    out.writeLong(ClassicFilter.PAYLOAD_HEADER_BYTES + words * 8 + 4);
    out.writeInt(ClassicFilter.PAYLOAD_LAYOUT);
    out.writeLong(buckets);
    out.writeLong(0);
    out.writeLong(words);
    out.write(new byte[1 << 16]); // 64 KiB of the promised 2 GiB
    long before = AllocationMeter.threadAllocatedBytes();
    assertThrows(CorruptFilterException.class, () -> CuckooFilters.read(new ByteArrayInputStream(bytes.toByteArray())));
    long allocated = AllocationMeter.threadAllocatedBytes() - before;
    assertTrue(allocated < (80L << 20), allocated + " bytes allocated for 64 KiB of table");
  }

  @Test
  void everyLyingFieldIsRejected() throws IOException {
    String spec = "classic?capacity=1000&fingerprintBits=12&bucketSize=4";
    long buckets = CuckooSizing.bucketCount(1000, 4, 12);
    int words = (int) BucketTable.payloadWords(buckets, 4, 12);
    long length = ClassicFilter.PAYLOAD_HEADER_BYTES + words * 8L + 4;
    // A table holding one fingerprint, in slot 0.
    long[] table = new long[words];
    table[0] = 0x123;
    assertTrue(rejected(file(spec, length, payload(2, buckets, 1, words, table, 0))).getMessage().contains("layout 2"));
    assertTrue(rejected(file(spec, length, payload(1, buckets + 2, 1, words, table, 0))).getMessage().contains("buckets"));
    assertTrue(rejected(file(spec, length, payload(1, buckets, -1, words, table, 0))).getMessage().contains("items"));
    assertTrue(rejected(file(spec, length, payload(1, buckets, 2, words, table, 0))).getMessage().contains("hold 1 "));
    assertTrue(rejected(file(spec, length, payload(1, buckets, 1, words - 1, table, 0))).getMessage().contains("longs"));
    long[] tail = table.clone();
    tail[words - 1] = Long.MIN_VALUE; // past the last slot: 4·12·buckets bits end mid-word
    assertTrue(rejected(file(spec, length, payload(1, buckets, 1, words, tail, 0))).getMessage().contains("after the last slot"));
    assertTrue(rejected(file(spec, length, payload(1, buckets, 1, words, table, 9))).getMessage().contains("stash"));
    // Stash entries: a bucket out of range, a zero fingerprint, one wider than 12 bits.
    long[][] entries = {{buckets, 5}, {0, 0}, {0, 1 << 12}};
    for (long[] entry : entries) {
      byte[] f = file(spec, length + 12, out -> {
        payload(1, buckets, 2, words, table, 1).write(out);
        out.writeLong(entry[0]);
        out.writeInt((int) entry[1]);
      });
      assertTrue(rejected(f).getMessage().contains("stash entry 0"));
    }
    // And the same fields telling the truth are read.
    CuckooFilter f = CuckooFilters.read(new ByteArrayInputStream(file(spec, length, payload(1, buckets, 1, words, table, 0))));
    assertEquals(1, f.size());
  }

  private static Fields payload(int layout, long buckets, long size, long words, long[] table, int stashed) {
    return out -> {
      out.writeInt(layout);
      out.writeLong(buckets);
      out.writeLong(size);
      out.writeLong(words);
      for (int i = 0; i < (int) Math.min(words, table.length); i++) {
        out.writeLong(table[i]);
      }
      for (long i = Math.min(words, table.length); i < table.length; i++) {
        out.writeLong(0); // keep the declared length when words lies
      }
      out.writeInt(stashed);
    };
  }
}
