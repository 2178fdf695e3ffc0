package dev.cuckoo.redis;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.scalable.RedisBloomDump;
import dev.cuckoo.scalable.ScalableCuckooFilter;
import dev.cuckoo.scalable.ScalableProvider;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * A consistent copy of the filter under a key: the chunks of one state of it, never chunks of
 * two states mixed, even while other clients write the key.
 */
final class Pull {
  /*
   * CF.SCANDUMP is one call per chunk, and RedisBloom takes no snapshot between calls: a write
   * between two calls leaves a dump whose chunks disagree (a header counting items the data
   * does not hold, or fingerprints from two states). Two ways out:
   *
   * Watching (tried first, up to OPTIMISTIC_ATTEMPTS times). WATCH the key on a connection of
   * our own, read every chunk into a RedisBloomDump.Loader, then run an empty MULTI/EXEC: EXEC
   * answers null if anything wrote the key since the WATCH (see KeyConnection), and then the
   * copy is thrown away and read again. It costs the server nothing and streams: the client holds
   * the filter and one chunk. A key that is written all the time, though, may change during
   * every read.
   *
   * A snapshot (when watching keeps failing). One script copies the key chunk by chunk into a
   * new key in the same slot (CF.SCANDUMP, CF.LOADCHUNK, server side): a script runs alone, so
   * the copy is one state. The client then streams the snapshot, which no one else writes, and
   * deletes it. The server needs room for a second copy of the filter for that long, and the
   * script blocks the server while it copies (memory speed: about a second per GB). A script
   * that returned the chunks themselves would be one state too, but in one reply: the whole dump
   * in the server's output buffer and in the client's heap beside the filter it builds.
   *
   * A key whose filter holds no items dumps nothing (RedisBloom's CF.SCANDUMP answers iterator 0
   * at once), so its shape comes from CF.INFO, read under the same watch.
   */

  /** How many times a watched read may find the key changed before a snapshot is taken. */
  static final int OPTIMISTIC_ATTEMPTS = 3;

  /** The TYPE of a key RedisBloom's cuckoo filter holds. */
  static final String FILTER_TYPE = "MBbloomCF";

  /** The largest capacity CF.RESERVE takes, 2^30. */
  private static final long MAX_CAPACITY = 1L << 30;

  /** How long a snapshot may outlive a client that died before deleting it, renewed per chunk. */
  private static final long SNAPSHOT_MILLIS = 5 * 60_000L;

  /** KEYS[1] the filter, KEYS[2] a new key for its snapshot, ARGV[1] the snapshot's TTL in ms. */
  private static final String SNAPSHOT = String.join("\n",
      "local t = redis.call('TYPE', KEYS[1]).ok",
      "if t ~= '" + FILTER_TYPE + "' then return {'type', t} end",
      "local it = 0",
      "repeat",
      "  local r = redis.call('CF.SCANDUMP', KEYS[1], it)",
      "  it = r[1]",
      "  if it ~= 0 then redis.call('CF.LOADCHUNK', KEYS[2], it, r[2]) end",
      "until it == 0",
      "if redis.call('EXISTS', KEYS[2]) == 0 then return {'empty', redis.call('CF.INFO', KEYS[1])} end",
      "redis.call('PEXPIRE', KEYS[2], ARGV[1])",
      "return {'copied'}");

  /** What a pull did, for tests: the copy, the watched reads it took, and whether it needed a snapshot. */
  record Copy(ScalableCuckooFilter filter, int watchedReads, boolean snapshot) {}

  private final UnifiedJedis redis;
  private final String key;
  private final Runnable betweenChunks;

  /**
   * @param betweenChunks runs before every CF.SCANDUMP call after the first (tests write the key
   *     there)
   */
  Pull(UnifiedJedis redis, String key, Runnable betweenChunks) {
    this.redis = redis;
    this.key = key;
    this.betweenChunks = betweenChunks;
  }

  Copy run() throws CorruptFilterException {
    for (int attempt = 1; attempt <= OPTIMISTIC_ATTEMPTS; attempt++) {
      ScalableCuckooFilter copy = read(key, true);
      if (copy != null) {
        return new Copy(copy, attempt, false);
      }
    }
    return new Copy(fromSnapshot(), OPTIMISTIC_ATTEMPTS, true);
  }

  /**
   * Reads the filter under a key chunk by chunk.
   *
   * @param watch whether to watch the key (a snapshot is ours alone: its TTL is renewed instead)
   * @return the filter, or null if the key changed while it was read
   */
  private ScalableCuckooFilter read(String name, boolean watch) throws CorruptFilterException {
    try (KeyConnection c = KeyConnection.open(redis, name, watch)) {
      ScalableCuckooFilter copy;
      try {
        requireFilter(name, c.run(t -> t.type(name)));
        Map.Entry<Long, byte[]> reply = c.run(t -> t.cfScanDump(name, 0));
        if (reply.getKey() == 0) {
          copy = empty(name, c.run(t -> t.cfInfo(name)));
        } else {
          RedisBloomDump.Loader loader = RedisBloomDump.loader();
          while (reply.getKey() != 0) {
            loader.accept(new RedisBloomDump.Chunk(reply.getKey(), reply.getValue()));
            long next = reply.getKey();
            betweenChunks.run();
            if (!watch) {
              c.run(t -> t.pexpire(name, SNAPSHOT_MILLIS));
            }
            reply = c.run(t -> t.cfScanDump(name, next));
          }
          copy = loader.finish();
        }
      } catch (CorruptFilterException | JedisDataException | NoSuchElementException e) {
        // Chunks of two states disagree, and a key deleted midway is not found: torn, not bad,
        // if the key changed. If it did not, the error is the key's own.
        if (c.unchanged()) {
          throw e;
        }
        return null;
      }
      return c.unchanged() ? copy : null;
    }
  }

  private ScalableCuckooFilter fromSnapshot() throws CorruptFilterException {
    String snapshot = TemporaryKey.beside(key, "pull");
    try {
      List<?> reply = (List<?>) redis.eval(SNAPSHOT, List.of(key, snapshot), List.of(Long.toString(SNAPSHOT_MILLIS)));
      String outcome = text(reply.get(0));
      if (outcome.equals("type")) {
        requireFilter(key, text(reply.get(1)));
      }
      if (outcome.equals("empty")) {
        List<?> fields = (List<?>) reply.get(1);
        Map<String, Object> info = new LinkedHashMap<>();
        for (int i = 0; i + 1 < fields.size(); i += 2) {
          info.put(text(fields.get(i)), fields.get(i + 1));
        }
        return empty(key, info);
      }
      ScalableCuckooFilter copy = read(snapshot, false);
      if (copy == null) {
        throw new IllegalStateException("the snapshot " + snapshot + " of key '" + key + "' changed while it was read");
      }
      return copy;
    } finally {
      redis.del(snapshot);
    }
  }

  private static String text(Object reply) {
    return reply instanceof byte[] bytes ? new String(bytes, java.nio.charset.StandardCharsets.UTF_8)
        : String.valueOf(reply);
  }

  /**
   * @throws NoSuchElementException if there is no such key
   * @throws IllegalStateException if it holds something else
   */
  static void requireFilter(String key, String type) {
    if (type.equals("none")) {
      throw new NoSuchElementException("no key '" + key + "' in Redis");
    }
    if (!type.equals(FILTER_TYPE)) {
      throw new IllegalStateException("key '" + key + "' holds a " + type + ", not a cuckoo filter (type "
          + FILTER_TYPE + ")");
    }
  }

  /**
   * The filter of a key that holds no items, built from its {@code CF.INFO}, as {@code
   * CF.RESERVE} with its bucket size, max iterations and expansion would make it. (A filter
   * emptied by deletes has one sub-filter again, compaction having dropped the others.)
   */
  private static ScalableCuckooFilter empty(String key, Map<String, Object> info) throws CorruptFilterException {
    // The smallest capacity that gives the first sub-filter this many buckets, as loading a dump
    // chooses it: its slots, at most CF.RESERVE's largest capacity.
    long buckets = field(key, info, "Number of buckets");
    long bucketSize = field(key, info, "Bucket size");
    long items = field(key, info, "Number of items inserted");
    if (items != 0) {
      throw new CorruptFilterException("key '" + key + "' dumps nothing, but CF.INFO says it holds " + items + " items");
    }
    ScalableCuckooFilter filter;
    try {
      filter = (ScalableCuckooFilter) CuckooFilters.create(FilterSpec.builder(ScalableProvider.NAME)
          .capacity(buckets > MAX_CAPACITY || bucketSize > 255 ? MAX_CAPACITY : Math.min(buckets * bucketSize, MAX_CAPACITY))
          .bucketSize((int) bucketSize)
          .maxKicks((int) field(key, info, "Max iterations"))
          .option(ScalableProvider.EXPANSION, Long.toString(field(key, info, "Expansion rate")))
          .build());
    } catch (IllegalArgumentException e) {
      throw new CorruptFilterException("key '" + key + "' has a CF.INFO no filter here can have: " + info, e);
    }
    if (filter.subFilterBuckets(0) != buckets) {
      throw new CorruptFilterException("key '" + key + "' has a CF.INFO no CF.RESERVE gives: " + info);
    }
    return filter;
  }

  private static long field(String key, Map<String, Object> info, String name) throws CorruptFilterException {
    Object value = info.get(name);
    if (!(value instanceof Long number)) {
      throw new CorruptFilterException("key '" + key + "' has no '" + name + "' in its CF.INFO: " + info);
    }
    return number;
  }
}
