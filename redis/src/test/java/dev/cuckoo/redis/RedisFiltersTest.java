package dev.cuckoo.redis;

import static dev.cuckoo.redis.CfReplies.filterOf;
import static dev.cuckoo.redis.CfReplies.keys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.redis.testing.RealRedis;
import dev.cuckoo.scalable.RedisBloomDump;
import dev.cuckoo.scalable.ScalableCuckooFilter;
import dev.cuckoo.testkit.TestSeed;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.bloom.CFReserveParams;

/**
 * {@link RedisFilters} against a real {@code redis-server} with RedisBloom: what a push leaves
 * in Redis is answered by RedisBloom itself ({@code CF.EXISTS}, {@code CF.INFO}), a filter built
 * by {@code CF.ADD}/{@code CF.DEL} pulls with RedisBloom's own counts, and every refusal.
 */
class RedisFiltersTest {
  @RegisterExtension static final RealRedis real = RealRedis.server();
  private final UnifiedJedis redis = real.client();

  @Test
  void aPushedFilterIsRedisBloomsOwnAndPullsBackByteForByte() throws CorruptFilterException {
    // 30,000 keys into room for 4,000 growing by 2: several sub-filters, one chunk each.
    List<String> keys = keys("user:", 30_000);
    ScalableCuckooFilter filter = (ScalableCuckooFilter) filterOf("scalable?capacity=4000&expansion=2", keys);
    assertTrue(filter.subFilterCount() >= 3, filter.subFilterCount() + " sub-filters");
    RedisFilters.push(filter, redis, "users");

    assertFalse(CfReplies.exists(redis, "users", keys).contains(false), "CF.EXISTS said no to a key pushed");
    assertEquals(filter.info(), CfReplies.info(redis, "users"));
    assertEquals(Set.of("users"), redis.keys("*"), "the staged copy is gone");
    assertEquals(-1, redis.ttl("users"), "no TTL left on the key");

    ScalableCuckooFilter back = RedisFilters.pull(redis, "users");
    assertEquals(RedisBloomDump.dump(filter), RedisBloomDump.dump(back));
    assertEquals(filter.info(), back.info());
    assertEquals(Set.of("users"), redis.keys("*"));
  }

  @Test
  void aMergedChainIsOneRedisBloomAcceptsAndAnswersForTheKeysOfBoth() throws CorruptFilterException {
    // A fingerprint can only go to a sub-filter no newer than its own (it knows its bucket only
    // up to that size): two filters of one sub-filter with room for both merge whole.
    List<String> first = keys("left:", 400);
    List<String> second = keys("right:", 400);
    ScalableCuckooFilter a = (ScalableCuckooFilter) filterOf("scalable?capacity=2000&expansion=2", first);
    ScalableCuckooFilter b = (ScalableCuckooFilter) filterOf("scalable?capacity=2000&expansion=2", second);
    long moved = a.addAll(b);
    assertEquals(b.size(), moved, "two chains of one shape with room in their older sub-filters merge whole");
    List<String> merged = new ArrayList<>(first);
    merged.addAll(second);
    RedisFilters.push(a, redis, "merged");
    assertFalse(CfReplies.exists(redis, "merged", merged).contains(false), "CF.EXISTS said no to a key of the merge");
    assertEquals(a.info(), CfReplies.info(redis, "merged"));
    assertEquals(RedisBloomDump.dump(a), RedisBloomDump.dump(RedisFilters.pull(redis, "merged")));
  }

  @Test
  void aFilterRedisBuiltWithAddsAndDeletesPullsWithRedisBloomsOwnAnswers() throws CorruptFilterException {
    redis.cfReserve("seen", 1000, CFReserveParams.reserveParams().bucketSize(4).expansion(2).maxIterations(50));
    SplittableRandom r = TestSeed.random("keys Redis adds and deletes");
    List<String> added = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      added.add("k" + r.nextInt(15_000)); // duplicates too
    }
    CfReplies.add(redis, "seen", added);
    for (int i = 0; i < 3_000; i++) {
      redis.cfDel("seen", added.get(r.nextInt(added.size())));
    }
    ScalableCuckooFilter copy = RedisFilters.pull(redis, "seen");

    assertEquals(CfReplies.info(redis, "seen"), copy.info(), CfReplies.seed());
    List<String> probes = keys("k", 20_000); // present, deleted and never added
    List<Long> counts = CfReplies.counts(redis, "seen", probes);
    List<Boolean> exists = CfReplies.exists(redis, "seen", probes);
    for (int i = 0; i < probes.size(); i++) {
      assertEquals(counts.get(i), copy.count(probes.get(i)), "CF.COUNT " + probes.get(i) + CfReplies.seed());
      assertEquals(exists.get(i), copy.mightContain(probes.get(i)), "CF.EXISTS " + probes.get(i) + CfReplies.seed());
    }
  }

  @Test
  void aFilterOfSeveralChunksGoesBothWays() throws CorruptFilterException {
    // One sub-filter of 32 MiB: CF.SCANDUMP cuts it in two chunks of 16 MiB.
    List<String> keys = keys("big:", 5_000);
    CuckooFilter filter = filterOf("scalable?capacity=33554432&bucketSize=1&expansion=0", keys);
    assertEquals(3, RedisBloomDump.dump(filter).size());
    RedisFilters.push(filter, redis, "big");
    assertFalse(CfReplies.exists(redis, "big", keys).contains(false));
    ScalableCuckooFilter back = RedisFilters.pull(redis, "big");
    assertEquals(RedisBloomDump.dump(filter), RedisBloomDump.dump(back));
  }

  @Test
  void pushRefusesAnExistingKeyAndReplaceOverwritesIt() throws CorruptFilterException {
    CuckooFilter first = filterOf("scalable?capacity=1000", keys("a", 100));
    redis.set("users", "not a filter");
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> RedisFilters.push(first, redis, "users"));
    assertEquals("key 'users' already exists in Redis: replace it, or push to a new key", e.getMessage());
    assertEquals("not a filter", redis.get("users"));
    assertEquals(1, redis.dbSize());

    redis.expire("users", 1000);
    RedisFilters.replace(first, redis, "users");
    assertEquals(-1, redis.ttl("users"), "a replaced key loses its TTL");
    assertEquals(first.size(), RedisFilters.pull(redis, "users").size());

    CuckooFilter second = filterOf("scalable?capacity=1000", keys("b", 300));
    RedisFilters.replace(second, redis, "users");
    assertEquals(RedisBloomDump.dump(second), RedisBloomDump.dump(RedisFilters.pull(redis, "users")));
    assertEquals(Set.of("users"), redis.keys("*"));
  }

  @Test
  void pushRefusesFiltersRedisCannotHoldBeforeAnythingIsSent() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RedisFilters.push(filterOf("classic?capacity=1000", keys("a", 10)), redis, "c"));
    assertTrue(e.getMessage().contains("only filters of variant scalable"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> RedisFilters.replace(filterOf("scalable?capacity=1000&hash=xxh3", keys("a", 10)), redis, "c"));
    assertTrue(e.getMessage().contains("murmur64a"), e.getMessage());
    assertEquals(0, redis.dbSize());
  }

  @Test
  void pullNamesAMissingKeyAndAKeyOfAnotherType() {
    NoSuchElementException missing = assertThrows(NoSuchElementException.class, () -> RedisFilters.pull(redis, "none"));
    assertEquals("no key 'none' in Redis", missing.getMessage());
    redis.set("text", "x");
    IllegalStateException other = assertThrows(IllegalStateException.class, () -> RedisFilters.pull(redis, "text"));
    assertEquals("key 'text' holds a string, not a cuckoo filter (type MBbloomCF)", other.getMessage());
  }

  @Test
  void aDumpRedisBloomLoadedWithoutCheckingIsRefusedOnPull() {
    // RedisBloom loads a header whose numItems the data does not bear out; the pull refuses it.
    byte[] header = ByteBuffer.allocate(38).order(ByteOrder.LITTLE_ENDIAN)
        .putLong(5).putLong(4).putLong(0).putLong(1).putShort((short) 2).putShort((short) 20).putShort((short) 1)
        .array();
    redis.cfLoadChunk("forged", 1, header);
    redis.cfLoadChunk("forged", 9, new byte[8]);
    CorruptFilterException e = assertThrows(CorruptFilterException.class, () -> RedisFilters.pull(redis, "forged"));
    assertTrue(e.getMessage().contains("numItems 5"), e.getMessage());
  }

  @Test
  void emptyFiltersGoAsCfReserveAndComeBackEmpty() throws CorruptFilterException {
    redis.cfReserve("reserved", 1000, CFReserveParams.reserveParams().bucketSize(3).maxIterations(7).expansion(3));
    ScalableCuckooFilter pulled = RedisFilters.pull(redis, "reserved");
    assertEquals(0, pulled.size());
    assertEquals(CfReplies.info(redis, "reserved"), pulled.info());

    CuckooFilter empty = CuckooFilters.create("scalable?capacity=500&bucketSize=4&maxKicks=9&expansion=0");
    RedisFilters.push(empty, redis, "fresh");
    assertEquals(((ScalableCuckooFilter) empty).info(), CfReplies.info(redis, "fresh"));
    assertEquals(Set.of("reserved", "fresh"), redis.keys("*"));
    assertTrue(redis.cfAdd("fresh", "x"), "a filter Redis can add to");
  }
}
