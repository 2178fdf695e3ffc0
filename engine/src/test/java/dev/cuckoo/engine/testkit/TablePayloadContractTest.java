package dev.cuckoo.engine.testkit;

import static dev.cuckoo.testkit.ForgedFiles.file;
import static dev.cuckoo.testkit.ForgedFiles.rejected;
import static dev.cuckoo.testkit.ForgedFiles.tablePayload;
import static dev.cuckoo.testkit.ForgedFiles.truncated;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.engine.CuckooSizing;
import dev.cuckoo.engine.file.TablePayload;
import dev.cuckoo.testkit.ForgedFiles;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Files of a variant whose payload is the engine's {@link TablePayload}, well formed, checksum
 * and all, but lying: each must be rejected with {@link CorruptFilterException}, and none may
 * make the reader allocate what it claims. A subclass says how large the variant's tables are and
 * what one holding a single fingerprint looks like; the suite does the rest (the pattern of the
 * contract test kit). {@link TableVariantContractTest} runs it for a variant.
 */
public abstract class TablePayloadContractTest {
  /** The payload layout of format version 2, which forged files of the suite and of a variant's own tests use. */
  public static final int LAYOUT = TablePayload.LAYOUT;
  /** Bytes of a version-2 payload before the table's words. */
  public static final int HEADER_BYTES = TablePayload.HEADER_BYTES;

  /**
   * @param spec a resolved spec of the variant
   * @param buckets its bucket count
   * @return W, the longs its table takes in the payload
   */
  protected abstract long tableWords(FilterSpec spec, long buckets);

  /** @return a config whose table takes gigabytes: a payload declaring it must be refused */
  protected abstract String hugeConfig();

  /** @return a config whose table takes 1 to 2 GiB: a truncated file of it must be refused */
  protected abstract String truncatedConfig();

  /** @return a config of a few thousand keys, for the lying fields */
  protected abstract String smallConfig();

  /**
   * @param words W of {@link #smallConfig}
   * @return a table of {@link #smallConfig} holding exactly one fingerprint
   */
  protected abstract long[] tableWithOneFingerprint(int words);

  private static FilterSpec resolve(String config) {
    FilterSpec parsed = FilterSpec.parse(config);
    return CuckooFilters.variant(parsed.variant()).resolve(parsed);
  }

  private static long buckets(FilterSpec spec) {
    return CuckooSizing.bucketCount(spec.capacity().getAsLong(), spec.bucketSize().getAsInt(),
        spec.fingerprintBits().getAsInt());
  }

  @Test
  void aPayloadThatClaimsAHugeTableIsRejectedWithoutAllocatingIt() throws IOException {
    // A table of gigabytes, declared consistently with the spec, in a file of a few dozen bytes.
    FilterSpec spec = resolve(hugeConfig());
    long buckets = buckets(spec);
    long words = tableWords(spec, buckets);
    CorruptFilterException e = rejected(file(spec.toString(), TablePayload.HEADER_BYTES, out -> {
      out.writeInt(TablePayload.LAYOUT);
      out.writeLong(buckets);
      out.writeLong(0);
      out.writeLong(words);
    }));
    assertTrue(e.getMessage().contains(Long.toString(words)), e.getMessage());
  }

  @Test
  void aForgedPayloadLengthWithATruncatedFileAllocatesInStepWithTheBytes() throws IOException {
    // The envelope itself claims the payload the spec implies, and the stream ends early: no
    // length check can tell, so the table must grow with the bytes that really arrive.
    FilterSpec spec = resolve(truncatedConfig());
    long buckets = buckets(spec);
    long words = tableWords(spec, buckets);
    byte[] file = truncated(spec.toString(), TablePayload.HEADER_BYTES + words * 8 + 4, out -> {
      out.writeInt(TablePayload.LAYOUT);
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
    FilterSpec resolved = resolve(smallConfig());
    String spec = resolved.toString();
    int bits = resolved.fingerprintBits().getAsInt();
    long buckets = buckets(resolved);
    int words = (int) tableWords(resolved, buckets);
    long length = TablePayload.HEADER_BYTES + words * 8L + 4;
    long[] table = tableWithOneFingerprint(words);
    assertTrue(rejected(file(spec, length, tablePayload(4, buckets, 1, words, table, 0))).getMessage().contains("layout 4"));
    assertTrue(rejected(file(spec, length, tablePayload(LAYOUT, buckets + 2, 1, words, table, 0))).getMessage().contains("buckets"));
    assertTrue(rejected(file(spec, length, tablePayload(LAYOUT, buckets, -1, words, table, 0))).getMessage().contains("items"));
    assertTrue(rejected(file(spec, length, tablePayload(LAYOUT, buckets, 2, words, table, 0))).getMessage().contains("hold 1 "));
    assertTrue(rejected(file(spec, length, tablePayload(LAYOUT, buckets, 1, words - 1, table, 0))).getMessage().contains("longs"));
    long[] tail = table.clone();
    tail[words - 1] = Long.MIN_VALUE; // the tables of the small config end mid-word
    assertTrue(rejected(file(spec, length, tablePayload(LAYOUT, buckets, 1, words, tail, 0))).getMessage().contains("after the last bucket"));
    assertTrue(rejected(file(spec, length, tablePayload(LAYOUT, buckets, 1, words, table, 9))).getMessage().contains("stash"));
    // Stash entries: a bucket out of range, a zero fingerprint, one wider than the width.
    long[][] entries = {{buckets, 5}, {0, 0}, {0, 1L << bits}};
    for (long[] entry : entries) {
      byte[] f = file(spec, length + 12, out -> {
        tablePayload(LAYOUT, buckets, 2, words, table, 1).write(out);
        out.writeLong(entry[0]);
        out.writeInt((int) entry[1]);
      });
      assertTrue(rejected(f).getMessage().contains("stash entry 0"));
    }
    // Huge counts, named and refused before anything is allocated for them.
    ForgedFiles.hugeCountsRejected(spec, length, LAYOUT, buckets, table);
    // And the same fields telling the truth are read.
    CuckooFilter f = CuckooFilters.read(new ByteArrayInputStream(file(spec, length, tablePayload(LAYOUT, buckets, 1, words, table, 0))));
    assertEquals(1, f.size());
  }

  @Test
  void aLayoutOnePayloadKeepsTheTableOf0_1_0AndIsWrittenBackAsLayoutOne() throws IOException {
    FilterSpec resolved = resolve(smallConfig());
    String spec = resolved.toString();
    long legacy = CuckooSizing.legacyBucketCount(resolved.capacity().getAsLong(), resolved.bucketSize().getAsInt(),
        resolved.fingerprintBits().getAsInt());
    int words = (int) tableWords(resolved, legacy);
    long length = TablePayload.HEADER_BYTES + words * 8L + 4;
    byte[] bytes = file(spec, length, tablePayload(TablePayload.LEGACY_LAYOUT, legacy, 1, words,
        tableWithOneFingerprint(words), 0));
    CuckooFilter f = CuckooFilters.read(new ByteArrayInputStream(bytes));
    assertEquals(1, f.size());
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    f.writeTo(again);
    // Written again, it is a version 3 file in layout 3 whose sizing field keeps 0.1.0's table.
    byte[] written = again.toByteArray();
    long payload = written.length - 4 - TablePayload.alignedLength(words); // the checksum follows the payload
    assertEquals(TablePayload.ALIGNED_LAYOUT, java.nio.ByteBuffer.wrap(written).getInt((int) payload));
    assertEquals(TablePayload.LEGACY_LAYOUT, java.nio.ByteBuffer.wrap(written).getInt((int) payload + 4));
    CuckooFilter back = CuckooFilters.read(new ByteArrayInputStream(written));
    assertEquals(f.slots(), back.slots(), "a layout 1 filter written again keeps its table");
    assertEquals(1, back.size());
    ByteArrayOutputStream third = new ByteArrayOutputStream();
    back.writeTo(third);
    assertArrayEquals(written, third.toByteArray(), "a layout 1 filter written a third time");
    long current = buckets(resolved);
    if (current != legacy) { // each layout's bucket count is refused under the other
      int currentWords = (int) tableWords(resolved, current);
      long currentLength = TablePayload.HEADER_BYTES + currentWords * 8L + 4;
      String m = rejected(file(spec, currentLength, tablePayload(TablePayload.LEGACY_LAYOUT, current, 1, currentWords,
          tableWithOneFingerprint(currentWords), 0))).getMessage();
      assertTrue(m.contains("layout 1") && m.contains("buckets"), m);
      m = rejected(file(spec, length, tablePayload(LAYOUT, legacy, 1, words, tableWithOneFingerprint(words), 0)))
          .getMessage();
      assertTrue(m.contains("layout 2") && m.contains("buckets"), m);
    }
  }
}
