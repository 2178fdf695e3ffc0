package dev.cuckoo.cli;

import static dev.cuckoo.cli.CommandRun.cuckoo;
import static dev.cuckoo.cli.RedisCommandsTest.buildScalable;
import static dev.cuckoo.cli.RedisCommandsTest.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.redis.testing.RealRedis;
import dev.cuckoo.scalable.RedisBloomDump;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code push-redis} and {@code pull-redis} given one node of a real three-master Redis Cluster:
 * the command sees it is a cluster and reaches keys on every master.
 */
class PushPullRedisClusterTest {
  @RegisterExtension static final RealRedis real = RealRedis.cluster(3);

  @TempDir Path dir;

  @Test
  void oneNodesUrlReachesKeysOnEveryMaster() throws Exception {
    Path filter = buildScalable(dir, 5_000);
    String url = real.redisCluster().masters().get(0).url();
    for (String key : new String[] {"alpha", "bravo", "charlie", "delta", "echo"}) {
      cuckoo("push-redis", filter.toString(), "--url", url, "--key", key, "-q").ok();
      Path back = dir.resolve(key + ".cuckoo");
      cuckoo("pull-redis", "--url", url, "--key", key, "-o", back.toString(), "-q").ok();
      assertEquals(RedisBloomDump.dump(read(filter)), RedisBloomDump.dump(read(back)), key);
    }
    assertTrue(real.redisCluster().masters().stream().allMatch(m -> {
      try (var node = m.connection()) {
        return node.dbSize() > 0;
      }
    }), "every master holds a key");
    assertEquals("cuckoo: " + url + "/1 is a Redis Cluster node, and a cluster has database 0 only: drop /1 from --url",
        cuckoo("push-redis", filter.toString(), "--url", url + "/1", "--key", "x").error());
  }
}
