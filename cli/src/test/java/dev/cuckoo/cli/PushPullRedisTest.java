package dev.cuckoo.cli;

import static dev.cuckoo.cli.CommandRun.cuckoo;
import static dev.cuckoo.cli.RedisCommandsTest.buildScalable;
import static dev.cuckoo.cli.RedisCommandsTest.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.redis.testing.RealRedis;
import dev.cuckoo.redis.testing.RedisServer;
import dev.cuckoo.scalable.RedisBloomDump;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@code push-redis} and {@code pull-redis} against a real {@code redis-server} with RedisBloom:
 * the round trip, RedisBloom answering for what was pushed, and every error as one line with
 * status 2 (an existing or missing key, a filter Redis cannot hold, a refused connection, a bad
 * URL, a password missing or wrong), never showing a password.
 */
class PushPullRedisTest {
  @RegisterExtension static final RealRedis real = RealRedis.server();

  @TempDir Path dir;
  private final UnifiedJedis redis = real.client();
  private final String url = real.redisServer().url();

  @Test
  void pushThenPullGiveBackTheFilterRedisBloomAnswersFor() throws IOException {
    Path filter = buildScalable(dir, 20_000);
    CommandRun push = cuckoo("push-redis", filter.toString(), "--url", url, "--key", "users").ok();
    assertTrue(push.out().startsWith("pushed " + filter + " to key 'users' at " + url + ": 20,000 items, "),
        push.out());
    for (int i = 0; i < 20_000; i += 97) {
      assertTrue(redis.cfExists("users", "key-" + i), "CF.EXISTS key-" + i);
    }

    Path back = dir.resolve("back.cuckoo");
    CommandRun pull = cuckoo("pull-redis", "--url", url, "--key", "users", "--output", back.toString()).ok();
    assertEquals("wrote " + back + " from key 'users' at " + url, pull.outLines().get(0));
    assertEquals(RedisBloomDump.dump(read(filter)), RedisBloomDump.dump(read(back)));
    List<String> query = new ArrayList<>(List.of("query", back.toString()));
    for (int i = 0; i < 20_000; i += 101) {
      query.add("key-" + i);
    }
    assertTrue(cuckoo(query.toArray(new String[0])).ok().outLines().stream().allMatch(l -> l.endsWith("\tyes")));
  }

  @Test
  void anExistingKeyIsReplacedOnlyWithReplace() throws IOException {
    Path filter = buildScalable(dir, 100);
    cuckoo("push-redis", filter.toString(), "--url", url, "--key", "k", "-q").ok();
    assertEquals("cuckoo: key 'k' at " + url + " already exists: give --replace to overwrite it",
        cuckoo("push-redis", filter.toString(), "--url", url, "--key", "k").error());
    redis.set("text", "x");
    cuckoo("push-redis", filter.toString(), "--url", url, "--key", "text", "--replace", "-q").ok();
    assertTrue(redis.cfExists("text", "key-7"));
  }

  @Test
  void aFilterRedisCannotHoldIsRefusedBeforeConnecting() throws IOException {
    Path keys = Files.write(dir.resolve("keys.txt"), List.of("a", "b"));
    Path classic = dir.resolve("c.cuckoo");
    cuckoo("build", "-c", "classic?capacity=10", "-i", keys.toString(), "-o", classic.toString(), "-q").ok();
    String nowhere = "redis://127.0.0.1:" + closedPort();
    assertEquals("cuckoo: " + classic + ": cannot be pushed to Redis: only filters of variant scalable have a"
        + " RedisBloom dump, not classic", cuckoo("push-redis", classic.toString(), "--url", nowhere, "--key", "c").error());
    Path xxh3 = dir.resolve("h.cuckoo");
    cuckoo("build", "-c", "scalable?capacity=10&hash=xxh3", "-i", keys.toString(), "-o", xxh3.toString(), "-q").ok();
    String error = cuckoo("push-redis", xxh3.toString(), "--url", url, "--key", "h").error();
    assertTrue(error.startsWith("cuckoo: " + xxh3 + ": cannot be pushed to Redis: a RedisBloom dump holds fingerprints"
        + " of hash murmur64a"), error);
    assertEquals(0, redis.dbSize());
  }

  @Test
  void aMissingKeyOrAnotherTypeIsNamedAndNothingIsWritten() {
    Path out = dir.resolve("out.cuckoo");
    assertEquals("cuckoo: key 'none' at " + url + " does not exist",
        cuckoo("pull-redis", "--url", url, "--key", "none", "-o", out.toString()).error());
    redis.set("text", "x");
    assertEquals("cuckoo: " + url + ": key 'text' holds a string, not a cuckoo filter (type MBbloomCF)",
        cuckoo("pull-redis", "--url", url, "--key", "text", "-o", out.toString()).error());
    assertFalse(Files.exists(out));
  }

  @Test
  void aRefusedConnectionAndABadUrlAreOneLine() throws IOException {
    Path filter = buildScalable(dir, 10);
    String nowhere = "redis://127.0.0.1:" + closedPort();
    assertEquals("cuckoo: cannot connect to " + nowhere + ": Connection refused",
        cuckoo("push-redis", filter.toString(), "--url", nowhere, "--key", "k").error());
    assertEquals("cuckoo: cannot connect to " + nowhere + ": Connection refused",
        cuckoo("pull-redis", "--url", nowhere, "--key", "k", "-o", dir.resolve("o").toString()).error());
    assertEquals("cuckoo: --url 'http://127.0.0.1:1' is not redis://HOST:PORT or rediss://HOST:PORT",
        cuckoo("push-redis", filter.toString(), "--url", "http://127.0.0.1:1", "--key", "k").error());
    assertEquals("cuckoo: --url 'redis://:***@/0' names no host: redis://HOST:PORT",
        cuckoo("push-redis", filter.toString(), "--url", "redis://:secret@/0", "--key", "k").error());
    assertEquals("cuckoo: --url '" + url + "/x': the path must be a database number, such as /0",
        cuckoo("push-redis", filter.toString(), "--url", url + "/x", "--key", "k").error());
    assertTrue(cuckoo("push-redis", filter.toString(), "--key", "k").error()
        .startsWith("cuckoo: Missing required option: '--url=URL'"));
  }

  @Test
  void thePasswordComesFromTheUrlOrRedisCliAuthAndIsNeverShown() throws IOException {
    Path filter = buildScalable(dir, 100);
    try (RedisServer locked = RedisServer.start("--requirepass", "s3cr3t")) {
      String plain = locked.url();
      String withPassword = "redis://:s3cr3t@127.0.0.1:" + locked.port();
      assertEquals("cuckoo: " + plain + " needs a password: give it in --url (redis://:PASSWORD@HOST:PORT) or in"
          + " REDISCLI_AUTH", CommandRun.withEnvironment(Map.of(), "push-redis", filter.toString(), "--url", plain,
          "--key", "k").error());
      CommandRun wrong = CommandRun.withEnvironment(Map.of(), "push-redis", filter.toString(), "--url",
          "redis://:wrong@127.0.0.1:" + locked.port(), "--key", "k");
      assertTrue(wrong.error().startsWith("cuckoo: " + plain + " refused the user or password: WRONGPASS"), wrong.err());
      assertFalse(wrong.err().contains(":wrong"), wrong.err());

      CommandRun byUrl = cuckoo("push-redis", filter.toString(), "--url", withPassword, "--key", "a").ok();
      CommandRun byEnvironment = CommandRun.withEnvironment(Map.of("REDISCLI_AUTH", "s3cr3t"), "pull-redis",
          "--url", plain, "--key", "a", "-o", dir.resolve("a.cuckoo").toString()).ok();
      assertFalse((byUrl.out() + byEnvironment.out()).contains("s3cr3t"));
      assertTrue(byUrl.out().contains(" at " + plain + ": "), byUrl.out());
    }
  }

  /** @return a loopback port nothing listens on (it was free a moment ago) */
  static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
