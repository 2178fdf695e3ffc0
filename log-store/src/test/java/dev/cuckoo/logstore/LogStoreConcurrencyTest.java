package dev.cuckoo.logstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gets running while one writer puts new keys (growing the index many times), replaces and
 * removes others, and compacts: a key that is always present is always found with one of its
 * values, a key never put is never found, whichever path (the lock-free miss or the locked
 * read) a get takes.
 */
class LogStoreConcurrencyTest {
  private static final int STABLE = 2_000;

  @TempDir
  Path dir;

  private static byte[] key(String kind, long i) {
    return ByteBuffer.allocate(13).put((byte) kind.charAt(0)).putInt(0x6B657921).putLong(i).array();
  }

  @Test
  void getsRunningWithAWriterNeverMissAStableKeyNorFindAnAbsentOne() throws Exception {
    try (LogStore s = LogStore.open(dir)) {
      for (int i = 0; i < STABLE; i++) {
        s.put(key("stable", i), ByteBuffer.allocate(8).putLong(i).array());
      }
      AtomicBoolean writing = new AtomicBoolean(true);
      CountDownLatch start = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(3);
      try {
        List<Future<Long>> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
          int reader = r;
          readers.add(pool.submit(() -> {
            start.await();
            long gets = 0;
            for (long round = 0; writing.get() || round < 3; round++) {
              for (int i = 0; i < STABLE; i++) {
                byte[] v = s.get(key("stable", i));
                assertTrue(v != null && ByteBuffer.wrap(v).getLong() % STABLE == i, "stable key " + i + " read " + Arrays.toString(v));
                assertNull(s.get(key("absent", reader * 1_000_000L + round * STABLE + i)));
                gets += 2;
              }
            }
            return gets;
          }));
        }
        Future<Void> writer = pool.submit(() -> {
          start.await();
          try {
            for (int i = 0; i < 60_000; i++) {
              s.put(key("new", i), new byte[i % 50]);
              if (i % 7 == 0) {
                int k = i % STABLE;
                s.put(key("stable", k), ByteBuffer.allocate(8).putLong(k + (long) STABLE * i).array());
              }
              if (i % 3 == 0 && i > 0) {
                s.remove(key("new", i - 1));
              }
              if (i % 20_000 == 19_999) {
                s.compact();
              }
            }
          } finally {
            writing.set(false);
          }
          return null;
        });
        start.countDown();
        writer.get();
        for (Future<Long> reader : readers) {
          assertTrue(reader.get() > 0);
        }
      } finally {
        pool.shutdownNow();
      }
      assertEquals(STABLE + 60_000 - 19_999, s.size());
    }
  }

  @Test
  void aGetAfterCloseIsRefusedOnEitherPath() throws IOException {
    LogStore s = LogStore.open(dir);
    s.put(key("stable", 1), new byte[1]);
    s.close();
    for (byte[] k : List.of(key("stable", 1), key("absent", 1))) {
      IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> s.get(k));
      assertTrue(e.getMessage().contains("is closed"), e.getMessage());
    }
  }
}
