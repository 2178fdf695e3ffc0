package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What {@code ./cuckoo} and {@code ./compare} build on first use, {@code .mvn/quick-build}: the
 * root pom's {@code quick} profile builds the command's jar under {@code target/quick}, apart from
 * the verify build's classes, without Error Prone, tests or Javadoc, and the jar runs. The build
 * itself runs here (offline, from the local repository the verify build filled).
 */
class QuickBuildTest {
  private static final Path ROOT = Paths.get("").toAbsolutePath().getParent();

  @Test
  void bothScriptsBuildThroughTheQuickBuild() throws IOException {
    for (String script : List.of("cuckoo", "compare")) {
      String text = Files.readString(ROOT.resolve(script));
      assertTrue(text.contains(".mvn/quick-build"), script);
      assertFalse(text.contains("mvnw"), script + " builds only through .mvn/quick-build");
    }
    String build = Files.readString(ROOT.resolve(".mvn/quick-build"));
    assertTrue(build.contains("-Pquick") && !build.contains(" -q "), "the quick profile, with Maven's progress shown");
  }

  @Test
  void theQuickProfileBuildsARunnableJarApartWithoutTheDevelopmentChecks() throws Exception {
    Path log = Files.createTempFile("quick-build", ".log");
    try {
      Process maven = new ProcessBuilder(ROOT.resolve("mvnw").toString(), "-B", "-o", "-ntp", "-Pquick", "package",
          "-pl", "cli", "-am", "-X")
          .directory(ROOT.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      assertTrue(maven.waitFor(10, TimeUnit.MINUTES), "the quick build ends");
      String output = Files.readString(log, StandardCharsets.UTF_8);
      assertEquals(0, maven.exitValue(), () -> tail(output));
      assertFalse(output.contains("-Xplugin:ErrorProne"), "no Error Prone in the quick build");
      assertTrue(output.contains("-XDstringConcat=inline"), "the same bytecode as the verify build");
      assertTrue(output.contains("Tests are skipped") || output.contains("Not compiling test sources"),
          "no tests compiled");

      Path jar = ROOT.resolve("cli/target/quick/cuckoo.jar");
      assertTrue(Files.isRegularFile(jar), "built under target/quick, apart from target/classes");
      Process run = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
          jar.toString(), "--version").redirectErrorStream(true).start();
      String version = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(run.waitFor(1, TimeUnit.MINUTES));
      assertEquals(0, run.exitValue(), version);
      assertTrue(version.contains("variants: classic, expandable, scalable, semi-sorted"), version);
    } finally {
      Files.deleteIfExists(log);
    }
  }

  private static String tail(String text) {
    return text.substring(Math.max(0, text.length() - 4000));
  }
}
