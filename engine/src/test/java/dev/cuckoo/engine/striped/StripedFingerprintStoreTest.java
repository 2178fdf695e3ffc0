package dev.cuckoo.engine.striped;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.engine.FingerprintStash;
import dev.cuckoo.engine.FingerprintStore;
import dev.cuckoo.engine.testkit.ArrayTable;
import dev.cuckoo.testkit.TestSeed;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StripedFingerprintStoreTest {

  /** With {@code isolated}, lookups validate with the relocation counter, else stripe versions. */
  @ParameterizedTest(name = "isolated slot writes: {0}")
  @ValueSource(booleans = {false, true})
  void oneThreadSeesWhatFingerprintStoreGivesThroughKicksAndTheStash(boolean isolated) {
    // 16 buckets of 2: small enough that the kick path, the stash and refusals all run.
    ArrayTable table = new ArrayTable(16, 2, isolated);
    FingerprintStash stash = new FingerprintStash(3);
    StripedFingerprintStore store = new StripedFingerprintStore(table, stash, 64, 50, 1, 0);
    assertEquals(16, store.stripes());
    assertEquals(35, store.slots());
    Map<Long, Integer> model = new HashMap<>();
    SplittableRandom r = TestSeed.random("one thread through kicks and stash, isolated " + isolated);
    String seed = ", " + TestSeed.rerun();
    long[] keys = new long[60];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = r.nextLong();
    }
    int refused = 0;
    int stashedAdds = 0;
    for (int step = 0; step < 20_000; step++) {
      long key = keys[r.nextInt(keys.length)];
      int copies = model.getOrDefault(key, 0);
      int op = r.nextInt(10);
      if (op < 5) {
        long[] counts = counts(store, keys);
        int stashed = stash.size();
        if (store.add(key)) {
          model.merge(key, 1, Integer::sum);
          stashedAdds += stash.size() > stashed ? 1 : 0;
        } else {
          refused++;
          // A refused add may have moved fingerprints to their other bucket (a path that closed
          // a cycle fails half-way), which no lookup or count can tell.
          assertEquals(Arrays.toString(counts), Arrays.toString(counts(store, keys)), "step " + step + ": refused add" + seed);
          assertEquals(stashed, stash.size(), "step " + step + ": refused add" + seed);
        }
      } else if (op < 6) {
        boolean present = store.mightContain(key);
        boolean added = store.addIfAbsent(key);
        assertEquals(!present && added, added, "step " + step + ": addIfAbsent of a present key" + seed);
        if (added) {
          model.merge(key, 1, Integer::sum);
        }
      } else if (copies > 0) {
        assertTrue(store.remove(key), "step " + step + seed);
        model.merge(key, -1, Integer::sum);
      }
      long size = 0;
      for (Map.Entry<Long, Integer> e : model.entrySet()) {
        size += e.getValue();
        if (e.getValue() > 0) {
          assertTrue(store.mightContain(e.getKey()), "step " + step + ": false negative" + seed);
          assertTrue(store.count(e.getKey()) >= e.getValue(), "step " + step + ": count" + seed);
        }
      }
      assertEquals(size, store.size(), "step " + step + seed);
    }
    assertTrue(refused > 0 && stashedAdds > 0, refused + " refused, " + stashedAdds + " stashed: the test missed a path" + seed);
    store.clear();
    assertEquals(0, store.size());
    assertEquals(0, stash.size());
    assertFalse(store.mightContain(keys[0]));
    assertFalse(store.remove(keys[0]));
  }

  private static long[] counts(FingerprintStore store, long[] keys) {
    long[] counts = new long[keys.length];
    for (int i = 0; i < keys.length; i++) {
      counts[i] = store.count(keys[i]);
    }
    return counts;
  }

  @Test
  void aThreadThatKickedDoesNotKeepTheStoreAlive() throws ReflectiveOperationException {
    // The thread-local path of a kick must not refer to its store: a pool thread's map holds
    // the value strongly, so a value that reached the store would keep the store, its table and
    // the thread-local key alive for as long as the thread. Checked on the value itself rather
    // than by waiting for a collection: every field this thread's path holds is a primitive or
    // an array of primitives, so nothing can lead back to the store.
    StripedFingerprintStore store =
        new StripedFingerprintStore(new ArrayTable(16, 2), new FingerprintStash(3), 64, 50, 1, 0);
    for (long key = 0; key < 40; key++) {
      store.add(key * 0x9E3779B97F4A7C15L);
    }
    Object path = ((ThreadLocal<?>) field(store, "kicks")).get();
    int fields = 0;
    for (java.lang.reflect.Field f : path.getClass().getDeclaredFields()) {
      if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
        continue;
      }
      Class<?> type = f.getType();
      assertTrue(type.isPrimitive() || (type.isArray() && type.getComponentType().isPrimitive()),
          "the thread-local path holds " + f + ", which may lead back to the store");
      fields++;
    }
    assertTrue(fields > 0, "no fields read: the test looked at the wrong object");
  }

  private static Object field(Object owner, String name) throws ReflectiveOperationException {
    java.lang.reflect.Field f = owner.getClass().getDeclaredField(name);
    f.setAccessible(true);
    return f.get(owner);
  }

  @ParameterizedTest(name = "isolated slot writes: {0}")
  @ValueSource(booleans = {false, true})
  void writersAndReadersOnSharedBucketsLoseNothing(boolean isolated) throws InterruptedException {
    // 64 buckets of 4 filled to about 90% by four writers with disjoint keys: kicks, stash and
    // refusals under contention, and readers checking published keys all along.
    ArrayTable table = new ArrayTable(64, 4, isolated);
    FingerprintStash stash = new FingerprintStash(4);
    StripedFingerprintStore store = new StripedFingerprintStore(table, stash, 64, 100, 5, 0);
    int writers = 4;
    int perWriter = 60;
    long[][] keys = new long[writers][perWriter];
    SplittableRandom r = TestSeed.random("writers and readers, isolated " + isolated);
    String seed = ", " + TestSeed.rerun();
    for (long[] k : keys) {
      for (int i = 0; i < k.length; i++) {
        k[i] = r.nextLong();
      }
    }
    boolean[][] stored = new boolean[writers][perWriter];
    java.util.concurrent.atomic.AtomicIntegerArray published = new java.util.concurrent.atomic.AtomicIntegerArray(writers);
    java.util.concurrent.ConcurrentLinkedQueue<String> errors = new java.util.concurrent.ConcurrentLinkedQueue<>();
    Thread[] threads = new Thread[writers + 2];
    for (int w = 0; w < writers; w++) {
      int id = w;
      threads[w] = new Thread(() -> {
        for (int round = 1; round <= 200; round++) {
          for (int i = 0; i < perWriter; i++) {
            stored[id][i] = store.add(keys[id][i]);
            published.set(id, round << 8 | (i + 1));
          }
          // Unpublished before the first remove: readers check only keys of a round still on.
          published.set(id, round << 8);
          for (int i = 0; i < perWriter; i++) {
            if (stored[id][i] && !store.remove(keys[id][i])) {
              errors.add("writer " + id + " round " + round + ": remove of stored key " + i + " failed");
            }
          }
        }
        for (int i = 0; i < perWriter; i++) {
          stored[id][i] = store.add(keys[id][i]);
        }
      });
    }
    for (int t = writers; t < threads.length; t++) {
      threads[t] = new Thread(() -> {
        for (int n = 0; n < 200_000; n++) {
          int w = n % writers;
          int before = published.get(w);
          int i = n / writers % perWriter;
          // A key below the published count was stored in this round and, if the round has not
          // moved on by the time the lookup returns, not yet removed.
          if (i < (before & 0xFF) && stored[w][i] && !store.mightContain(keys[w][i])) {
            int after = published.get(w);
            if (after >>> 8 == before >>> 8 && (after & 0xFF) > i) {
              errors.add("reader: false negative for writer " + w + " key " + i);
            }
          }

        }
      });
    }
    for (Thread t : threads) {
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertTrue(errors.isEmpty(), errors.stream().limit(5).toList() + seed);
    long expected = 0;
    for (int w = 0; w < writers; w++) {
      for (int i = 0; i < perWriter; i++) {
        if (stored[w][i]) {
          expected++;
          assertTrue(store.mightContain(keys[w][i]), "writer " + w + " key " + i + " lost" + seed);
        }
      }
    }
    assertEquals(expected, store.size(), seed);
  }

  /**
   * A lookup that read the table just before a removal moved its key from the stash into the
   * table, and reads the stash just after (now empty), must not answer false: the move changed
   * what it read. The reader is paused between the two reads, so the interleaving is certain.
   */
  @ParameterizedTest(name = "isolated slot writes: {0}")
  @ValueSource(booleans = {false, true})
  void aLookupOverlappingAMoveFromTheStashFindsTheKey(boolean isolated) throws InterruptedException {
    PausingTable table = new PausingTable(16, isolated);
    FingerprintStash stash = new FingerprintStash(2);
    StripedFingerprintStore store = new StripedFingerprintStore(table, stash, 32, 0, 1, 0);
    SplittableRandom r = TestSeed.random("lookup overlapping a move from the stash, isolated " + isolated);
    String seed = TestSeed.rerun();
    long key = r.nextLong();
    long bucket1 = table.bucketIndex(key);
    long bucket2 = table.alternate(bucket1, table.fingerprint(key));
    // One-slot buckets: a blocker in each of the key's buckets sends the key to the stash.
    long blocker = keyWithFirstBucket(table, r, bucket1);
    assertTrue(store.add(blocker), seed);
    assertTrue(store.add(keyWithFirstBucket(table, r, bucket2)), seed);
    assertTrue(store.add(key), seed);
    assertEquals(1, stash.size(), seed);

    boolean[] found = new boolean[1];
    Thread reader = new Thread(() -> found[0] = store.mightContain(key));
    table.pauseAfterNextSearch(reader);
    reader.start();
    assertTrue(table.searched.await(10, TimeUnit.SECONDS), "the reader never searched; " + seed);
    // The reader has read both buckets (the key is in neither); the removal frees bucket1
    // and moves the key there from the stash, leaving the stash empty.
    assertTrue(store.remove(blocker), seed);
    assertEquals(0, stash.size(), seed);
    assertTrue(table.holds(bucket1, table.fingerprint(key)), seed);
    table.resume.countDown();
    reader.join();
    assertTrue(found[0], "a lookup overlapping the move from the stash missed the key; " + seed);
  }

  private static long keyWithFirstBucket(ArrayTable table, SplittableRandom r, long bucket) {
    while (true) {
      long key = r.nextLong();
      if (table.bucketIndex(key) == bucket) {
        return key;
      }
    }
  }

  /** Buckets of one slot; the next search by a chosen thread waits, after reading, until resumed. */
  private static final class PausingTable extends ArrayTable {
    final CountDownLatch searched = new CountDownLatch(1);
    final CountDownLatch resume = new CountDownLatch(1);
    private volatile Thread paused;

    PausingTable(long buckets, boolean isolated) {
      super(buckets, 1, isolated);
    }

    void pauseAfterNextSearch(Thread thread) {
      paused = thread;
    }

    @Override
    public boolean contains(long bucket1, long bucket2, int fingerprint) {
      boolean result = super.contains(bucket1, bucket2, fingerprint);
      if (Thread.currentThread() == paused) {
        paused = null;
        searched.countDown();
        try {
          resume.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return result;
    }
  }
}
