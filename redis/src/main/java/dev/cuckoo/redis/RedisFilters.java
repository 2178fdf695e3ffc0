package dev.cuckoo.redis;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.scalable.ScalableCuckooFilter;
import java.util.NoSuchElementException;
import java.util.Objects;
import redis.clients.jedis.UnifiedJedis;

/**
 * Copies filters of variant {@code scalable} into and out of a live Redis with RedisBloom's
 * {@code CF.*} commands (Redis 8, Redis Stack, or Redis with the RedisBloom module), where they
 * answer {@code CF.EXISTS}, {@code CF.ADD} and the rest as they answered {@code mightContain},
 * {@code add} and the rest here.
 *
 * <pre>{@code
 * try (RedisClient redis = RedisClient.create("redis://localhost:6379")) {
 *   RedisFilters.push(filter, redis, "users");              // a new key; see replace
 *   ScalableCuckooFilter copy = RedisFilters.pull(redis, "users");
 * }
 * }</pre>
 *
 * <p><b>Clients.</b> Any Jedis client that has a pool of connections: {@code RedisClient}, {@code
 * RedisClusterClient} (the key's node is found by its hash slot), {@code RedisSentinelClient}. The
 * client stays the caller's: nothing here closes it.
 *
 * <p><b>Streaming.</b> Both ways go chunk by chunk ({@code CF.LOADCHUNK}, {@code CF.SCANDUMP};
 * chunks of at most 16 MiB), so the JVM holds the filter and one chunk, never a second copy.
 *
 * <p><b>What Redis sees.</b> A push loads the chunks into a new key beside the target (same
 * hash slot, a name that starts with the key's) and renames it over the key in one step, so
 * readers see the old value or the whole filter, never a filter half loaded; Redis holds both
 * until then. A pull is one state of the key even while clients write it: it reads under {@code
 * WATCH} and reads again if the key changed; when the key changed during three reads in a row,
 * a script copies it server side into a snapshot key
 * (Redis then holds a second copy, and the script blocks the server for about a second per GB)
 * and the pull reads and deletes that. Both need the ACL rights of those commands ({@code
 * EVAL}, {@code RENAME}, {@code PEXPIRE}, {@code DEL}, the {@code CF.*} commands) on the key and
 * on keys that start with it.
 *
 * <p><b>Errors.</b> Failures of the connection or the server (refused connection, wrong
 * password, missing permissions, a server without the {@code CF.*} commands, out of memory) are
 * Jedis's own unchecked exceptions ({@code JedisConnectionException}, {@code
 * JedisDataException}), thrown as they come. Null arguments throw {@link NullPointerException}.
 */
public final class RedisFilters {
  private RedisFilters() {}

  /**
   * Copies a filter into Redis under a key that must not exist yet. An empty filter (which
   * RedisBloom cannot dump) becomes {@code CF.RESERVE key capacity BUCKETSIZE b MAXITERATIONS m
   * EXPANSION e} of its spec.
   *
   * <p>With {@code concurrency=locked}, the filter's writers wait while its chunks are sent (it
   * is read under its read lock, so Redis gets one state of it); with {@code none}, it must not
   * be written meanwhile.
   *
   * @param filter a filter of variant {@code scalable} with hash {@code murmur64a}, seed 0 (the
   *     defaults), the only ones RedisBloom can answer for
   * @param redis the client
   * @param key the key to create
   * @throws IllegalArgumentException if the filter is of another variant or hash (before
   *     anything is sent)
   * @throws IllegalStateException if the key exists (then Redis is as it was)
   */
  public static void push(CuckooFilter filter, UnifiedJedis redis, String key) {
    if (!Push.run(Objects.requireNonNull(filter, "filter"), Objects.requireNonNull(redis, "redis"),
        Objects.requireNonNull(key, "key"), false)) {
      throw new IllegalStateException("key '" + key + "' already exists in Redis: replace it, or push to a new key");
    }
  }

  /**
   * Copies a filter into Redis under a key, replacing whatever the key holds (a filter or any
   * other value, and its TTL) in one step, as {@link #push} does otherwise.
   *
   * @param filter a filter of variant {@code scalable} with hash {@code murmur64a}, seed 0
   * @param redis the client
   * @param key the key to create or replace
   * @throws IllegalArgumentException if the filter is of another variant or hash (before
   *     anything is sent)
   */
  public static void replace(CuckooFilter filter, UnifiedJedis redis, String key) {
    Push.run(Objects.requireNonNull(filter, "filter"), Objects.requireNonNull(redis, "redis"),
        Objects.requireNonNull(key, "key"), true);
  }

  /**
   * Copies the filter under a key out of Redis: one state of it, even while other clients write
   * it (see the class description). The copy answers every lookup as the key did in that state,
   * has the same {@code CF.INFO} (an empty key: that of a new {@code CF.RESERVE} of its shape),
   * and is not thread-safe for writes ({@code concurrency=none}).
   *
   * @param redis the client
   * @param key the key
   * @return the copy
   * @throws NoSuchElementException if there is no such key
   * @throws IllegalStateException if the key holds something other than a cuckoo filter
   * @throws CorruptFilterException if the chunks Redis returns are not a whole, valid dump
   *     ({@link dev.cuckoo.scalable.RedisBloomDump#loader})
   */
  public static ScalableCuckooFilter pull(UnifiedJedis redis, String key) throws CorruptFilterException {
    return new Pull(Objects.requireNonNull(redis, "redis"), Objects.requireNonNull(key, "key"), () -> {})
        .run().filter();
  }
}
