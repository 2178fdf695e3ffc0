package redisapp;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.redis.RedisFilters;
import dev.cuckoo.redis.RedisReplica;
import dev.cuckoo.scalable.ScalableCuckooFilter;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import redis.clients.jedis.RedisClient;

/** Pushes a filter to the Redis at {@code args[0]} (a URL), pulls it back, and keeps a replica. */
public final class Main {
  private static final int KEYS = 1000;

  private Main() {}

  public static void main(String[] args) throws Exception {
    CuckooFilter filter = CuckooFilters.create("scalable?capacity=10000&bucketSize=2&expansion=1");
    for (int i = 0; i < KEYS; i++) {
      filter.add("key-" + i);
    }
    try (RedisClient redis = RedisClient.create(args[0])) {
      RedisFilters.push(filter, redis, "users");
      require(redis.cfExists("users", "key-0"), "CF.EXISTS of a pushed key");
      redis.cfAdd("users", "added-in-redis");
      ScalableCuckooFilter copy = RedisFilters.pull(redis, "users");
      for (int i = 0; i < KEYS; i++) {
        require(copy.mightContain("key-" + i), "key-" + i + " in the pulled copy");
      }
      require(copy.mightContain("added-in-redis"), "the key added in Redis, in the pulled copy");
      try (RedisReplica replica = RedisReplica.open(redis, "users")) {
        require(replica.mightContain("added-in-redis"), "the key added in Redis, in the replica");
      }
      System.out.println("module=" + Main.class.getModule().getName());
      System.out.println("redis-module=" + RedisFilters.class.getModule().getName());
      System.out.println("pulled=" + copy.size());
      // Jedis's dependencies that are named modules: resolved without an --add-modules.
      System.out.println("jedis-dependencies=" + Stream.of("org.apache.commons.pool2", "com.google.gson", "org.json")
          .filter(name -> ModuleLayer.boot().findModule(name).isPresent())
          .collect(Collectors.joining(",")));
    }
  }

  private static void require(boolean condition, String what) {
    if (!condition) {
      throw new AssertionError(what + ": not found");
    }
  }
}
