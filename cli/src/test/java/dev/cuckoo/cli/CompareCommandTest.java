package dev.cuckoo.cli;

import static dev.cuckoo.cli.CommandRun.cuckoo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cuckoo compare} runs the benchmarks jar it finds; a jar that is not there is one error
 * line, not a stack trace. (A real run, in a process of its own, is in {@code CuckooJarIT}.)
 */
class CompareCommandTest {

  @Test
  void aNamedJarThatIsNotThereIsOneErrorLine(@TempDir Path dir) {
    String missing = dir.resolve("benchmarks.jar").toString();
    String before = System.setProperty(CompareCommand.JAR_PROPERTY, missing);
    CommandRun run;
    try {
      run = cuckoo("compare", "--size", "1k");
    } finally {
      if (before == null) {
        System.clearProperty(CompareCommand.JAR_PROPERTY);
      } else {
        System.setProperty(CompareCommand.JAR_PROPERTY, before);
      }
    }
    assertEquals(CuckooCommand.EXIT_ERROR, run.status());
    assertEquals("cuckoo: compare: cuckoo.benchmarks.jar=" + missing + " is not a file\n", run.err());
  }
}
