package dev.cuckoo.redis.testing;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClusterClient;

/**
 * A real Redis Cluster of masters on loopback ports, each a {@link RedisServer} with RedisBloom
 * and {@code --cluster-enabled yes}: the hash slots are split evenly between them ({@code
 * CLUSTER ADDSLOTSRANGE}), they meet ({@code CLUSTER MEET}), and {@link #start} returns once
 * every node says {@code cluster_state:ok}. Skips the calling test as {@link RedisServer#start}
 * does when {@code redis-server} or the module is missing.
 */
public final class RedisTestCluster implements AutoCloseable {
  private static final int SLOTS = 16384;
  private static final long CONVERGE_MILLIS = 30_000;

  private final List<RedisServer> masters;

  private RedisTestCluster(List<RedisServer> masters) {
    this.masters = masters;
  }

  /**
   * @param count how many masters, at least 1
   * @return the cluster, every node in state ok
   */
  public static RedisTestCluster start(int count) {
    RedisServer.requireServerAndModule();
    List<RedisServer> masters = new ArrayList<>();
    RedisTestCluster cluster = new RedisTestCluster(masters);
    try {
      for (int i = 0; i < count; i++) {
        masters.add(RedisServer.start("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", "5000"));
      }
      for (int i = 0; i < count; i++) {
        try (Jedis node = masters.get(i).connection()) {
          node.clusterAddSlotsRange(SLOTS * i / count, SLOTS * (i + 1) / count - 1);
          if (i > 0) {
            node.clusterMeet("127.0.0.1", masters.get(0).port());
          }
        }
      }
      cluster.awaitOk();
      return cluster;
    } catch (RuntimeException | Error e) {
      cluster.close();
      throw e;
    }
  }

  private void awaitOk() {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CONVERGE_MILLIS);
    String info = "";
    while (System.nanoTime() < deadline) {
      boolean ok = true;
      for (RedisServer m : masters) {
        try (Jedis node = m.connection()) {
          info = node.clusterInfo();
          ok &= info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:" + masters.size() + "\r");
        }
      }
      if (ok) {
        return;
      }
      RedisServer.sleep(50);
    }
    throw new IllegalStateException("the cluster did not reach state ok in " + CONVERGE_MILLIS + " ms: " + info);
  }

  /** @return the masters' addresses */
  public Set<HostAndPort> nodes() {
    Set<HostAndPort> nodes = new LinkedHashSet<>();
    masters.forEach(m -> nodes.add(m.hostAndPort()));
    return nodes;
  }

  /** @return the masters */
  public List<RedisServer> masters() {
    return List.copyOf(masters);
  }

  /** @return a new cluster client; the caller closes it */
  public RedisClusterClient client() {
    return RedisClusterClient.create(nodes());
  }

  /** Stops every node. */
  @Override
  public void close() {
    masters.forEach(RedisServer::close);
  }
}
