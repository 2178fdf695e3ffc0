package dev.cuckoo.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.function.Function;
import picocli.CommandLine.Option;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A key on a Redis server or cluster, as {@code push-redis} and {@code pull-redis} name it:
 * {@code --url redis://[[user]:password@]host[:port][/db]} ({@code rediss://} for TLS) and
 * {@code --key}. The password is the URL's, or else the environment's {@value #PASSWORD_VARIABLE},
 * as for {@code redis-cli}. A server that says {@code cluster_enabled:1} is used as a cluster,
 * through its nodes. Every failure is a one-line {@link CommandError} naming the server, never
 * its password.
 */
final class RedisTarget {
  /** The environment variable {@code redis-cli} reads a password from. */
  static final String PASSWORD_VARIABLE = "REDISCLI_AUTH";

  /**
   * The socket timeout: a chunk is up to 16 MiB, and a pull of a key under writes waits for a
   * script that copies the key server side (about a second per GB).
   */
  private static final int SOCKET_TIMEOUT_MILLIS = 120_000;

  @Option(names = "--url", required = true, paramLabel = "URL",
      description = "The server: redis://[[USER]:PASSWORD@]HOST[:PORT][/DB], or rediss://... for TLS "
          + "(the JVM's trust store: JAVA_OPTS=-Djavax.net.ssl.trustStore=...). Without a password in "
          + "the URL, the environment's " + PASSWORD_VARIABLE + " is used, as by redis-cli. A node of a "
          + "Redis Cluster stands for the whole cluster.")
  String url;

  @Option(names = "--key", required = true, paramLabel = "KEY", description = "The Redis key of the filter.")
  String key;

  private String where;

  /**
   * Connects, as a cluster client if the server is a cluster node.
   *
   * @param environment the environment, for {@value #PASSWORD_VARIABLE}
   * @return the client; close it
   * @throws CommandError if the URL is bad or the server cannot be reached or refuses us
   */
  UnifiedJedis connect(Function<String, String> environment) {
    URI uri = parse();
    boolean tls = uri.getScheme().equals("rediss");
    String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1) : uri.getHost();
    HostAndPort node = new HostAndPort(host, uri.getPort() < 0 ? 6379 : uri.getPort());
    String user = null;
    String password = null;
    if (uri.getUserInfo() != null) {
      int colon = uri.getUserInfo().indexOf(':');
      user = colon < 0 ? uri.getUserInfo() : uri.getUserInfo().substring(0, colon);
      password = colon < 0 ? null : uri.getUserInfo().substring(colon + 1);
      user = user.isEmpty() ? null : user;
    }
    if (password == null) {
      password = environment.apply(PASSWORD_VARIABLE);
    }
    int database = database(uri);
    where = uri.getScheme() + "://" + (user != null ? user + "@" : "") + uri.getHost() + ":" + node.getPort()
        + (database != 0 ? "/" + database : "");
    DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
        .user(user)
        .password(password)
        .clientName("cuckoo")
        .socketTimeoutMillis(SOCKET_TIMEOUT_MILLIS);
    if (tls) {
      config.sslOptions(SslOptions.defaults()); // the JVM's trust store, and the host name checked
    }
    if (!isClusterNode(node, config.build())) {
      return RedisClient.builder().hostAndPort(node).clientConfig(config.database(database).build()).build();
    }
    if (database != 0) {
      throw new CommandError(where + " is a Redis Cluster node, and a cluster has database 0 only: drop /"
          + database + " from --url");
    }
    try {
      return RedisClusterClient.builder().nodes(java.util.Set.of(node)).clientConfig(config.build()).build();
    } catch (JedisException e) {
      throw failure(e);
    }
  }

  /** @return whether the server says {@code cluster_enabled:1} ({@code INFO cluster}) */
  private boolean isClusterNode(HostAndPort node, JedisClientConfig config) {
    try (RedisClient probe = RedisClient.builder().hostAndPort(node).clientConfig(config).build()) {
      return probe.info("cluster").contains("cluster_enabled:1");
    } catch (JedisDataException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("NOPERM")) {
        return false; // a user whose ACL denies INFO: taken for a single server
      }
      throw failure(e);
    } catch (JedisException e) {
      throw failure(e);
    }
  }

  private URI parse() {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new CommandError("--url '" + url + "' is not a URL: " + e.getMessage());
    }
    if (!"redis".equals(uri.getScheme()) && !"rediss".equals(uri.getScheme())) {
      throw new CommandError("--url '" + redacted() + "' is not redis://HOST:PORT or rediss://HOST:PORT");
    }
    if (uri.getHost() == null) {
      throw new CommandError("--url '" + redacted() + "' names no host: redis://HOST:PORT");
    }
    return uri;
  }

  /** @return the URL without the password it may hold */
  private String redacted() {
    return url.replaceFirst("(://[^/@]*?:)[^/@]*@", "$1***@");
  }

  private int database(URI uri) {
    String path = uri.getPath() == null ? "" : uri.getPath();
    if (path.isEmpty() || path.equals("/")) {
      return 0;
    }
    try {
      int db = Integer.parseInt(path.substring(1));
      if (db >= 0) {
        return db;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new CommandError("--url '" + redacted() + "': the path must be a database number, such as /0");
  }

  /** @return the server, for messages: the URL without its password */
  String where() {
    return where;
  }

  /** @return where the key is, for messages: the key and the URL without its password */
  String describe() {
    return "key '" + key + "' at " + where;
  }

  /**
   * @param e what Jedis threw
   * @return the one-line error: the server, and what went wrong there
   */
  CommandError failure(JedisException e) {
    if (e instanceof JedisConnectionException) {
      // Jedis says "Failed to connect to HOST:PORT." and keeps the reason (such as "Connection
      // refused") as the cause or, when it tried several addresses, a suppressed exception.
      Throwable root = e;
      for (Throwable next = e; next != null;
          next = next.getCause() != null ? next.getCause() : next.getSuppressed().length > 0 ? next.getSuppressed()[0] : null) {
        root = next;
      }
      String why = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
      return new CommandError("cannot connect to " + where + ": " + why, e);
    }
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (e instanceof JedisDataException && message.contains("unknown command") && message.contains("CF.")) {
      return new CommandError(where + " has no CF.* commands: it needs Redis 8, Redis Stack or the RedisBloom"
          + " module (" + message + ")", e);
    }
    if (message.startsWith("NOAUTH")) {
      return new CommandError(where + " needs a password: give it in --url (redis://:PASSWORD@HOST:PORT) or in "
          + PASSWORD_VARIABLE, e);
    }
    if (e instanceof JedisAccessControlException || message.startsWith("WRONGPASS")) {
      return new CommandError(where + " refused the user or password: " + message, e);
    }
    return new CommandError(where + ": " + message, e);
  }
}
