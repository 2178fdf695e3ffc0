package dev.cuckoo.semisorted;

import static dev.cuckoo.testkit.ForgedFiles.file;
import static dev.cuckoo.testkit.ForgedFiles.rejected;
import static dev.cuckoo.testkit.ForgedFiles.tablePayload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.engine.CuckooSizing;
import dev.cuckoo.engine.TableFilter;
import dev.cuckoo.engine.testkit.TablePayloadContractTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * The table payload's hostile-file suite, over semi-sorted tables, and what only they can get
 * wrong: a bucket that is not the one encoding of its fingerprints, which lookups would index
 * past the codec's tables with.
 */
class SemiSortedFileTest extends TablePayloadContractTest {
  private static final String SMALL = "semi-sorted?capacity=1010&fingerprintBits=13"; // its table ends mid-word

  @Override
  protected long tableWords(FilterSpec spec, long buckets) {
    return SemiSortedTable.payloadWords(buckets, spec.fingerprintBits().getAsInt());
  }

  /** 4 billion items of 16 bits in 15: an 8 GB table. */
  @Override
  protected String hugeConfig() {
    return "semi-sorted?capacity=4000000000&fingerprintBits=16";
  }

  /** 1 billion items of 16 bits in 15: a 2 GB table. */
  @Override
  protected String truncatedConfig() {
    return "semi-sorted?capacity=1000000000&fingerprintBits=16";
  }

  /** 13-bit fingerprints: 48-bit buckets, so the table ends mid-word. */
  @Override
  protected String smallConfig() {
    return SMALL;
  }

  /**
   * Fingerprint 0x1FF5 in bucket 0: the code of nibbles 0, 0, 0, 5 and the high part 0x1FF in
   * slot 3, at bit 12 + 3·9.
   */
  @Override
  protected long[] tableWithOneFingerprint(int words) {
    long[] table = new long[words];
    table[0] = SemiSortCodec.encode(0, 0, 0, 5) | 0x1FFL << 39;
    return table;
  }

  @Test
  void bucketsThatAreNotTheEncodingOfTheirFingerprintsAreRejected() throws IOException {
    long buckets = CuckooSizing.bucketCount(1010, 4, 13);
    int words = (int) SemiSortedTable.payloadWords(buckets, 13);
    long length = HEADER_BYTES + words * 8L + 4;
    long[] table = tableWithOneFingerprint(words);
    // A code past the last of the 3876 (which lookups would index the codec's tables with), and
    // a bucket whose slots are out of order (nibbles 0, 0, 0, 0 with high parts 2, 1, 0, 0).
    long[] badCode = table.clone();
    badCode[1] = SemiSortCodec.CODES << 16; // bucket 1 starts at bit 48
    assertTrue(rejected(file(SMALL, length, tablePayload(LAYOUT, buckets, 1, words, badCode, 0))).getMessage().contains("bucket 1 "));
    long[] unsorted = table.clone();
    unsorted[0] = 2L << 12 | 1L << 21;
    assertTrue(rejected(file(SMALL, length, tablePayload(LAYOUT, buckets, 2, words, unsorted, 0))).getMessage().contains("bucket 0 "));
    // The canonical bucket reads back as the fingerprint it encodes.
    TableFilter f = (TableFilter) CuckooFilters.read(
        new ByteArrayInputStream(file(SMALL, length, tablePayload(LAYOUT, buckets, 1, words, table, 0))));
    assertEquals(1, ((SemiSortedTable) f.table()).occupied(0));
    assertEquals(0x1FF5, f.table().entryAt(0, 3));
  }
}
