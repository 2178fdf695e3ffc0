package dev.cuckoo.redis;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.testkit.TestSeed;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;

/** What the real server answers, asked in pipelines so that thousands of keys take milliseconds. */
final class CfReplies {
  private CfReplies() {}

  /** @return " (seed N: rerun with -Dcuckoo.test.seed=N)", for messages */
  static String seed() {
    return " (" + TestSeed.rerun() + ")";
  }

  /** @return CF.INFO of the key, as {@code ScalableCuckooFilter.info()} gives it */
  static Map<String, Long> info(UnifiedJedis redis, String key) {
    Map<String, Long> info = new LinkedHashMap<>();
    redis.cfInfo(key).forEach((name, value) -> info.put(name, (Long) value));
    return info;
  }

  /** @return CF.EXISTS of each item */
  static List<Boolean> exists(UnifiedJedis redis, String key, List<String> items) {
    try (AbstractPipeline p = redis.pipelined()) {
      List<Response<Boolean>> replies = new ArrayList<>();
      items.forEach(item -> replies.add(p.cfExists(key, item)));
      p.sync();
      return replies.stream().map(Response::get).toList();
    }
  }

  /** @return CF.COUNT of each item */
  static List<Long> counts(UnifiedJedis redis, String key, List<String> items) {
    try (AbstractPipeline p = redis.pipelined()) {
      List<Response<Long>> replies = new ArrayList<>();
      items.forEach(item -> replies.add(p.cfCount(key, item)));
      p.sync();
      return replies.stream().map(Response::get).toList();
    }
  }

  /** CF.ADD of each item. */
  static void add(UnifiedJedis redis, String key, List<String> items) {
    try (AbstractPipeline p = redis.pipelined()) {
      items.forEach(item -> p.cfAdd(key, item));
      p.sync();
    }
  }

  /** @return {@code prefix0 .. prefix(n-1)} */
  static List<String> keys(String prefix, int n) {
    List<String> keys = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      keys.add(prefix + i);
    }
    return keys;
  }

  /** @return a new filter of the config holding the keys */
  static CuckooFilter filterOf(String config, List<String> keys) {
    CuckooFilter f = CuckooFilters.create(config);
    keys.forEach(f::add);
    return f;
  }
}
