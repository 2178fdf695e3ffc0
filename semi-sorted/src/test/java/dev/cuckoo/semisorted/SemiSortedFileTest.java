package dev.cuckoo.semisorted;

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
 * Files that are well formed, checksum and all, but whose semi-sorted payload lies: each must be
 * rejected with {@link CorruptFilterException}, and none may make the reader allocate what it
 * claims or build a table whose lookups would index past the codec's tables.
 */
class SemiSortedFileTest {

  @Test
  void aPayloadThatClaimsAHugeTableIsRejectedWithoutAllocatingIt() throws IOException {
    // 4 billion items of 16 bits in 15: an 8 GB table, declared consistently with the spec, in
    // a file of a few dozen bytes.
    String spec = "semi-sorted?capacity=4000000000&fingerprintBits=16";
    long buckets = CuckooSizing.bucketCount(4_000_000_000L, 4, 16);
    long words = SemiSortedTable.payloadWords(buckets, 16);
    CorruptFilterException e = rejected(file(spec, 28, out -> {
      out.writeInt(SemiSortedFilter.PAYLOAD_LAYOUT);
      out.writeLong(buckets);
      out.writeLong(0);
      out.writeLong(words);
    }));
    assertTrue(e.getMessage().contains(Long.toString(words)), e.getMessage());
  }

  @Test
  void aForgedPayloadLengthWithATruncatedFileAllocatesInStepWithTheBytes() throws IOException {
    // The envelope itself claims the 2 GB payload the spec implies, and the stream ends early:
    // no length check can tell, so the table must grow with the bytes that really arrive.
    long capacity = 1_000_000_000L;
    FilterSpec spec = CuckooFilters.provider(SemiSortedProvider.NAME).validate(
        FilterSpec.parse("semi-sorted?capacity=" + capacity + "&fingerprintBits=16"));
    long buckets = CuckooSizing.bucketCount(capacity, 4, 16);
    long words = SemiSortedTable.payloadWords(buckets, 16);
    byte[] file = truncated(spec.toString(), SemiSortedFilter.PAYLOAD_HEADER_BYTES + words * 8 + 4, out -> {
      out.writeInt(SemiSortedFilter.PAYLOAD_LAYOUT);
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
    String spec = "semi-sorted?capacity=1000&fingerprintBits=13";
    long buckets = CuckooSizing.bucketCount(1000, 4, 13);
    int words = (int) SemiSortedTable.payloadWords(buckets, 13);
    long length = SemiSortedFilter.PAYLOAD_HEADER_BYTES + words * 8L + 4;
    // A table holding one fingerprint, 0x1FF5, in bucket 0: code of nibbles 0, 0, 0, 5 and the
    // high part 0x1FF in slot 3, at bit 12 + 3·9.
    long[] table = new long[words];
    table[0] = SemiSortCodec.encode(0, 0, 0, 5) | 0x1FFL << 39;
    assertTrue(rejected(file(spec, length, tablePayload(2, buckets, 1, words, table, 0))).getMessage().contains("layout 2"));
    assertTrue(rejected(file(spec, length, tablePayload(1, buckets + 2, 1, words, table, 0))).getMessage().contains("buckets"));
    assertTrue(rejected(file(spec, length, tablePayload(1, buckets, -1, words, table, 0))).getMessage().contains("items"));
    assertTrue(rejected(file(spec, length, tablePayload(1, buckets, 2, words, table, 0))).getMessage().contains("hold 1 "));
    assertTrue(rejected(file(spec, length, tablePayload(1, buckets, 1, words - 1, table, 0))).getMessage().contains("longs"));
    long[] tail = table.clone();
    tail[words - 1] = Long.MIN_VALUE; // past the last bucket: 48·buckets bits end mid-word
    assertTrue(rejected(file(spec, length, tablePayload(1, buckets, 1, words, tail, 0))).getMessage().contains("after the last bucket"));
    // A code past the last of the 3876 (which lookups would index the codec's tables with), and
    // a bucket whose slots are out of order (nibbles 0, 0, 0, 0 with high parts 2, 1, 0, 0).
    long[] badCode = table.clone();
    badCode[1] = SemiSortCodec.CODES << 16; // bucket 1 starts at bit 48
    assertTrue(rejected(file(spec, length, tablePayload(1, buckets, 1, words, badCode, 0))).getMessage().contains("bucket 1 "));
    long[] unsorted = table.clone();
    unsorted[0] = 2L << 12 | 1L << 21;
    assertTrue(rejected(file(spec, length, tablePayload(1, buckets, 2, words, unsorted, 0))).getMessage().contains("bucket 0 "));
    assertTrue(rejected(file(spec, length, tablePayload(1, buckets, 1, words, table, 9))).getMessage().contains("stash"));
    // Stash entries: a bucket out of range, a zero fingerprint, one wider than 13 bits.
    long[][] entries = {{buckets, 5}, {0, 0}, {0, 1 << 13}};
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
    assertEquals(1, ((SemiSortedFilter) f).table().occupied(0));
    assertEquals(0x1FF5, ((SemiSortedFilter) f).table().fingerprintAt(0, 3));
  }
}
