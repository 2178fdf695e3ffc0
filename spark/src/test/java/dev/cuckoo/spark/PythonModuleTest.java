package dev.cuckoo.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PySpark module under {@code python/cuckoo_spark} and the guide's Python block, where a
 * {@code python3} runs: both compile with warnings as errors, the module imports no name it does
 * not use, each wrapper calls the SQL function it names with the arguments it should, {@code
 * configure} keeps the extensions a builder holds, the functions that reach the JVM make the py4j
 * calls they should (and {@code remove} closes the file it opened), and over Spark Connect they
 * refuse, saying what to do instead; checked against a stand-in for {@code pyspark} ({@code
 * src/test/python/stubs}), since pyspark itself cannot be installed here. Skipped, saying so,
 * where no {@code python3} runs.
 */
class PythonModuleTest {
  private static final Path ROOT = Paths.get("").toAbsolutePath().getParent();
  private static final List<String> PYTHONS = List.of("python3", "/usr/bin/python3");

  @TempDir Path dir;

  @Test
  void theModuleAndTheGuidesExampleCompileAndCallTheFunctions() throws IOException, InterruptedException {
    Optional<String> python = PYTHONS.stream().filter(PythonModuleTest::runs).findFirst();
    assumeTrue(python.isPresent(), "no python3 runs here (tried " + PYTHONS + "): python/cuckoo_spark is not checked");
    Path block = dir.resolve("guide-block.py");
    Files.write(block, SparkGuideExample.guideBlock("python"), StandardCharsets.UTF_8);
    ProcessBuilder pb = new ProcessBuilder(python.get(), "-B", "src/test/python/check_cuckoo_spark.py",
        ROOT.resolve("python").toString(), block.toString()).redirectErrorStream(true);
    pb.environment().put("PYTHONPATH", Paths.get("src/test/python/stubs").toAbsolutePath().toString());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "python did not finish");
    assertEquals(0, p.exitValue(), out);
    assertEquals("ok", out.strip());
  }

  private static boolean runs(String python) {
    try {
      Process p = new ProcessBuilder(python, "-c", "pass").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
