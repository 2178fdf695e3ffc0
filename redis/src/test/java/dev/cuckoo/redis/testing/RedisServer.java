package dev.cuckoo.redis.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * A real {@code redis-server} with RedisBloom loaded, started by a test on a free loopback port
 * and stopped by it: {@code try (RedisServer redis = RedisServer.start()) { ... }}, or in
 * {@code @BeforeAll} / {@code @AfterAll}.
 *
 * <p>It needs {@code redis-server} on the {@code PATH} and the module's file in the environment
 * variable {@value #MODULE_VARIABLE} ({@code .ci/run} sets it to {@code
 * ../shared/redis/redisbloom.so}). Where either is missing, {@link #start} skips the calling test
 * (or the class, from {@code @BeforeAll}) with a JUnit assumption that names what is missing, so
 * a build on a machine with only a JDK still passes.
 */
public final class RedisServer implements AutoCloseable {
  /** The environment variable that names RedisBloom's {@code redisbloom.so}. */
  public static final String MODULE_VARIABLE = "CUCKOO_REDISBLOOM_MODULE";

  private static final long START_MILLIS = 20_000;

  private final int port;
  private final Process process;
  private final Path dir;
  /** Stops the server and deletes its folder if the test JVM ends before the test closes it. */
  private final Thread stopAtExit;

  private RedisServer(int port, Process process, Path dir) {
    this.port = port;
    this.process = process;
    this.dir = dir;
    this.stopAtExit = new Thread(this::close);
    Runtime.getRuntime().addShutdownHook(stopAtExit);
  }

  /**
   * Starts a server: {@code redis-server --port N --bind 127.0.0.1 --save '' --appendonly no
   * --loadmodule $CUCKOO_REDISBLOOM_MODULE}, then {@code extraArgs}, in a temporary folder.
   *
   * @param extraArgs more options, such as {@code "--cluster-enabled", "yes"}
   * @return the server, answering {@code PING}
   * @throws org.opentest4j.TestAbortedException if {@code redis-server} or the module is missing
   */
  public static RedisServer start(String... extraArgs) {
    Path module = requireServerAndModule();
    IllegalStateException failure = null;
    for (int attempt = 0; attempt < 5; attempt++) {
      int port = freePort(); // another process may take it before the server does: then try again
      try {
        return start(module, port, extraArgs);
      } catch (IllegalStateException e) {
        failure = e;
      }
    }
    throw failure;
  }

  /**
   * Skips the calling test, naming what is missing, unless {@code redis-server} is on the PATH
   * and {@value #MODULE_VARIABLE} names a file.
   *
   * @return the module's file
   */
  public static Path requireServerAndModule() {
    Optional<String> missing = missing();
    assumeTrue(missing.isEmpty(), missing::get);
    return Paths.get(System.getenv(MODULE_VARIABLE)).toAbsolutePath();
  }

  /** @return what the tests against a real server lack on this machine, if anything */
  static Optional<String> missing() {
    if (serverExecutable() == null) {
      return Optional.of("redis-server is not on the PATH: install it (apt-get install redis-server) to run the"
          + " tests against a real Redis");
    }
    String module = System.getenv(MODULE_VARIABLE);
    if (module == null || module.isEmpty()) {
      return Optional.of(MODULE_VARIABLE + " is not set: set it to RedisBloom's redisbloom.so (.ci/run sets it to"
          + " ../shared/redis/redisbloom.so) to run the tests against a real Redis");
    }
    if (!Files.isRegularFile(Paths.get(module))) {
      return Optional.of(MODULE_VARIABLE + "=" + module + " is not a file");
    }
    return Optional.empty();
  }

  private static Path serverExecutable() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      Path candidate = Paths.get(dir, "redis-server");
      if (!dir.isEmpty() && Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static RedisServer start(Path module, int port, String... extraArgs) {
    Path dir;
    Process process;
    try {
      dir = Files.createTempDirectory("cuckoo-redis-" + port + "-");
      List<String> command = new ArrayList<>(List.of(serverExecutable().toString(),
          "--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
          "--dir", dir.toString(), "--loadmodule", module.toString()));
      command.addAll(List.of(extraArgs));
      process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
          .redirectOutput(dir.resolve("redis.log").toFile()).start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    RedisServer server = new RedisServer(port, process, dir);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_MILLIS);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        String log = server.log();
        server.close();
        throw new IllegalStateException("redis-server on port " + port + " exited at once:\n" + log);
      }
      try (Jedis j = new Jedis(server.hostAndPort())) {
        if ("PONG".equals(j.ping())) {
          return server;
        }
      } catch (JedisConnectionException notYet) {
        // still starting
      } catch (JedisDataException answered) {
        return server; // up, and asking for a password (--requirepass)
      }
      sleep(20);
    }
    server.close();
    throw new IllegalStateException("redis-server on port " + port + " did not answer PING in " + START_MILLIS + " ms");
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** @return the port on 127.0.0.1 */
  public int port() {
    return port;
  }

  /** @return 127.0.0.1 and the port */
  public HostAndPort hostAndPort() {
    return new HostAndPort("127.0.0.1", port);
  }

  /** @return {@code redis://127.0.0.1:PORT} */
  public String url() {
    return "redis://127.0.0.1:" + port;
  }

  /** @return a new client of this server; the caller closes it */
  public RedisClient client() {
    return RedisClient.create(hostAndPort());
  }

  /** @return a new single connection to this server; the caller closes it */
  public Jedis connection() {
    return new Jedis(hostAndPort());
  }

  /** @return what the server has logged */
  public String log() {
    try {
      return Files.readString(dir.resolve("redis.log"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /** Stops the server (the process this object started, and nothing else) and deletes its folder. */
  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(stopAtExit);
    } catch (IllegalStateException exiting) {
      // the hook runs anyway
    }
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // a temporary folder is left behind
    }
  }
}
