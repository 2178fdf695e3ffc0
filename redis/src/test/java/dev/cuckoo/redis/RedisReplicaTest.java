package dev.cuckoo.redis;

import static dev.cuckoo.redis.CfReplies.filterOf;
import static dev.cuckoo.redis.CfReplies.keys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.redis.testing.RealRedis;
import dev.cuckoo.scalable.RedisBloomDump;
import dev.cuckoo.testkit.AllocationMeter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@link RedisReplica} against a real server: it answers as the key did when it was copied,
 * sees writes after a refresh (on demand and on schedule), answers from the old copy while a new
 * one loads, keeps its copy when a refresh fails and reports the failure, and refuses writes.
 */
class RedisReplicaTest {
  /** A generous bound for a scheduled refresh to happen: a liveness wait, not a speed check. */
  private static final long WAIT_SECONDS = 30;

  @RegisterExtension static final RealRedis real = RealRedis.server();
  private final UnifiedJedis redis = real.client();

  @Test
  void answersAsTheKeyDidAndSeesWritesAfterARefresh() throws Exception {
    List<String> keys = keys("user:", 10_000);
    CuckooFilter original = filterOf("scalable?capacity=4000&expansion=2", keys);
    RedisFilters.push(original, redis, "users");
    try (RedisReplica replica = RedisReplica.open(redis, "users")) {
      for (String k : keys) {
        assertTrue(replica.mightContain(k), k);
      }
      List<String> probes = keys("probe:", 5_000);
      List<Boolean> exists = CfReplies.exists(redis, "users", probes);
      for (int i = 0; i < probes.size(); i++) {
        assertEquals(exists.get(i), replica.mightContain(probes.get(i)), "CF.EXISTS " + probes.get(i));
      }
      byte[][] batch = new byte[probes.size()][];
      int[] lengths = new int[probes.size()];
      for (int i = 0; i < probes.size(); i++) {
        batch[i] = probes.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        lengths[i] = batch[i].length;
      }
      boolean[] answers = new boolean[probes.size()];
      replica.mightContainAll(batch, lengths, probes.size(), answers);
      for (int i = 0; i < probes.size(); i++) {
        assertEquals(exists.get(i), answers[i], "CF.EXISTS " + probes.get(i) + ", a block at a time");
      }
      assertEquals(original.size(), replica.size());
      assertEquals(original.spec().variant(), replica.spec().variant());
      assertEquals(original.count("user:1"), replica.count("user:1"));
      assertEquals(original.mightContain(7L), replica.mightContain(7L));

      Instant first = replica.refreshedAt();
      assertTrue(redis.cfAdd("users", "newcomer"));
      assertEquals(original.mightContain("newcomer"), replica.mightContain("newcomer"), "stale until refreshed");
      replica.refresh();
      assertTrue(replica.mightContain("newcomer"));
      assertEquals(original.size() + 1, replica.size());
      assertFalse(replica.refreshedAt().isBefore(first));

      ByteArrayOutputStream file = new ByteArrayOutputStream();
      replica.writeTo(file);
      CuckooFilter read = CuckooFilters.read(new ByteArrayInputStream(file.toByteArray()));
      assertEquals(RedisBloomDump.dump(read), RedisBloomDump.dump(RedisFilters.pull(redis, "users")));
    }
  }

  @Test
  void lookupsAllocateNothing() throws CorruptFilterException {
    List<String> keys = keys("k", 1_000);
    RedisFilters.push(filterOf("scalable?capacity=1000&expansion=2", keys), redis, "k");
    byte[][] bytes = keys.stream().map(k -> k.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toArray(byte[][]::new);
    try (RedisReplica replica = RedisReplica.open(redis, "k")) {
      long[] found = {0};
      Runnable lookups = () -> {
        for (int i = 0; i < keys.size(); i++) {
          found[0] += (replica.mightContain(keys.get(i)) ? 1 : 0) + (replica.mightContain(bytes[i]) ? 1 : 0)
              + (replica.mightContain((long) i) ? 1 : 0) + replica.count(keys.get(i));
        }
      };
      assertEquals(0, AllocationMeter.allocatedBeyondTheMeter(lookups), "bytes allocated by 4,000 lookups");
      assertTrue(found[0] >= 4L * keys.size());
    }
  }

  @Test
  void writesAreRefusedWithWhereToWriteInstead() throws CorruptFilterException {
    RedisFilters.push(filterOf("scalable?capacity=100", keys("a", 10)), redis, "k");
    try (RedisReplica replica = RedisReplica.open(redis, "k")) {
      List<Runnable> writes = List.of(() -> replica.add("x"), () -> replica.add(new byte[1]), () -> replica.add(1L),
          () -> replica.addIfAbsent("x"), () -> replica.addIfAbsent(new byte[1]), () -> replica.addIfAbsent(1L),
          () -> replica.remove("a1"), () -> replica.remove(new byte[1]), () -> replica.remove(1L), replica::clear);
      for (Runnable write : writes) {
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, write::run);
        assertEquals("a replica of Redis key 'k' is read-only: write to Redis (CF.ADD, CF.DEL), then refresh()",
            e.getMessage());
      }
      assertEquals(10, replica.size());
    }
  }

  @Test
  void openNamesAMissingKey() {
    assertThrows(NoSuchElementException.class, () -> RedisReplica.open(redis, "none"));
    assertThrows(NoSuchElementException.class,
        () -> RedisReplica.open(redis, "none", Duration.ofSeconds(1), e -> { }));
    assertThrows(IllegalArgumentException.class,
        () -> RedisReplica.open(redis, "none", Duration.ZERO, e -> { }));
  }

  @Test
  void lookupsAnswerFromTheOldCopyWhileANewOneLoads() throws Exception {
    List<String> keys = keys("k", 20_000);
    RedisFilters.push(filterOf("scalable?capacity=2000&expansion=2", keys), redis, "k");
    try (RedisReplica replica = RedisReplica.open(redis, "k")) {
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong lookups = new AtomicLong();
      List<String> misses = new ArrayList<>();
      List<Thread> readers = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        Thread t = new Thread(() -> {
          for (int i = 0; !stop.get(); i = (i + 1) % keys.size()) {
            if (!replica.mightContain(keys.get(i))) {
              synchronized (misses) {
                misses.add(keys.get(i));
              }
            }
            lookups.incrementAndGet();
          }
        });
        readers.add(t);
        t.start();
      }
      // Refreshes swap copies under the readers, while Redis gains keys between them.
      for (int round = 0; round < 10; round++) {
        CfReplies.add(redis, "k", keys("more-" + round + "-", 500));
        replica.refresh();
      }
      stop.set(true);
      for (Thread t : readers) {
        t.join();
      }
      assertEquals(List.of(), misses, "a key went missing during a refresh");
      assertTrue(lookups.get() > 0);
      assertTrue(replica.mightContain("more-9-499"));
    }
  }

  @Test
  void scheduledRefreshesFollowTheKeyAndAFailureKeepsTheCopy() throws Exception {
    RedisFilters.push(filterOf("scalable?capacity=1000", keys("a", 100)), redis, "k");
    LinkedBlockingQueue<Exception> failures = new LinkedBlockingQueue<>();
    RedisReplica replica = RedisReplica.open(redis, "k", Duration.ofMillis(20), failures::add);
    try {
      redis.cfAdd("k", "later");
      awaitTrue(() -> replica.mightContain("later"), "a scheduled refresh to see 'later'");

      redis.del("k");
      Exception failure = failures.poll(WAIT_SECONDS, TimeUnit.SECONDS);
      assertNotNull(failure, "no scheduled refresh failed after the key was deleted");
      assertEquals(NoSuchElementException.class, failure.getClass());
      assertEquals("no key 'k' in Redis", failure.getMessage());
      assertTrue(replica.mightContain("later"), "the copy stays after a failed refresh");
      assertEquals(101, replica.size());

      RedisFilters.push(filterOf("scalable?capacity=1000", keys("b", 5)), redis, "k");
      awaitTrue(() -> replica.size() == 5, "a scheduled refresh after the key came back");
    } finally {
      replica.close();
    }
    IllegalStateException closed = assertThrows(IllegalStateException.class, replica::refresh);
    assertEquals("the replica of key 'k' is closed", closed.getMessage());
    assertEquals(5, replica.size(), "lookups go on from the last copy");
  }

  private static void awaitTrue(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "waited " + WAIT_SECONDS + " s for " + what);
      Thread.sleep(5);
    }
  }

  @Test
  void aScheduledReplicaStopsOnClose() throws Exception {
    RedisFilters.push(filterOf("scalable?capacity=1000", keys("a", 100)), redis, "k");
    RedisReplica replica = RedisReplica.open(redis, "k", Duration.ofMillis(10), e -> { });
    replica.close();
    // close() returns once the schedule's executor has terminated: no refresh can run after it,
    // which needs no waiting to show.
    assertTrue(replica.schedule.isTerminated(), "the refresh schedule still runs after close");
    Instant closedAt = replica.refreshedAt();
    redis.cfAdd("k", "after-close");
    assertThrows(IllegalStateException.class, replica::refresh);
    assertEquals(closedAt, replica.refreshedAt(), "no refresh after close");
    assertEquals(100, replica.size());
  }

  @Test
  void toStringNamesTheKey() throws CorruptFilterException {
    RedisFilters.push(filterOf("scalable?capacity=1000", keys("a", 3)), redis, "k");
    try (RedisReplica replica = RedisReplica.open(redis, "k")) {
      assertTrue(replica.toString().startsWith("RedisReplica[key=k, 3 items, refreshed at "), replica.toString());
      assertEquals("k", replica.key());
    }
  }
}
