package dev.cuckoo.classic;

import static dev.cuckoo.testkit.ForgedFiles.file;
import static dev.cuckoo.testkit.ForgedFiles.rejected;
import static dev.cuckoo.testkit.ForgedFiles.tablePayload;
import static dev.cuckoo.testkit.ForgedFiles.truncated;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.CuckooSizing;
import dev.cuckoo.testkit.ForgedFiles;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Files that are well formed, checksum and all, but whose classic payload lies: each must be
 * rejected with {@link CorruptFilterException}, and none may make the reader allocate what
 * it claims.
 */
class ClassicFileTest {

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
    byte[] file = truncated(spec.toString(), ClassicFilter.PAYLOAD_HEADER_BYTES + words * 8 + 4, out -> {
      out.writeInt(ClassicFilter.PAYLOAD_LAYOUT);
      out.writeLong(buckets);
      out.writeLong(0);
      out.writeLong(words);
    }, 1 << 16); // 64 KiB of the promised table
    // At most the first 64 MiB part of the table, however much it declares.
    String m = rejected(file, 80L << 20).getMessage();
    assertTrue(m.contains("truncated") && m.contains(" bytes declared"), m);
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
    assertTrue(rejected(file(spec, length, tablePayload(2, buckets, 1, words, table, 0))).getMessage().contains("layout 2"));
    assertTrue(rejected(file(spec, length, tablePayload(1, buckets + 2, 1, words, table, 0))).getMessage().contains("buckets"));
    assertTrue(rejected(file(spec, length, tablePayload(1, buckets, -1, words, table, 0))).getMessage().contains("items"));
    assertTrue(rejected(file(spec, length, tablePayload(1, buckets, 2, words, table, 0))).getMessage().contains("hold 1 "));
    assertTrue(rejected(file(spec, length, tablePayload(1, buckets, 1, words - 1, table, 0))).getMessage().contains("longs"));
    long[] tail = table.clone();
    tail[words - 1] = Long.MIN_VALUE; // past the last slot: 4·12·buckets bits end mid-word
    assertTrue(rejected(file(spec, length, tablePayload(1, buckets, 1, words, tail, 0))).getMessage().contains("after the last slot"));
    assertTrue(rejected(file(spec, length, tablePayload(1, buckets, 1, words, table, 9))).getMessage().contains("stash"));
    // Stash entries: a bucket out of range, a zero fingerprint, one wider than 12 bits.
    long[][] entries = {{buckets, 5}, {0, 0}, {0, 1 << 12}};
    for (long[] entry : entries) {
      byte[] f = file(spec, length + 12, out -> {
        tablePayload(1, buckets, 2, words, table, 1).write(out);
        out.writeLong(entry[0]);
        out.writeInt((int) entry[1]);
      });
      assertTrue(rejected(f).getMessage().contains("stash entry 0"));
    }
    // Huge counts, named and refused before anything is allocated for them.
    ForgedFiles.hugeCountsRejected(spec, length, buckets, table);
    // And the same fields telling the truth are read.
    CuckooFilter f = CuckooFilters.read(new ByteArrayInputStream(file(spec, length, tablePayload(1, buckets, 1, words, table, 0))));
    assertEquals(1, f.size());
  }
}
