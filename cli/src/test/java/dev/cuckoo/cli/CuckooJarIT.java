package dev.cuckoo.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.redis.testing.RedisServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged {@code target/cuckoo.jar}, run as users run it, {@code java -jar cuckoo.jar ...}
 * in a process of its own: its manifest, its merged service files (every variant and hash still
 * installed), real exit statuses, {@code compare} running the benchmarks jar beside it, and the
 * Redis commands with no logger noise and over TLS (against a real server, where there is one).
 * Run by failsafe after {@code package}.
 */
class CuckooJarIT {
  static final Path JAR = Paths.get(System.getProperty("cuckoo.jar", "target/cuckoo.jar")).toAbsolutePath();

  @TempDir Path dir;

  /** The result of one process. */
  record Result(int status, String out, String err) {}

  private Result java(String... args) throws IOException, InterruptedException {
    return java(List.of(), args);
  }

  /** Runs {@code java OPTIONS -jar cuckoo.jar ARGS}. */
  private Result java(List<String> jvmOptions, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(jvmOptions);
    command.addAll(List.of("-jar", JAR.toString()));
    command.addAll(List.of(args));
    Path out = dir.resolve("stdout");
    Path err = dir.resolve("stderr");
    Process p = new ProcessBuilder(command).directory(dir.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    p.getOutputStream().close(); // an empty standard input
    assertTrue(p.waitFor(5, TimeUnit.MINUTES), "cuckoo " + String.join(" ", args) + " did not finish");
    return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test
  void theJarInstallsEveryVariantAndHash() throws Exception {
    Result r = java("--version");
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().contains("\nvariants: " + String.join(", ", CuckooFilters.variants()) + "\n"), r.out());
    assertTrue(r.out().contains("\nhashes: " + String.join(", ", CuckooFilters.hashes()) + "\n"), r.out());
  }

  @Test
  void buildQueryInfoWithRealExitStatuses() throws Exception {
    Files.write(dir.resolve("keys.txt"), IntStream.range(0, 10_000).mapToObj(i -> "k" + i).collect(Collectors.toList()));
    for (String variant : CuckooFilters.variants()) {
      String file = variant + ".cuckoo";
      Result build = java("build", "--config", variant + "?capacity=10000", "--input", "keys.txt", "--output", file);
      assertEquals(0, build.status(), build.err());
      assertTrue(build.out().startsWith("wrote " + file + ": 10,000 keys from keys.txt in "), build.out());
      assertEquals("", build.err(), "no progress bar without a terminal");

      Result present = java("query", file, "k0", "k9999");
      assertEquals(new Result(0, "k0\tyes\nk9999\tyes\n", ""), present);
      Result absent = java("query", file, "k0", "nobody-at-all");
      assertEquals(1, absent.status());
      assertTrue(absent.out().startsWith("k0\tyes\n"), absent.out());

      Result info = java("info", file);
      assertEquals(0, info.status(), info.err());
      assertTrue(info.out().contains("\nitems         10,000\n"), info.out());
    }
    Result missing = java("info", "missing.cuckoo");
    assertEquals(new Result(2, "", "cuckoo: missing.cuckoo: no such file\n"), missing);
  }

  @Test
  void redisCommandsReportOnOneLineWithNoLoggerNoise() throws Exception {
    // Jedis logs through SLF4J, which warns on stderr once when no binding is on the class path:
    // the jar carries slf4j-nop, so a failure is the command's one line and nothing else.
    Files.write(dir.resolve("keys.txt"), List.of("a", "b"));
    assertEquals(0, java("build", "--config", "scalable?capacity=100", "--input", "keys.txt", "--output", "s.cuckoo",
        "--quiet").status());
    String nowhere = "redis://127.0.0.1:" + PushPullRedisTest.closedPort();
    assertEquals(new Result(2, "", "cuckoo: cannot connect to " + nowhere + ": Connection refused\n"),
        java("push-redis", "s.cuckoo", "--url", nowhere, "--key", "k"));
    assertEquals(new Result(2, "", "cuckoo: cannot connect to " + nowhere + ": Connection refused\n"),
        java("pull-redis", "--url", nowhere, "--key", "k", "--output", "back.cuckoo"));
  }

  @Test
  // The TLS server only has to run while the commands talk to it: its resource is never read.
  @SuppressWarnings("try")
  void pushAndPullOverTlsTrustingTheJvmsTrustStore() throws Exception {
    // A real server with TLS on, its certificate made here (openssl) and trusted through the
    // JVM's trust store option, as a user would pass it in JAVA_OPTS.
    RedisServer.requireServerAndModule();
    assumeTrue(new ProcessBuilder("openssl", "version").start().waitFor() == 0, "openssl is not on the PATH");
    Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem",
        "-out", "cert.pem", "-subj", "/CN=localhost", "-days", "1", "-addext", "subjectAltName=IP:127.0.0.1")
        .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("openssl.log").toFile()).start();
    assertEquals(0, openssl.waitFor(), Files.readString(dir.resolve("openssl.log")));
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    try (InputStream cert = Files.newInputStream(dir.resolve("cert.pem"))) {
      trust.setCertificateEntry("redis", CertificateFactory.getInstance("X.509").generateCertificate(cert));
    }
    try (OutputStream out = Files.newOutputStream(dir.resolve("trust.p12"))) {
      trust.store(out, "changeit".toCharArray());
    }
    List<String> trusting = List.of("-Djavax.net.ssl.trustStore=" + dir.resolve("trust.p12"),
        "-Djavax.net.ssl.trustStorePassword=changeit");
    int tlsPort = PushPullRedisTest.closedPort();
    try (RedisServer server = RedisServer.start("--tls-port", Integer.toString(tlsPort), "--tls-cert-file",
        dir.resolve("cert.pem").toString(), "--tls-key-file", dir.resolve("key.pem").toString(), "--tls-auth-clients", "no")) {
      Files.write(dir.resolve("keys.txt"), List.of("a", "b"));
      assertEquals(0, java("build", "--config", "scalable?capacity=100", "--input", "keys.txt", "--output", "s.cuckoo",
          "--quiet").status());
      String url = "rediss://127.0.0.1:" + tlsPort;
      Result push = java(trusting, "push-redis", "s.cuckoo", "--url", url, "--key", "k");
      assertEquals(0, push.status(), push.err());
      assertTrue(push.out().startsWith("pushed s.cuckoo to key 'k' at " + url + ": 2 items"), push.out());
      assertEquals(new Result(0, "", ""), java(trusting, "pull-redis", "--url", url, "--key", "k", "-o", "k.cuckoo", "-q"));
      assertEquals(new Result(2, "", "cuckoo: cannot connect to " + url + ": unable to find valid certification path to"
          + " requested target\n"), java("pull-redis", "--url", url, "--key", "k", "-o", "k.cuckoo"));
    }
  }

  @Test
  void compareRunsTheBenchmarksJarBesideIt() throws Exception {
    // The reactor builds benchmarks before cli (the module order), and cuckoo.jar finds its jar
    // in the repository; a build of cli alone (-pl cli -am) has none to run.
    Path benchmarks = JAR.getParent().getParent().getParent().resolve(CompareCommand.JAR_IN_REPOSITORY);
    assumeTrue(Files.isRegularFile(benchmarks), "not built: " + benchmarks);
    String variant = CuckooFilters.variants().iterator().next();
    String config = CuckooFilters.variant(variant).representativeConfigs().get(0);
    Result r = java("compare", "--size", "1k", "--rounds", "1", "--configs", config, "--peers", "off", "--out", "results");
    assertEquals(0, r.status(), r.err().lines().filter(l -> !l.startsWith("[")).collect(Collectors.joining("\n")));
    assertTrue(r.out().contains(config), r.out());
    assertTrue(Files.isRegularFile(dir.resolve("results/results.csv")));

    Result bad = java("compare", "--size", "nope");
    assertEquals(2, bad.status(), "compare's own status comes back");
    assertTrue(bad.err().startsWith("compare: --size takes a number of keys"), bad.err());
  }
}
