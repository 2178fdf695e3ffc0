package dev.cuckoo.logstore;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.testkit.TestSeed;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store against a model ({@code HashMap}), through growth, reopen and compaction: every
 * answer the model gives, and the read counts and index size the design promises.
 */
class LogStoreTest {
  @TempDir
  Path dir;

  private static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }

  private static byte[] key(long i) {
    return ByteBuffer.allocate(12).putInt(0x6B657921).putLong(i).array();
  }

  private static void assertMatches(LogStore s, Map<Key, byte[]> model, String where) throws IOException {
    assertEquals(model.size(), s.size(), where + ": size");
    for (Map.Entry<Key, byte[]> e : model.entrySet()) {
      byte[] v = s.get(e.getKey().bytes);
      if (!Arrays.equals(e.getValue(), v)) {
        fail(where + ": key " + e.getKey() + " has " + (v == null ? "no value" : v.length + " bytes") + ", not its "
            + e.getValue().length);
      }
    }
  }

  /** A byte[] with value equality, for the model. */
  @SuppressWarnings("ArrayRecordComponent") // equals, hashCode and toString read the array's content
  record Key(byte[] bytes) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && Arrays.equals(bytes, k.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
      return Arrays.toString(bytes);
    }
  }

  @Test
  void putGetRemoveAndTheirEdges() throws IOException {
    try (LogStore s = LogStore.open(dir)) {
      assertNull(s.get(bytes("a")));
      s.put(bytes("a"), bytes("1"));
      s.put(bytes(""), bytes("the empty key"));
      s.put(bytes("empty value"), new byte[0]);
      assertArrayEquals(bytes("1"), s.get(bytes("a")));
      assertArrayEquals(bytes("the empty key"), s.get(new byte[0]));
      assertArrayEquals(new byte[0], s.get(bytes("empty value")));
      s.put(bytes("a"), bytes("2"));
      assertArrayEquals(bytes("2"), s.get(bytes("a")), "a put replaces the value");
      assertEquals(3, s.size());
      assertTrue(s.remove(bytes("a")));
      assertFalse(s.remove(bytes("a")), "a second remove finds nothing");
      assertNull(s.get(bytes("a")));
      assertEquals(2, s.size());
      assertEquals(5, s.records(), "four puts (a twice) and a tombstone");
    }
  }

  @Test
  void badKeysAndValuesAreRefusedByName() throws IOException {
    try (LogStore s = LogStore.open(dir)) {
      assertEquals("key must not be null", assertThrows(NullPointerException.class, () -> s.get(null)).getMessage());
      assertEquals("value must not be null",
          assertThrows(NullPointerException.class, () -> s.put(bytes("k"), null)).getMessage());
      String k = assertThrows(IllegalArgumentException.class, () -> s.put(new byte[LogStore.MAX_KEY_BYTES + 1], bytes("v")))
          .getMessage();
      assertTrue(k.contains("key of 65537 bytes") && k.contains("65536"), k);
      String v = assertThrows(IllegalArgumentException.class, () -> s.put(bytes("k"), new byte[LogStore.MAX_VALUE_BYTES + 1]))
          .getMessage();
      assertTrue(v.contains("value of 16777217 bytes") && v.contains("16 MiB"), v);
      // The largest key and value are taken.
      byte[] bigKey = new byte[LogStore.MAX_KEY_BYTES];
      bigKey[5] = 7;
      byte[] bigValue = new byte[LogStore.MAX_VALUE_BYTES];
      bigValue[bigValue.length - 1] = 9;
      s.put(bigKey, bigValue);
      assertArrayEquals(bigValue, s.get(bigKey));
      assertEquals(1, s.size());
    }
    try (LogStore s = LogStore.open(dir)) {
      byte[] bigKey = new byte[LogStore.MAX_KEY_BYTES];
      bigKey[5] = 7;
      assertEquals(9, s.get(bigKey)[LogStore.MAX_VALUE_BYTES - 1], "the largest record survives a reopen");
    }
  }

  @Test
  void randomOperationsMatchAModelThroughGrowthReopensAndCompactions() throws IOException {
    SplittableRandom r = TestSeed.random("log store model");
    String where = "[" + TestSeed.rerun() + "]";
    Map<Key, byte[]> model = new HashMap<>();
    List<Key> keys = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      byte[] k = new byte[1 + r.nextInt(40)];
      r.nextBytes(k);
      keys.add(new Key(k));
    }
    LogStore s = LogStore.open(dir);
    try {
      for (int step = 0; step < 20_000; step++) {
        Key k = keys.get(r.nextInt(keys.size()));
        int op = r.nextInt(100);
        if (op < 55) {
          byte[] v = new byte[r.nextInt(200)];
          r.nextBytes(v);
          s.put(k.bytes, v);
          model.put(k, v);
        } else if (op < 70) {
          assertEquals(model.remove(k) != null, s.remove(k.bytes), where + " step " + step + ": remove");
        } else if (op < 99 || r.nextInt(5) != 0) {
          assertArrayEquals(model.get(k), s.get(k.bytes), where + " step " + step + ": get");
        } else if (r.nextBoolean()) {
          s.close();
          s = LogStore.open(dir);
          assertMatches(s, model, where + " step " + step + " after a reopen");
        } else {
          s.compact();
          assertEquals(model.size(), s.records(), where + ": a compacted log holds the live records");
          assertMatches(s, model, where + " step " + step + " after compaction");
        }
        assertEquals(model.size(), s.size(), where + " step " + step + ": size");
      }
      assertMatches(s, model, where + " at the end");
    } finally {
      s.close();
    }
  }

  /**
   * 300,000 keys (the figures at a million are in docs/results.md): gets of present keys read
   * about one record, gets of absent keys about none, and the index takes at most 8 bytes a key
   * at every size from a few thousand keys on.
   */
  @Test
  void readsPerGetAndIndexBytesPerKeyAreThoseOfTheDesign() throws IOException {
    int n = 300_000;
    try (LogStore s = LogStore.open(dir)) {
      double worst = 0;
      for (long i = 0; i < n; i++) {
        s.put(key(i), new byte[8]);
        if (i >= 4_096 && i % 997 == 0) {
          worst = Math.max(worst, (double) s.indexSizeInBytes() / s.size());
        }
      }
      assertTrue(worst <= 8.0, "the index took " + worst + " bytes a key at its worst");
      long before = s.recordReads();
      for (long i = 0; i < n; i++) {
        assertTrue(s.get(key(i)) != null);
      }
      double hit = (double) (s.recordReads() - before) / n;
      before = s.recordReads();
      for (long i = n; i < 2L * n; i++) {
        assertNull(s.get(key(i)));
      }
      double miss = (double) (s.recordReads() - before) / n;
      assertTrue(hit <= 1.01, hit + " reads per get of a present key");
      assertTrue(miss <= 0.01, miss + " reads per get of an absent key");
      System.out.printf("log store, %,d keys: %.4f reads per hit, %.4f per miss, index %.2f bytes a key (worst %.2f)%n",
          n, hit, miss, (double) s.indexSizeInBytes() / s.size(), worst);
    }
  }

  @Test
  void aStoreIsOpenOnceAtATime() throws IOException {
    try (LogStore s = LogStore.open(dir)) {
      s.put(bytes("k"), bytes("v"));
      IOException e = assertThrows(IOException.class, () -> LogStore.open(dir));
      assertTrue(e.getMessage().contains("already open"), e.getMessage());
    }
    try (LogStore s = LogStore.open(dir)) {
      assertArrayEquals(bytes("v"), s.get(bytes("k")), "closed, it opens again");
    }
    LogStore s = LogStore.open(dir);
    s.close();
    s.close();
    assertEquals("the store in " + dir + " is closed",
        assertThrows(IllegalStateException.class, () -> s.get(bytes("k"))).getMessage());
  }

  @Test
  void aDirectoryThatHoldsSomethingElseIsRefused() throws IOException {
    Files.write(dir.resolve(LogStore.LOG), bytes("not a log at all"));
    IOException e = assertThrows(IOException.class, () -> LogStore.open(dir));
    assertTrue(e.getMessage().contains("is not a log store's log"), e.getMessage());
  }
}
