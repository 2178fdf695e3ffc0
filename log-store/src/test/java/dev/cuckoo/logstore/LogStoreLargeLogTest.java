package dev.cuckoo.logstore;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real log past 4 GiB on the file system: 260 values of the largest size, then small records
 * whose offsets need more than 32 bits, read back, reopened, and compacted down again.
 */
class LogStoreLargeLogTest {
  private static final long FOUR_GIB = 1L << 32;

  @TempDir
  Path dir;

  private static byte[] key(String s) {
    return s.getBytes(UTF_8);
  }

  /** The i-th large value: the largest size, its first and last bytes telling it from the others. */
  private static byte[] large(byte[] buffer, int i) {
    Arrays.fill(buffer, 0, 8, (byte) i);
    Arrays.fill(buffer, buffer.length - 8, buffer.length, (byte) ~i);
    return buffer;
  }

  @Test
  void aLogOfMoreThanFourGibibytesReadsReopensAndCompacts() throws IOException {
    byte[] buffer = new byte[LogStore.MAX_VALUE_BYTES];
    int largeValues = (int) (FOUR_GIB / LogStore.MAX_VALUE_BYTES) + 4;
    int small = 2_000;
    long endOfLarge;
    try (LogStore s = LogStore.open(dir)) {
      for (int i = 0; i < largeValues; i++) {
        s.put(key("large-" + i), large(buffer, i));
      }
      endOfLarge = s.logSizeInBytes();
      assertTrue(endOfLarge > FOUR_GIB, "the log holds " + endOfLarge + " bytes");
      for (int i = 0; i < small; i++) {
        s.put(key("small-" + i), key("value-" + i));
      }
      s.remove(key("small-0"));
      s.flush();
      assertSmallRecords(s, small);
      assertArrayEquals(large(new byte[LogStore.MAX_VALUE_BYTES], largeValues - 1), s.get(key("large-" + (largeValues - 1))));
    }
    try (LogStore s = LogStore.open(dir)) {
      assertEquals(largeValues + small - 1, s.size());
      assertSmallRecords(s, small);
      assertArrayEquals(large(new byte[LogStore.MAX_VALUE_BYTES], 3), s.get(key("large-3")));
      for (int i = 0; i < largeValues; i++) {
        assertTrue(s.remove(key("large-" + i)));
      }
      s.compact();
      assertTrue(s.logSizeInBytes() < 1 << 20, "compacted to " + s.logSizeInBytes() + " bytes");
      assertSmallRecords(s, small);
    }
    try (LogStore s = LogStore.open(dir)) {
      assertEquals(small - 1, s.size());
      assertSmallRecords(s, small);
      assertNull(s.get(key("large-0")));
    }
  }

  private static void assertSmallRecords(LogStore s, int small) throws IOException {
    assertNull(s.get(key("small-0")));
    for (int i = 1; i < small; i++) {
      assertArrayEquals(key("value-" + i), s.get(key("small-" + i)), "small-" + i);
    }
  }
}
