package dev.cuckoo.redis;

import static dev.cuckoo.redis.CfReplies.filterOf;
import static dev.cuckoo.redis.CfReplies.keys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.redis.testing.RealRedis;
import dev.cuckoo.redis.testing.RedisServer;
import dev.cuckoo.scalable.RedisBloomDump;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.UnifiedJedis;

/**
 * Push, pull (watched and by snapshot) and a replica through a real Redis Cluster of three
 * masters on loopback ports, with keys on every master.
 */
class RedisClusterTest {
  @RegisterExtension static final RealRedis real = RealRedis.cluster(3);
  private final UnifiedJedis redis = real.client();

  @Test
  void filtersGoToAndFromKeysOnEveryMaster() throws Exception {
    List<String> keys = keys("user:", 3_000);
    CuckooFilter filter = filterOf("scalable?capacity=500&expansion=2", keys);
    // Keys whose slots fall to each master, and one with a hash tag.
    List<String> names = List.of("alpha", "bravo", "charlie", "delta", "echo", "{users}.recent");
    for (String name : names) {
      RedisFilters.push(filter, redis, name);
      assertFalse(CfReplies.exists(redis, name, keys).contains(false), name);
      assertEquals(RedisBloomDump.dump(filter), RedisBloomDump.dump(RedisFilters.pull(redis, name)), name);
    }
    Set<Integer> holders = new HashSet<>();
    List<RedisServer> masters = real.redisCluster().masters();
    for (int i = 0; i < masters.size(); i++) {
      try (Jedis node = masters.get(i).connection()) {
        if (node.dbSize() > 0) {
          holders.add(i);
        }
        assertTrue(node.keys("*cuckoo-*").isEmpty(), "staged copies left on master " + i);
      }
    }
    assertEquals(Set.of(0, 1, 2), holders, "every master holds one of the keys");

    RedisFilters.replace(filterOf("scalable?capacity=500", keys("other:", 10)), redis, "alpha");
    assertEquals(10, RedisFilters.pull(redis, "alpha").size());
  }

  @Test
  void aPullUnderWritesTakesItsSnapshotInTheKeysSlot() throws Exception {
    List<String> keys = keys("old:", 3_000);
    RedisFilters.push(filterOf("scalable?capacity=300&expansion=2", keys), redis, "busy");
    int[] writes = {0};
    Pull.Copy copy = new Pull(redis, "busy", () -> redis.cfAdd("busy", "late-" + writes[0]++)).run();
    assertTrue(copy.snapshot());
    for (String k : keys) {
      assertTrue(copy.filter().mightContain(k), k);
    }
    assertTrue(copy.filter().mightContain("late-0"));
  }

  @Test
  void aReplicaFollowsAKeyInTheCluster() throws Exception {
    RedisFilters.push(filterOf("scalable?capacity=1000", keys("a", 100)), redis, "replicated");
    try (RedisReplica replica = RedisReplica.open(redis, "replicated")) {
      assertTrue(replica.mightContain("a7"));
      redis.cfAdd("replicated", "b");
      replica.refresh();
      assertTrue(replica.mightContain("b"));
      assertEquals(101, replica.size());
    }
  }
}
