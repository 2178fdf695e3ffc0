package dev.cuckoo.redis;

import java.util.function.Function;
import redis.clients.jedis.AbstractTransaction;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * One connection of its own to the server (or cluster node) that holds a key, for commands that
 * must share a connection: {@code WATCH key}, reads, and an empty {@code MULTI}/{@code EXEC}
 * that tells whether anything wrote the key in between [1]. Commands run at once, not queued.
 *
 * <p>[1] https://redis.io/docs/latest/develop/interact/transactions/ : "if at least one watched
 * key is modified before the EXEC command, the whole transaction aborts, and EXEC returns a Null
 * reply". Every write counts, module commands such as {@code CF.ADD} too (they close the key
 * opened for writing, which signals it as modified), and so do a delete, an expiry and a
 * {@code FLUSHALL}.
 */
final class KeyConnection implements AutoCloseable {
  private final AbstractTransaction connection;
  private final boolean watching;

  private KeyConnection(AbstractTransaction connection, boolean watching) {
    this.connection = connection;
    this.watching = watching;
  }

  /**
   * @param redis any Jedis client with a pool of connections
   * @param key the key whose node to connect to
   * @param watch whether to {@code WATCH} the key first
   * @return the connection; close it
   */
  static KeyConnection open(UnifiedJedis redis, String key, boolean watch) {
    AbstractTransaction connection = redis instanceof RedisClusterClient cluster
        ? new Transaction(cluster.getConnectionFromSlot(JedisClusterCRC16.getSlot(key)), false, true)
        : clusterConnection(redis, key);
    if (connection == null) {
      // A client of one server (or of a sentinel's master): a pooled connection of its own.
      connection = redis.transaction(false);
    }
    if (watch) {
      connection.watch(key);
    }
    return new KeyConnection(connection, watch);
  }

  /** @return a connection from the deprecated JedisCluster, or null for any other client */
  @SuppressWarnings("deprecation")
  private static AbstractTransaction clusterConnection(UnifiedJedis redis, String key) {
    if (redis instanceof redis.clients.jedis.JedisCluster cluster) {
      return new Transaction(cluster
          .getConnectionFromSlot(JedisClusterCRC16.getSlot(key)), false, true);
    }
    return null;
  }

  /** Runs a command now and returns its reply. */
  <T> T run(Function<AbstractTransaction, Response<T>> command) {
    return command.apply(connection).get();
  }

  /**
   * Ends the watch: {@code MULTI}, then {@code EXEC} with nothing queued.
   *
   * @return whether nothing wrote the key since the watch began (always true when not watching)
   */
  boolean unchanged() {
    if (!watching) {
      return true;
    }
    connection.multi();
    return connection.exec() != null;
  }

  @Override
  public void close() {
    connection.close();
  }
}
