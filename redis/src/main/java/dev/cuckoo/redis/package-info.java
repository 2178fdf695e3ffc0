/**
 * Filters in a live Redis: {@link dev.cuckoo.redis.RedisFilters} pushes a filter of variant
 * {@code scalable} to a key and pulls a consistent copy of one, streaming RedisBloom's {@code
 * CF.LOADCHUNK} / {@code CF.SCANDUMP} chunks; {@link dev.cuckoo.redis.RedisReplica} keeps a copy
 * of a key in the JVM for lookups without a round trip, refreshed on demand or on a schedule.
 * Any Jedis client works: {@code RedisClient}, {@code RedisClusterClient}, {@code
 * RedisSentinelClient}.
 */
package dev.cuckoo.redis;
