package dev.cuckoo.docs.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.scalable.RedisBloomDump;
import dev.cuckoo.scalable.ScalableCuckooFilter;
import java.lang.reflect.Proxy;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.bloom.commands.CuckooFilterCommands;

/**
 * Moving a filter to and from Redis 8 with Jedis. The test runs the snippets against a stand-in
 * for Redis that answers CF.LOADCHUNK and CF.SCANDUMP from the chunks it was given, so the build
 * needs no server.
 */
class RedisExample {

  // tag::to-redis[]
  /** Recreates the filter in Redis under {@code key} (which must not exist yet). */
  static void copyToRedis(CuckooFilter filter, CuckooFilterCommands redis, String key) {
    for (RedisBloomDump.Chunk chunk : RedisBloomDump.dump(filter)) {
      redis.cfLoadChunk(key, chunk.iterator(), chunk.data());
    }
  }
  // end::to-redis[]

  // tag::from-redis[]
  /** Reads the filter stored in Redis under {@code key}. */
  static ScalableCuckooFilter copyFromRedis(CuckooFilterCommands redis, String key)
      throws CorruptFilterException {
    List<RedisBloomDump.Chunk> chunks = new ArrayList<>();
    long iterator = 0;
    while (true) {
      Map.Entry<Long, byte[]> reply = redis.cfScanDump(key, iterator);
      iterator = reply.getKey();
      if (iterator == 0) {
        return RedisBloomDump.load(chunks);
      }
      chunks.add(new RedisBloomDump.Chunk(iterator, reply.getValue()));
    }
  }
  // end::from-redis[]

  @Test
  void roundTripThroughRedis() throws Exception {
    // tag::create[]
    CuckooFilter filter = CuckooFilters.create("scalable?capacity=100000&bucketSize=2&expansion=1");
    filter.add("user:1001");
    // end::create[]
    CuckooFilterCommands redis = fakeRedis();
    copyToRedis(filter, redis, "users");
    ScalableCuckooFilter back = copyFromRedis(redis, "users");
    assertTrue(back.mightContain("user:1001"));
    assertEquals(filter.size(), back.size());
    assertEquals(RedisBloomDump.dump(filter), RedisBloomDump.dump(back));
  }

  /** Answers CF.LOADCHUNK and CF.SCANDUMP as Redis would, from the chunks it was given. */
  private static CuckooFilterCommands fakeRedis() {
    Map<String, List<RedisBloomDump.Chunk>> loaded = new HashMap<>();
    return (CuckooFilterCommands) Proxy.newProxyInstance(RedisExample.class.getClassLoader(),
        new Class<?>[] {CuckooFilterCommands.class}, (proxy, method, args) -> {
          String key = (String) args[0];
          switch (method.getName()) {
            case "cfLoadChunk":
              loaded.computeIfAbsent(key, k -> new ArrayList<>())
                  .add(new RedisBloomDump.Chunk((Long) args[1], (byte[]) args[2]));
              return "OK";
            case "cfScanDump":
              RedisBloomDump.Chunk c = RedisBloomDump.scanDump(RedisBloomDump.load(loaded.get(key)), (Long) args[1]);
              return new AbstractMap.SimpleEntry<>(c.iterator(), c.data());
            default:
              throw new UnsupportedOperationException(method.getName());
          }
        });
  }
}
