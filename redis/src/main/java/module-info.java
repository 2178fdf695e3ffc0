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
  // Jedis is an automatic module: it reads whatever is resolved but cannot make anything be. The
  // dependencies its pom declares that are named modules are resolved only if a module requires
  // them, so this one does, or an application module that requires this one fails at run time
  // with a NoClassDefFoundError (the pool's and SLF4J's from RedisClient.create; Gson's and
  // org.json's from the JSON commands and multi-cluster failover) unless it adds them with
  // --add-modules. SLF4J is an automatic module in 1.7, the version Jedis's pom names, but a
  // named one in 2.x, which an application that logs through SLF4J 2 puts in its place.
  // redis-authx-core is automatic, and resolved with Jedis itself.
  requires org.apache.commons.pool2;
  requires com.google.gson;
  requires org.json;
  requires org.slf4j;

  exports dev.cuckoo.redis;
}
