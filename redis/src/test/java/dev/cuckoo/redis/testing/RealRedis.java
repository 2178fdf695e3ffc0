package dev.cuckoo.redis.testing;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.UnifiedJedis;

/**
 * A real Redis with RedisBloom for one test class, started before its tests and stopped after
 * them, emptied ({@code FLUSHALL}) before each test:
 *
 * <pre>{@code
 * @RegisterExtension static final RealRedis redis = RealRedis.server();   // or RealRedis.cluster(3)
 * ... RedisFilters.push(filter, redis.client(), "users") ...
 * }</pre>
 *
 * <p>Where this machine lacks {@code redis-server} or RedisBloom ({@link
 * RedisServer#MODULE_VARIABLE}), the class is skipped, and the report says which is missing.
 */
public final class RealRedis implements ExecutionCondition, BeforeAllCallback, AfterAllCallback, BeforeEachCallback {
  private final int masters;
  private final List<AutoCloseable> open = new ArrayList<>();
  private RedisServer server;
  private RedisTestCluster cluster;
  private UnifiedJedis client;

  private RealRedis(int masters) {
    this.masters = masters;
  }

  /** @return one {@code redis-server} for the class */
  public static RealRedis server() {
    return new RealRedis(0);
  }

  /**
   * @param masters how many masters
   * @return a Redis Cluster of that many masters for the class
   */
  public static RealRedis cluster(int masters) {
    return new RealRedis(masters);
  }

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    return RedisServer.missing()
        .map(ConditionEvaluationResult::disabled)
        .orElseGet(() -> ConditionEvaluationResult.enabled("redis-server and RedisBloom are here"));
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (masters == 0) {
      server = RedisServer.start();
      client = newClient();
    } else {
      cluster = RedisTestCluster.start(masters);
      client = newClient();
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    for (RedisServer s : cluster != null ? cluster.masters() : List.of(server)) {
      try (Jedis node = s.connection()) {
        node.flushAll();
      }
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    open.clear();
    if (cluster != null) {
      cluster.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** @return the class's client: a {@code RedisClient}, or a {@code RedisClusterClient} */
  public UnifiedJedis client() {
    return client;
  }

  /** @return another client, closed after the class's tests (for writes from other threads) */
  public UnifiedJedis newClient() {
    UnifiedJedis c = cluster != null ? cluster.client() : server.client();
    open.add(c);
    return c;
  }

  /** @return the server (for one started by {@link #server()}) */
  public RedisServer redisServer() {
    if (server == null) {
      throw new IllegalStateException("a cluster has no single server: use cluster()");
    }
    return server;
  }

  /** @return the cluster (for one started by {@link #cluster(int)}) */
  public RedisTestCluster redisCluster() {
    if (cluster == null) {
      throw new IllegalStateException("not a cluster: use redisServer()");
    }
    return cluster;
  }
}
