package dev.cuckoo.redis;

import static dev.cuckoo.redis.CfReplies.filterOf;
import static dev.cuckoo.redis.CfReplies.keys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.redis.testing.RealRedis;
import dev.cuckoo.scalable.RedisBloomDump;
import dev.cuckoo.scalable.ScalableCuckooFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.bloom.CFReserveParams;

/**
 * A pull is one state of the key while clients write it, against a real server: a write between
 * two {@code CF.SCANDUMP} calls is caught by the watch and the key read again; a key written
 * through every read is copied by the snapshot script; and with writer threads running, every
 * copy holds every key whose {@code CF.ADD} was answered before the pull began.
 */
class ConsistentPullTest {
  @RegisterExtension static final RealRedis real = RealRedis.server();
  private final UnifiedJedis redis = real.client();
  /** A second client, for writes from inside a pull. */
  private final UnifiedJedis writer = real.newClient();

  /** Pushes a filter of several sub-filters, so that a pull takes several CF.SCANDUMP calls. */
  private List<String> pushSeveralChunks(String key) {
    List<String> keys = keys("old:", 5_000);
    ScalableCuckooFilter f = (ScalableCuckooFilter) filterOf("scalable?capacity=500&expansion=2", keys);
    assertTrue(RedisBloomDump.dump(f).size() > 3);
    RedisFilters.push(f, redis, key);
    return keys;
  }

  @Test
  void aWriteBetweenTwoChunksIsCaughtAndTheKeyReadAgain() throws CorruptFilterException {
    List<String> old = pushSeveralChunks("k");
    int[] calls = {0};
    Pull.Copy copy = new Pull(redis, "k", () -> {
      if (calls[0]++ == 0) {
        writer.cfAdd("k", "late");
      }
    }).run();
    assertEquals(2, copy.watchedReads(), "the first read was torn");
    assertFalse(copy.snapshot());
    assertTrue(copy.filter().mightContain("late"), "the second read is the state after the write");
    assertEquals(old.size() + 1, copy.filter().size());
    assertEquals(CfReplies.info(redis, "k"), copy.filter().info());
  }

  @Test
  void aKeyWrittenThroughEveryReadIsCopiedByTheSnapshotScript() throws CorruptFilterException {
    List<String> old = pushSeveralChunks("k");
    int[] calls = {0};
    Pull.Copy copy = new Pull(redis, "k", () -> writer.cfAdd("k", "late-" + calls[0]++)).run();
    assertTrue(copy.snapshot(), "three torn reads, then a snapshot");
    assertEquals(Pull.OPTIMISTIC_ATTEMPTS, copy.watchedReads());
    ScalableCuckooFilter f = copy.filter();
    for (String k : old) {
      assertTrue(f.mightContain(k), k);
    }
    // Written before the snapshot was taken (one write per torn read): in it.
    for (int i = 0; i < Pull.OPTIMISTIC_ATTEMPTS; i++) {
      assertTrue(f.mightContain("late-" + i), "late-" + i);
    }
    assertTrue(f.size() >= old.size() + Pull.OPTIMISTIC_ATTEMPTS && f.size() <= old.size() + calls[0]);
    assertEquals(Set.of("k"), redis.keys("*"), "the snapshot is deleted");
  }

  @Test
  void aKeyDeletedDuringAReadIsMissingNotCorrupt() {
    pushSeveralChunks("k");
    NoSuchElementException e = assertThrows(NoSuchElementException.class,
        () -> new Pull(redis, "k", () -> writer.del("k")).run());
    assertEquals("no key 'k' in Redis", e.getMessage());
  }

  @Test
  void everyCopyHoldsWhatWasWrittenBeforeItWhileWritersRun() throws Exception {
    // A filter that grows as the writers add: new sub-filters, chunks and header counts all move.
    redis.cfReserve("live", 256, CFReserveParams.reserveParams().expansion(2));
    CfReplies.add(redis, "live", keys("seed-", 1_000));
    int writers = 3;
    AtomicLongArray acknowledged = new AtomicLongArray(writers);
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int id = w;
      Thread t = new Thread(() -> {
        try {
          for (long i = 0; !stop.get(); i++) {
            redis.cfAdd("live", "w" + id + "-" + i);
            acknowledged.set(id, i + 1);
          }
        } catch (RuntimeException e) {
          synchronized (failures) {
            failures.add(e);
          }
        }
      }, "writer " + w);
      threads.add(t);
      t.start();
    }
    int torn = 0;
    int snapshots = 0;
    try {
      for (int pull = 0; pull < 15; pull++) {
        long[] before = new long[writers];
        for (int w = 0; w < writers; w++) {
          before[w] = acknowledged.get(w);
        }
        Pull.Copy copy = new Pull(redis, "live", () -> {}).run();
        torn += copy.watchedReads() - (copy.snapshot() ? 0 : 1);
        snapshots += copy.snapshot() ? 1 : 0;
        ScalableCuckooFilter f = copy.filter(); // loaded: its header's count matches its data
        long written = 1_000;
        for (int w = 0; w < writers; w++) {
          for (long i = 0; i < before[w]; i++) {
            assertTrue(f.mightContain("w" + w + "-" + i), "pull " + pull + " lacks w" + w + "-" + i);
          }
          written += before[w];
        }
        assertTrue(f.size() >= written, "pull " + pull + ": " + f.size() + " items, " + written + " written before");
      }
    } finally {
      stop.set(true);
      for (Thread t : threads) {
        t.join();
      }
    }
    assertEquals(List.of(), failures);
    System.out.println("ConsistentPullTest: 15 pulls under 3 writers: " + torn + " torn reads caught, "
        + snapshots + " snapshots; " + CfReplies.info(redis, "live"));
    assertEquals(Set.of("live"), redis.keys("*"), "no snapshot left behind");
  }
}
