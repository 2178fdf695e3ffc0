package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.redis.testing.RedisServer;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's application as a named module: {@code src/test/named-app} ({@code module app {
 * requires dev.cuckoo; }}) and {@code src/test/named-redis-app} ({@code module redisapp {
 * requires dev.cuckoo.redis; }}) are compiled against the library's modules and run with {@code
 * java -p ... -m app/app.Main}, nothing else on the command line. Every variant with its default
 * hash and every hash must work there, and so must a filter's trip to a real Redis and back: a
 * module the library or its dependencies need at run time (such as {@code jdk.unsupported}, which
 * zero-allocation-hashing uses, or Jedis's commons-pool2) must be required by the library's own
 * module descriptors, not by an {@code --add-modules} the user has to know about.
 */
class NamedApplicationTest {

  @Test
  void anApplicationModuleUsesEveryVariantAndHash(@TempDir Path out) throws IOException, InterruptedException {
    String output = compileAndRun("named-app", "app/app.Main", new CuckooModulePath().modulePath(), out);
    assertTrue(output.contains("module=app\n"), output);
    assertTrue(output.contains("variants=" + String.join(",", CuckooFilters.variants()) + "\n"), output);
    // This JVM also sees the hashes the guide's examples register; the application sees the
    // library's.
    String libraryHashes = CuckooFilters.hashes().stream()
        .filter(h -> CuckooFilters.hash(h).getClass().getName().startsWith("dev.cuckoo.hashing."))
        .collect(Collectors.joining(","));
    assertTrue(output.contains("hashes=" + libraryHashes + "\n"), output);
  }

  /** Skipped, saying what is missing, where redis-server or RedisBloom is not on this machine. */
  @Test
  void anApplicationModulePushesAndPullsAFilterThroughARealRedis(@TempDir Path out)
      throws IOException, InterruptedException {
    pushAndPull(out, new CuckooModulePath().slf4j);
  }

  /**
   * An application that logs through SLF4J 2 has its {@code slf4j-api} resolved instead of 1.7's,
   * and that one is a named module: Jedis, an automatic module, reads it only if a module
   * requires it.
   */
  @Test
  void anApplicationModuleThatLogsThroughSlf4j2AlsoReachesRedis(@TempDir Path out)
      throws IOException, InterruptedException {
    // The docs pom copies slf4j-api and slf4j-nop 2.x there.
    Path folder = Paths.get(System.getProperty("basedir", "."), "target", "slf4j-2");
    List<String> slf4j2;
    try (Stream<Path> jars = Files.list(folder)) {
      slf4j2 = jars.map(Path::toString).sorted().collect(Collectors.toList());
    }
    assertEquals(2, slf4j2.size(), "slf4j-api and slf4j-nop 2.x in " + folder + ": " + slf4j2);
    pushAndPull(out, slf4j2);
  }

  /** Runs the application of {@code src/test/named-redis-app} against a real Redis. */
  private static void pushAndPull(Path out, List<String> logging) throws IOException, InterruptedException {
    try (RedisServer redis = RedisServer.start()) {
      String output = compileAndRun("named-redis-app", "redisapp/redisapp.Main",
          new CuckooModulePath().redisModulePath(logging), out, redis.url());
      assertTrue(output.contains("module=redisapp\n"), output);
      assertTrue(output.contains("redis-module=dev.cuckoo.redis\n"), output);
      assertTrue(output.contains("pulled=1001\n"), output);
      assertTrue(output.contains("jedis-dependencies=org.apache.commons.pool2,com.google.gson,org.json\n"), output);
      // The guide's advice: with an SLF4J binding beside Jedis, nothing about logging is printed.
      assertFalse(output.contains("SLF4J"), output);
    }
  }

  /**
   * Compiles the application under {@code src/test/<app>} against the module path and runs it
   * with {@code java -p <module path>:<app> -m <main> <args>}.
   *
   * @return what the application printed, once it exited with status 0
   */
  private static String compileAndRun(String app, String main, String modulePath, Path out, String... args)
      throws IOException, InterruptedException {
    Path sources = Paths.get(System.getProperty("basedir", "."), "src", "test", app);
    List<String> files;
    try (Stream<Path> walk = Files.walk(sources)) {
      files = walk.filter(p -> p.toString().endsWith(".java")).map(Path::toString).collect(Collectors.toList());
    }
    List<String> javac = new ArrayList<>(List.of("-p", modulePath, "-d", out.toString()));
    javac.addAll(files);
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int compiled = ToolProvider.getSystemJavaCompiler().run(null, errors, errors, javac.toArray(new String[0]));
    assertEquals(0, compiled, "javac " + javac + ":\n" + errors.toString(StandardCharsets.UTF_8));

    List<String> command = new ArrayList<>(List.of(CuckooModulePath.java(),
        "-p", modulePath + File.pathSeparator + out,
        "-m", main));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the application did not finish");
    assertEquals(0, p.exitValue(), "the application failed:\n" + output + "\ncommand: " + command);
    return output;
  }
}
