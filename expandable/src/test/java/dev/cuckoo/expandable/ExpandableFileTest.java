package dev.cuckoo.expandable;

import static dev.cuckoo.testkit.ForgedFiles.file;
import static dev.cuckoo.testkit.ForgedFiles.rejected;
import static dev.cuckoo.testkit.ForgedFiles.truncated;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.testkit.ForgedFiles;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Expandable files that are well formed, checksum and all, but lie: each is rejected with {@link
 * dev.cuckoo.CorruptFilterException} naming what is wrong, and none makes the reader allocate
 * what it claims.
 */
class ExpandableFileTest {
  /** A first table of 2^5 buckets of 16-bit lanes: 32 longs. */
  private static final String SPEC = "expandable?capacity=100";
  private static final int START_K = 5;

  /** A payload, field by field. */
  private static ForgedFiles.Fields payload(int layout, int k, long keys, long entries, long words, long[] table,
      long[][] stash) {
    return out -> {
      out.writeInt(layout);
      out.writeInt(k);
      out.writeLong(keys);
      out.writeLong(entries);
      out.writeLong(words);
      for (long w : table) {
        out.writeLong(w);
      }
      out.writeInt(stash.length);
      for (long[] s : stash) {
        out.writeLong(s[0]);
        out.writeInt((int) s[1]);
      }
    };
  }

  private static long length(long[] table, int stashed) {
    return ExpandablePayload.HEADER_BYTES + 8L * table.length + 4 + 12L * stashed;
  }

  /** @return an empty table of 2^k buckets with {@code entry} in slot 0 of bucket 3 */
  private static long[] table(int k, int entry) {
    long[] words = new long[1 << k];
    Arrays.fill(words, 0x0001_0001_0001_0001L);
    words[3] = (words[3] & ~0xFFFFL) | entry;
    return words;
  }

  /** Bits of a 16-bit lane's code. */
  private static final int CODE_BITS = 16 - LaneTable.TAG_BITS;
  /** A fresh entry: tag 5, fingerprint bits 0xAB, marker in bit 0. */
  private static final int ENTRY = 5 << CODE_BITS | 0xAB << 1 | 1;

  private static byte[] file(int layout, int k, long keys, long entries, long words, long[] table, long[][] stash)
      throws IOException {
    return ForgedFiles.file(SPEC, length(table, stash.length), payload(layout, k, keys, entries, words, table, stash));
  }

  @Test
  void theTruthIsRead() throws IOException {
    long[] t = table(START_K, ENTRY);
    CuckooFilter f = CuckooFilters.read(new ByteArrayInputStream(file(1, START_K, 1, 2, 32, t, new long[][] {{7, ENTRY}})));
    assertEquals(1, f.size());
    assertEquals(2, ((ExpandableFilter) f).entries());
    // A grown table: 2^6 buckets, an entry that has seen one doubling.
    long[] grown = table(START_K + 1, ((ENTRY << 1) & ((1 << CODE_BITS) - 1)) | (5 << CODE_BITS));
    assertEquals(1, CuckooFilters.read(new ByteArrayInputStream(file(1, START_K + 1, 1, 1, 64, grown, new long[0][]))).size());
  }

  @Test
  void everyLyingFieldIsRejected() throws IOException {
    long[] t = table(START_K, ENTRY);
    long[][] none = new long[0][];
    assertMessage(file(2, START_K, 1, 1, 32, t, none), "layout 2");
    assertMessage(file(1, START_K - 1, 1, 1, 32, t, none), "2^4 buckets");
    assertMessage(file(1, 31, 1, 1, 32, t, none), "2^31 buckets");
    assertMessage(file(1, START_K, 2, 1, 32, t, none), "2 keys in 1 entries");
    assertMessage(file(1, START_K, -1, 1, 32, t, none), "-1 keys");
    assertMessage(file(1, START_K, 0, -1, 32, t, none), "-1 entries");
    assertMessage(file(1, START_K, 1, 1, 31, t, none), "31 longs");
    assertMessage(file(1, START_K, 1, 2, 32, t, none), "declares 2 entries, but its table and stash hold 1");
    // Lanes that are neither empty nor an entry: zero, a marker without a tag, a tag without one.
    for (int lane : new int[] {0, 0x0002, 0x5000}) {
      assertMessage(file(1, START_K, 1, 1, 32, table(START_K, lane), none), "neither empty nor an entry");
    }
    // An entry older than the doublings since the first table (none here).
    assertMessage(file(1, START_K, 1, 1, 32, table(START_K, (ENTRY & ~1) | 2), none), "age 1");
    // The stash: a count out of range, a bucket out of range, an entry that is none.
    assertMessage(file(1, START_K, 1, 2, 32, t, new long[][] {{32, ENTRY}}), "stash entry 0 has bucket 32");
    assertMessage(file(1, START_K, 1, 2, 32, t, new long[][] {{3, 0x0001}}), "stash entry 0 holds 0x1");
  }

  @Test
  void aStashCountBeyondTheLimitIsRejectedBeforeReadingIt() throws IOException {
    long[] t = table(START_K, ENTRY);
    byte[] f = ForgedFiles.file(SPEC, length(t, 0), out -> {
      out.writeInt(1);
      out.writeInt(START_K);
      out.writeLong(1);
      out.writeLong(1);
      out.writeLong(32);
      for (long w : t) {
        out.writeLong(w);
      }
      out.writeInt(AgedStash.MAX_ENTRIES + 1);
    });
    assertMessage(f, (AgedStash.MAX_ENTRIES + 1) + " stashed entries");
  }

  @Test
  void aHugeTableIsRefusedWithoutAllocatingIt() throws IOException {
    // 2^30 buckets of 16-bit lanes: an 8 GiB table, declared in a file of a hundred bytes.
    long words = 1L << 30;
    byte[] f = ForgedFiles.file(SPEC, ExpandablePayload.HEADER_BYTES, out -> {
      out.writeInt(1);
      out.writeInt(30);
      out.writeLong(0);
      out.writeLong(0);
      out.writeLong(words);
    });
    assertTrue(rejected(f).getMessage().contains(Long.toString(words)));
    // The same, the envelope not lying about the length but the file ending early.
    byte[] cut = truncated(SPEC, ExpandablePayload.HEADER_BYTES + words * 8 + 4, out -> {
      out.writeInt(1);
      out.writeInt(30);
      out.writeLong(0);
      out.writeLong(0);
      out.writeLong(words);
    }, 1 << 16);
    String m = rejected(cut, 80L << 20).getMessage();
    assertTrue(m.contains("truncated"), m);
  }

  private static void assertMessage(byte[] file, String expected) {
    String m = rejected(file).getMessage();
    assertTrue(m.contains(expected), "'" + expected + "' not in: " + m);
  }
}
