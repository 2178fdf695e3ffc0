package dev.cuckoo.docs.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.logstore.LogStore;
import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogStoreExample {
  @TempDir
  Path dir;

  @Test
  void putGetRemove() throws IOException {
    Path folder = dir.resolve("sessions");
    // tag::basics[]
    try (LogStore store = LogStore.open(folder)) {       // creates it, or reopens it
      store.put("user:17".getBytes(UTF_8), "alice".getBytes(UTF_8));
      store.put("user:17".getBytes(UTF_8), "alice b.".getBytes(UTF_8)); // replaces
      byte[] name = store.get("user:17".getBytes(UTF_8)); // "alice b.": one record read
      byte[] none = store.get("user:99".getBytes(UTF_8)); // null: no read at all
      store.remove("user:17".getBytes(UTF_8));            // appends a tombstone
      store.flush();                                      // durable from here on
      assertArrayEquals("alice b.".getBytes(UTF_8), name);
      assertNull(none);
    }
    // end::basics[]
    try (LogStore store = LogStore.open(folder)) {
      assertNull(store.get("user:17".getBytes(UTF_8)), "the tombstone outlives a reopen");
      assertEquals(0, store.size());
      assertEquals(3, store.records());
    }
  }

  @Test
  void dedupIndex() throws IOException, NoSuchAlgorithmException {
    Path folder = dir.resolve("chunks");
    byte[][] chunks = {"hello".getBytes(UTF_8), "world".getBytes(UTF_8), "hello".getBytes(UTF_8)};
    // tag::dedup[]
    MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
    long stored = 0;
    try (LogStore store = LogStore.open(folder)) {
      for (byte[] chunk : chunks) {
        byte[] key = sha1.digest(chunk);       // content-addressed: the key is the chunk's digest
        if (store.get(key) == null) {          // an absent key costs no disk read
          store.put(key, chunk);
          stored++;
        }
      }
      store.compact();                         // rewrites the live records; atomic rename
    }
    // end::dedup[]
    assertEquals(2, stored);
    try (LogStore store = LogStore.open(folder)) {
      assertEquals(2, store.size());
      assertTrue(store.indexSizeInBytes() > 0);
    }
  }
}
