package dev.cuckoo.docs.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.redis.RedisFilters;
import dev.cuckoo.redis.RedisReplica;
import dev.cuckoo.redis.testing.RealRedis;
import dev.cuckoo.scalable.RedisBloomDump;
import dev.cuckoo.scalable.ScalableCuckooFilter;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Filters to and from Redis with module redis, run against a real {@code redis-server} with
 * RedisBloom that the test starts on a free loopback port; skipped, with the reason, where
 * {@code redis-server} or {@code CUCKOO_REDISBLOOM_MODULE} is missing.
 */
class RedisExample {
  @RegisterExtension static final RealRedis real = RealRedis.server();

  // tag::by-hand[]
  /** Recreates the filter in Redis under a new key, chunk by chunk. */
  static void copyToRedis(CuckooFilter filter, UnifiedJedis redis, String key) {
    RedisBloomDump.dump(filter, chunk -> redis.cfLoadChunk(key, chunk.iterator(), chunk.data()));
  }

  /** Reads the filter under a key chunk by chunk: torn if a client writes it meanwhile. */
  static ScalableCuckooFilter copyFromRedis(UnifiedJedis redis, String key) throws CorruptFilterException {
    RedisBloomDump.Loader loader = RedisBloomDump.loader();
    Map.Entry<Long, byte[]> reply = redis.cfScanDump(key, 0);
    while (reply.getKey() != 0) {
      loader.accept(new RedisBloomDump.Chunk(reply.getKey(), reply.getValue()));
      reply = redis.cfScanDump(key, reply.getKey());
    }
    return loader.finish();
  }
  // end::by-hand[]

  @Test
  void pushPullAndReplicate() throws Exception {
    String url = real.redisServer().url();
    // tag::create[]
    CuckooFilter filter = CuckooFilters.create("scalable?capacity=100000&bucketSize=2&expansion=1");
    filter.add("user:1001");
    // end::create[]

    // tag::push-pull[]
    try (RedisClient redis = RedisClient.create(url)) {   // such as "redis://localhost:6379"
      RedisFilters.push(filter, redis, "users");          // a new key; RedisFilters.replace overwrites
      redis.cfExists("users", "user:1001");               // true: RedisBloom answers for it
      redis.cfAdd("users", "user:1002");
      ScalableCuckooFilter copy = RedisFilters.pull(redis, "users");
      copy.mightContain("user:1002");                     // true
    }
    // end::push-pull[]

    try (RedisClient redis = RedisClient.create(url)) {
      assertTrue(redis.cfExists("users", "user:1001"));
      ScalableCuckooFilter copy = RedisFilters.pull(redis, "users");
      assertTrue(copy.mightContain("user:1002"));
      assertEquals(2, copy.size());
      assertThrows(IllegalStateException.class, () -> RedisFilters.push(filter, redis, "users"));

      // tag::replica[]
      RedisReplica users = RedisReplica.open(redis, "users", Duration.ofSeconds(30),
          e -> System.err.println("users not refreshed, still answering from the last copy: " + e));
      users.mightContain("user:1001");   // from memory, no round trip
      users.refresh();                   // now, besides every 30 s
      users.close();                     // stops the refreshes
      // end::replica[]
      assertTrue(users.mightContain("user:1002"));

      copyToRedis(copy, redis, "by-hand");
      assertEquals(RedisBloomDump.dump(copy), RedisBloomDump.dump(copyFromRedis(redis, "by-hand")));
    }
  }
}
