package dev.cuckoo.logstore;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LogStore#openReadOnly}: reads a store the user may not write, never writes a byte
 * (not even the lock file), refuses every write by name, and keeps writers out while it is open.
 */
class LogStoreReadOnlyTest {
  @TempDir
  Path dir;

  private static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }

  private Path storeOf(int keys) throws IOException {
    Path store = dir.resolve("store");
    try (LogStore s = LogStore.open(store)) {
      for (int i = 0; i < keys; i++) {
        s.put(bytes("key" + i), bytes("value" + i));
      }
      s.remove(bytes("key0"));
    }
    return store;
  }

  @Test
  void readsWhatWasWrittenAndRefusesEveryWrite() throws IOException {
    Path store = storeOf(1000);
    try (LogStore s = LogStore.openReadOnly(store)) {
      assertEquals(999, s.size());
      assertNull(s.get(bytes("key0")));
      assertArrayEquals(bytes("value999"), s.get(bytes("key999")));
      for (org.junit.jupiter.api.function.Executable write : new org.junit.jupiter.api.function.Executable[] {
          () -> s.put(bytes("k"), bytes("v")), () -> s.remove(bytes("key1")), s::compact}) {
        IllegalStateException e = assertThrows(IllegalStateException.class, write);
        assertEquals("the store in " + store + " is open read-only", e.getMessage());
      }
      assertArrayEquals(bytes("value1"), s.get(bytes("key1")), "a refused remove removes nothing");
    }
  }

  @Test
  void aReadOnlyOpenWritesNothingNotEvenTheLockFile() throws IOException {
    Path store = storeOf(100);
    Files.delete(store.resolve(LogStore.LOCK));
    FileTime logTime = FileTime.fromMillis(1_000_000_000_000L);
    Files.setLastModifiedTime(store.resolve(LogStore.LOG), logTime);
    byte[] log = Files.readAllBytes(store.resolve(LogStore.LOG));
    try (LogStore s = LogStore.openReadOnly(store)) {
      assertEquals(99, s.size());
    }
    assertFalse(Files.exists(store.resolve(LogStore.LOCK)), "a read-only open created the lock file");
    assertArrayEquals(log, Files.readAllBytes(store.resolve(LogStore.LOG)));
    assertEquals(logTime, Files.getLastModifiedTime(store.resolve(LogStore.LOG)));
  }

  @Test
  void aTornLastRecordIsSkippedNotCut() throws IOException {
    Path store = storeOf(10);
    Path logFile = store.resolve(LogStore.LOG);
    byte[] whole = Files.readAllBytes(logFile);
    byte[] torn = java.util.Arrays.copyOf(whole, whole.length - 3);
    Files.write(logFile, torn);
    try (LogStore s = LogStore.openReadOnly(store)) {
      assertEquals(10, s.size(), "the tombstone of key0 was the last record: cut short, it is left out");
    }
    assertArrayEquals(torn, Files.readAllBytes(logFile), "a read-only open leaves a torn tail as it is");
  }

  @Test
  void aWriterIsKeptOutWhileAReaderHasTheStoreAndTheOtherWayRound() throws IOException {
    Path store = storeOf(10);
    try (LogStore reader = LogStore.openReadOnly(store)) {
      IOException e = assertThrows(IOException.class, () -> LogStore.open(store));
      assertTrue(e.getMessage().contains("is already open"), e.getMessage());
      assertEquals(9, reader.size());
    }
    try (LogStore writer = LogStore.open(store)) {
      IOException e = assertThrows(IOException.class, () -> LogStore.openReadOnly(store));
      assertTrue(e.getMessage().contains("is already open"), e.getMessage());
      writer.put(bytes("k"), bytes("v"));
    }
  }

  @Test
  void noStoreThereIsAnErrorAndNothingIsCreated() {
    Path nowhere = dir.resolve("nowhere");
    IOException e = assertThrows(IOException.class, () -> LogStore.openReadOnly(nowhere));
    assertTrue(e instanceof NoSuchFileException, e.toString());
    assertFalse(Files.exists(nowhere));
  }

  @Test
  void aStoreInAFolderTheUserCannotWriteOpensReadOnly() throws IOException {
    Path store = storeOf(100);
    Path lock = store.resolve(LogStore.LOCK);
    Files.setPosixFilePermissions(lock, PosixFilePermissions.fromString("r--r--r--"));
    Files.setPosixFilePermissions(store.resolve(LogStore.LOG), PosixFilePermissions.fromString("r--r--r--"));
    Files.setPosixFilePermissions(store, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      // As root, permissions are not enforced: the open above that writes nothing is the check there.
      assumeFalse(Files.isWritable(store), "running as root: the folder stays writable, nothing to enforce");
      assertThrows(IOException.class, () -> LogStore.open(store), "a writer cannot open it");
      try (LogStore s = LogStore.openReadOnly(store)) {
        assertEquals(99, s.size());
        assertArrayEquals(bytes("value42"), s.get(bytes("key42")));
      }
    } finally {
      Files.setPosixFilePermissions(store, PosixFilePermissions.fromString("rwxr-xr-x"));
      Files.setPosixFilePermissions(store.resolve(LogStore.LOG), PosixFilePermissions.fromString("rw-r--r--"));
      Files.setPosixFilePermissions(lock, PosixFilePermissions.fromString("rw-r--r--"));
    }
  }
}
