package dev.cuckoo.redis;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.redis.testing.RedisServer;
import dev.cuckoo.scalable.RedisBloomDump;
import java.util.Arrays;
import java.util.Locale;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.bloom.CFInsertParams;
import redis.clients.jedis.bloom.CFReserveParams;

/**
 * Measures, against a real {@code redis-server} with RedisBloom started on a free loopback port:
 * (a) putting 10M keys into Redis by building the filter here and pushing it ({@link
 * RedisFilters#push}) against pipelined {@code CF.INSERT} batches; (b) a {@link RedisReplica}'s
 * {@code mightContain} against {@code CF.EXISTS} round trips. Alternating rounds (the order of
 * the two contenders flips every round), medians reported. Not a test: run it by hand, on a
 * quiet machine if there is one:
 *
 * <pre>{@code
 * CUCKOO_REDISBLOOM_MODULE=$PWD/../shared/redis/redisbloom.so ./mvnw -B -q -pl redis -am verify -DskipTests -Pmeasure-redis
 * }</pre>
 *
 * <p>Arguments: {@code [keys [rounds]]}, default 10,000,000 and 3 ({@code -Dmeasure.keys=N
 * -Dmeasure.rounds=R} with the profile).
 */
public final class RedisMeasurements {
  private static final int INSERT_BATCH = 1_000;
  private static final int BATCHES_PER_SYNC = 100;
  private static final int EXISTS_CALLS = 100_000;
  private static final int LOOKUP_KEYS = 1 << 20;

  private RedisMeasurements() {}

  public static void main(String[] args) throws Exception {
    int keys = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    // RedisBloom's defaults: buckets of 2, growing by 1; a capacity of the key count.
    String config = "scalable?capacity=" + keys;
    try (RedisServer server = RedisServer.start(); RedisClient redis = server.client();
        Jedis admin = server.connection()) {
      System.out.printf(Locale.ROOT, "redis-server %s with RedisBloom on port %d; %,d keys, %d rounds%n",
          redis.info("server").lines().filter(l -> l.startsWith("redis_version:")).findFirst().orElse("?"),
          server.port(), keys, rounds);
      double[] build = new double[rounds];
      double[] push = new double[rounds];
      double[] insert = new double[rounds];
      double[] pushBusy = new double[rounds];
      double[] insertBusy = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        redis.flushAll();
        boolean pushFirst = r % 2 == 0;
        if (!pushFirst) {
          admin.configResetStat();
          insert[r] = insertPipelined(redis, keys);
          insertBusy[r] = busySeconds(admin);
        }
        long t0 = System.nanoTime();
        CuckooFilter filter = CuckooFilters.create(config);
        for (int i = 0; i < keys; i++) {
          filter.add("key-" + i);
        }
        long t1 = System.nanoTime();
        admin.configResetStat();
        RedisFilters.push(filter, redis, "built");
        long t2 = System.nanoTime();
        pushBusy[r] = busySeconds(admin);
        build[r] = (t1 - t0) / 1e9;
        push[r] = (t2 - t1) / 1e9;
        if (pushFirst) {
          admin.configResetStat();
          insert[r] = insertPipelined(redis, keys);
          insertBusy[r] = busySeconds(admin);
        }
        boolean same = RedisBloomDump.dump(RedisFilters.pull(redis, "built"))
            .equals(RedisBloomDump.dump(RedisFilters.pull(redis, "inserted")));
        System.out.printf(Locale.ROOT, "round %d: build %.2f s + push %.3f s = %.2f s (Redis busy %.3f s);"
            + " CF.INSERT pipelined %.2f s (Redis busy %.2f s); the two keys hold the same bytes: %b%n",
            r + 1, build[r], push[r], build[r] + push[r], pushBusy[r], insert[r], insertBusy[r], same);
      }

      String[] probes = new String[LOOKUP_KEYS];
      for (int i = 0; i < probes.length; i++) {
        probes[i] = "key-" + (i * 2L); // half of them beyond the keys added when i*2 >= keys
      }
      double[] replicaNs = new double[rounds];
      double[] existsUs = new double[rounds];
      try (RedisReplica replica = RedisReplica.open(redis, "built")) {
        for (int r = 0; r < rounds; r++) {
          if (r % 2 == 0) {
            replicaNs[r] = replicaLookups(replica, probes);
            existsUs[r] = existsRoundTrips(redis, probes);
          } else {
            existsUs[r] = existsRoundTrips(redis, probes);
            replicaNs[r] = replicaLookups(replica, probes);
          }
          System.out.printf(Locale.ROOT, "round %d: replica mightContain %.1f ns; CF.EXISTS round trip %.1f us%n",
              r + 1, replicaNs[r], existsUs[r]);
        }
      }
      System.out.printf(Locale.ROOT, "%nmedians of %d rounds, %,d keys:%n", rounds, keys);
      System.out.printf(Locale.ROOT, "| build here + push | %.2f s (build %.2f s, push %.3f s) | Redis busy %.3f s |%n",
          median(sum(build, push)), median(build), median(push), median(pushBusy));
      System.out.printf(Locale.ROOT, "| CF.INSERT, pipelined batches of %d | %.2f s | Redis busy %.2f s |%n",
          INSERT_BATCH, median(insert), median(insertBusy));
      System.out.printf(Locale.ROOT, "| replica mightContain | %.1f ns |%n", median(replicaNs));
      System.out.printf(Locale.ROOT, "| CF.EXISTS round trip | %.1f us |%n", median(existsUs));
    }
  }

  /**
   * @return the seconds Redis spent running commands since the last CONFIG RESETSTAT: the sum of
   *     {@code usec} over INFO commandstats (without this INFO, which is counted after it runs)
   */
  private static double busySeconds(Jedis admin) {
    long usec = 0;
    for (String line : admin.info("commandstats").split("\r?\n")) {
      int at = line.indexOf("usec=");
      if (line.startsWith("cmdstat_") && !line.startsWith("cmdstat_info:") && at >= 0) {
        usec += Long.parseLong(line.substring(at + 5, line.indexOf(',', at)));
      }
    }
    return usec / 1e6;
  }

  /** @return seconds to CF.RESERVE "inserted" and CF.INSERT every key in pipelined batches */
  private static double insertPipelined(RedisClient redis, int keys) {
    long t0 = System.nanoTime();
    redis.cfReserve("inserted", keys, CFReserveParams.reserveParams());
    CFInsertParams noCreate = CFInsertParams.insertParams().noCreate();
    AbstractPipeline p = redis.pipelined();
    String[] batch = new String[INSERT_BATCH];
    int batches = 0;
    for (int i = 0; i < keys; i += INSERT_BATCH) {
      int n = Math.min(INSERT_BATCH, keys - i);
      for (int j = 0; j < n; j++) {
        batch[j] = "key-" + (i + j);
      }
      p.cfInsert("inserted", noCreate, n == INSERT_BATCH ? batch.clone() : Arrays.copyOf(batch, n));
      if (++batches % BATCHES_PER_SYNC == 0) {
        p.sync();
      }
    }
    p.sync();
    p.close();
    return (System.nanoTime() - t0) / 1e9;
  }

  /** @return ns per lookup over 10 passes of the probes, after one pass to warm up */
  private static double replicaLookups(RedisReplica replica, String[] probes) {
    long found = 0;
    for (String p : probes) {
      found += replica.mightContain(p) ? 1 : 0;
    }
    int passes = 10;
    long t0 = System.nanoTime();
    for (int pass = 0; pass < passes; pass++) {
      for (String p : probes) {
        found += replica.mightContain(p) ? 1 : 0;
      }
    }
    long t1 = System.nanoTime();
    if (found == 42) {
      System.out.print(""); // keeps the lookups alive
    }
    return (double) (t1 - t0) / ((long) passes * probes.length);
  }

  /** @return microseconds per CF.EXISTS, one round trip at a time, after 1,000 to warm up */
  private static double existsRoundTrips(RedisClient redis, String[] probes) {
    long found = 0;
    for (int i = 0; i < 1_000; i++) {
      found += redis.cfExists("built", probes[i]) ? 1 : 0;
    }
    long t0 = System.nanoTime();
    for (int i = 0; i < EXISTS_CALLS; i++) {
      found += redis.cfExists("built", probes[i % probes.length]) ? 1 : 0;
    }
    long t1 = System.nanoTime();
    if (found == 42) {
      System.out.print("");
    }
    return (t1 - t0) / 1e3 / EXISTS_CALLS;
  }

  private static double[] sum(double[] a, double[] b) {
    double[] s = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      s[i] = a[i] + b[i];
    }
    return s;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
