/**
 * Filters to and from a live Redis with RedisBloom's {@code CF.*} commands (Redis 8, Redis Stack,
 * or Redis with the RedisBloom module), through Jedis: push a filter of variant {@code scalable}
 * under a key, pull a consistent copy of one, keep a local replica of one, on a single server or a
 * Redis Cluster.
 */
@SuppressWarnings("requires-transitive-automatic") // Jedis has no module descriptor, only a name
module dev.cuckoo.redis {
  requires transitive dev.cuckoo.scalable;
  requires transitive redis.clients.jedis;

  exports dev.cuckoo.redis;
}
