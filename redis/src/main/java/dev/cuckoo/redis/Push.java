package dev.cuckoo.redis;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.scalable.RedisBloomDump;
import dev.cuckoo.scalable.ScalableProvider;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.bloom.CFReserveParams;

/**
 * Copies a filter into Redis under a key, so that the key goes from its old value (or nothing)
 * to the whole filter at once: readers never see a filter half loaded.
 */
final class Push {
  /*
   * CF.LOADCHUNK fills a filter chunk by chunk, and a reader of the key in between would see
   * empty slots where keys belong (false negatives). So the chunks go to a new key in the same
   * slot (TemporaryKey), with a TTL renewed per chunk in case this client dies midway, and one
   * script then renames it over the key and drops the TTL: atomic, and with the check that the
   * key does not exist in the same step when it must not be replaced. While that runs, Redis
   * holds the old value and the new copy.
   *
   * RedisBloom dumps nothing for a filter without items, so an empty filter goes as CF.RESERVE
   * of its shape (bucket size, max iterations, expansion, and a capacity that gives the same
   * first sub-filter).
   */

  /** How long a staged copy may outlive a client that died before moving it, renewed per chunk. */
  private static final long STAGED_MILLIS = 5 * 60_000L;

  /** KEYS[1] the staged copy, KEYS[2] the key; ARGV[1] 'replace' to overwrite the key if it exists. */
  private static final String MOVE = """
      if ARGV[1] ~= 'replace' and redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
      redis.call('RENAME', KEYS[1], KEYS[2])
      redis.call('PERSIST', KEYS[2])
      return 1""";

  private Push() {}

  /**
   * @return false if the key exists and {@code replace} is false (nothing changed then)
   */
  static boolean run(CuckooFilter filter, UnifiedJedis redis, String key, boolean replace) {
    // Cuts the 38-byte header only: refuses another variant or hash before Redis is touched.
    RedisBloomDump.scanDump(filter, 0);
    if (!replace && redis.exists(key)) {
      return false;
    }
    String staged = TemporaryKey.beside(key, "push");
    try {
      boolean[] sent = new boolean[1];
      RedisBloomDump.dump(filter, chunk -> {
        redis.cfLoadChunk(staged, chunk.iterator(), chunk.data());
        redis.pexpire(staged, STAGED_MILLIS);
        sent[0] = true;
      });
      if (!sent[0]) {
        FilterSpec spec = filter.spec();
        redis.cfReserve(staged, spec.capacity().getAsLong(), CFReserveParams.reserveParams()
            .bucketSize(spec.bucketSize().getAsInt())
            .maxIterations(spec.maxKicks().getAsInt())
            .expansion(Integer.parseInt(spec.option(ScalableProvider.EXPANSION).orElseThrow())));
        redis.pexpire(staged, STAGED_MILLIS);
      }
      Object moved = redis.eval(MOVE, List.of(staged, key), List.of(replace ? "replace" : "new"));
      return Long.valueOf(1).equals(moved);
    } finally {
      redis.del(staged); // nothing left to delete once moved
    }
  }
}
