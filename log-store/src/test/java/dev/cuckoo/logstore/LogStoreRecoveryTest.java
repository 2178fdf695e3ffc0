package dev.cuckoo.logstore;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crashes as a disk leaves them, made with real files: a log cut at every byte of its last
 * records, a tail of zeros, a damaged record with records after it, a compaction that stopped
 * before its rename.
 */
class LogStoreRecoveryTest {
  @TempDir
  Path dir;

  private static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }

  /** Writes {@code n} keys k0.. with values v0.., flushed, and returns the log's length. */
  private long writeFlushed(Path store, int n) throws IOException {
    try (LogStore s = LogStore.open(store)) {
      for (int i = 0; i < n; i++) {
        s.put(bytes("k" + i), bytes("v" + i + "-".repeat(i % 13)));
      }
      s.flush();
      return s.logSizeInBytes();
    }
  }

  private static void assertHolds(LogStore s, int n) throws IOException {
    for (int i = 0; i < n; i++) {
      assertArrayEquals(bytes("v" + i + "-".repeat(i % 13)), s.get(bytes("k" + i)), "k" + i);
    }
  }

  @Test
  void aLogCutAtAnyByteOfItsLastRecordsOpensWithEveryRecordBeforeTheCut() throws IOException {
    Path original = dir.resolve("original");
    long flushed = writeFlushed(original, 50);
    long full;
    try (LogStore s = LogStore.open(original)) {
      s.put(bytes("late-1"), bytes("x".repeat(100)));
      s.put(bytes("late-2"), bytes("y".repeat(300)));
      full = s.logSizeInBytes();
    }
    byte[] log = Files.readAllBytes(original.resolve(LogStore.LOG));
    assertEquals(full, log.length);
    for (long cut = flushed; cut <= full; cut++) {
      Path copy = dir.resolve("cut-" + cut);
      Files.createDirectories(copy);
      Files.write(copy.resolve(LogStore.LOG), Arrays.copyOf(log, (int) cut));
      try (LogStore s = LogStore.open(copy)) {
        assertHolds(s, 50);
        boolean first = s.get(bytes("late-1")) != null;
        boolean second = s.get(bytes("late-2")) != null;
        assertTrue(first || !second, "cut at " + cut + ": a later record survived an earlier one");
        assertEquals(50 + (first ? 1 : 0) + (second ? 1 : 0), s.size(), "cut at " + cut);
        // The torn record is gone from the file, and what is appended next lands after the cut.
        s.put(bytes("after"), bytes("z"));
      }
      try (LogStore s = LogStore.open(copy)) {
        assertArrayEquals(bytes("z"), s.get(bytes("after")), "cut at " + cut + ": a put after recovery");
        assertHolds(s, 50);
      }
    }
  }

  @Test
  void whatWasFlushedSurvivesACrashThatLosesTheRest() throws IOException {
    Path store = dir.resolve("store");
    LogStore s = LogStore.open(store);
    for (int i = 0; i < 1_000; i++) {
      s.put(bytes("k" + i), bytes("v" + i + "-".repeat(i % 13)));
    }
    s.flush();
    for (int i = 1_000; i < 1_100; i++) {
      s.put(bytes("k" + i), bytes("unflushed"));
    }
    // The crash: the process dies; the disk holds what reached it. Copy the files as they are.
    Path after = dir.resolve("after-crash");
    Files.createDirectories(after);
    Files.copy(store.resolve(LogStore.LOG), after.resolve(LogStore.LOG));
    s.close();
    try (LogStore t = LogStore.open(after)) {
      assertHolds(t, 1_000);
      assertTrue(t.size() >= 1_000);
    }
  }

  @Test
  void aTailOfZerosIsCutOff() throws IOException {
    Path store = dir.resolve("store");
    long end = writeFlushed(store, 20);
    Files.write(store.resolve(LogStore.LOG), new byte[4096], StandardOpenOption.APPEND);
    try (LogStore s = LogStore.open(store)) {
      assertHolds(s, 20);
      assertEquals(20, s.size());
      assertEquals(end, s.logSizeInBytes());
    }
    assertEquals(end, Files.size(store.resolve(LogStore.LOG)));
  }

  @Test
  void aDamagedRecordWithRecordsAfterItIsRefusedNamingTheFileAndTheOffset() throws IOException {
    Path store = dir.resolve("store");
    writeFlushed(store, 30);
    Path file = store.resolve(LogStore.LOG);
    byte[] log = Files.readAllBytes(file);
    // The value of the third record: header 8, two records of 16 + 2 + 2 bytes (24 each).
    int third = RecordLog.FILE_HEADER_BYTES + 2 * 24;
    log[third + RecordLog.RECORD_HEADER_BYTES + 3] ^= 0x20;
    Files.write(file, log);
    IOException e = assertThrows(IOException.class, () -> LogStore.open(store));
    assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("offset " + third)
        && e.getMessage().contains("checksum"), e.getMessage());
    assertEquals(log.length, Files.size(file), "a refused log is left as it was");
  }

  @Test
  void aRecordDamagedAfterOpenIsReportedByTheGetThatReadsIt() throws IOException {
    Path store = dir.resolve("store");
    writeFlushed(store, 3);
    try (LogStore s = LogStore.open(store)) {
      byte[] log = Files.readAllBytes(store.resolve(LogStore.LOG));
      int second = RecordLog.FILE_HEADER_BYTES + 24;
      log[second + RecordLog.RECORD_HEADER_BYTES + 2] ^= 1; // k1's value
      Files.write(store.resolve(LogStore.LOG), log);
      IOException e = assertThrows(IOException.class, () -> s.get(bytes("k1")));
      assertTrue(e.getMessage().contains("damaged at offset " + second), e.getMessage());
      assertArrayEquals(bytes("v0"), s.get(bytes("k0")));
    }
  }

  @Test
  void aCompactionThatStoppedBeforeItsRenameLosesNothing() throws IOException {
    Path store = dir.resolve("store");
    writeFlushed(store, 200);
    try (LogStore s = LogStore.open(store)) {
      for (int i = 0; i < 100; i++) {
        s.remove(bytes("k" + i));
      }
    }
    // What a crash in the middle of compact() leaves: the log, and part of the new one.
    Files.write(store.resolve(LogStore.COMPACTING), new byte[] {'C', 'K', 'L', 'G', 0, 0, 0, 1, 1, 2, 3});
    try (LogStore s = LogStore.open(store)) {
      assertFalse(Files.exists(store.resolve(LogStore.COMPACTING)), "the partial log is deleted");
      assertEquals(100, s.size());
      for (int i = 0; i < 200; i++) {
        byte[] v = s.get(bytes("k" + i));
        if (i < 100) {
          assertNull(v, "k" + i);
        } else {
          assertArrayEquals(bytes("v" + i + "-".repeat(i % 13)), v, "k" + i);
        }
      }
      long before = s.logSizeInBytes();
      s.compact();
      assertTrue(s.logSizeInBytes() < before, "compaction drops the removed keys' records");
      assertEquals(100, s.records());
    }
    try (LogStore s = LogStore.open(store)) {
      assertEquals(100, s.size());
      assertArrayEquals(bytes("v150" + "-".repeat(150 % 13)), s.get(bytes("k150")));
    }
  }
}
