package dev.cuckoo.cli;

import static dev.cuckoo.cli.CommandRun.cuckoo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cuckoo compare} hands its arguments, options and all, to the harness's {@code Compare}
 * and exits with its status. (A real run, which forks workers, is in {@code CuckooJarIT}.)
 */
class CompareCommandTest {

  /** Runs {@code cuckoo compare ARGS}, capturing what Compare prints on System.err. */
  private static String compareErr(int expectedStatus, String... args) {
    PrintStream before = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      String[] all = new String[args.length + 1];
      all[0] = "compare";
      System.arraycopy(args, 0, all, 1, args.length);
      assertEquals(expectedStatus, cuckoo(all).status());
    } finally {
      System.setErr(before);
    }
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void helpIsCompareOwn() {
    assertTrue(compareErr(0, "--help").startsWith("usage: compare [options]\n"));
  }

  @Test
  void resultsThatCannotBeWrittenAreOneErrorLine(@TempDir Path dir) throws IOException {
    Path file = Files.write(dir.resolve("not-a-folder"), new byte[0]);
    PrintStream out = System.out;
    PrintStream err = System.err;
    System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    CommandRun run;
    try {
      run = cuckoo("compare", "--size", "1k", "--rounds", "1", "--in-process", "--peers", "off",
          "--only", "^classic\\?fingerprintBits=8$", "--out", file.resolve("out").toString());
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    assertEquals(CuckooCommand.EXIT_ERROR, run.status());
    assertTrue(run.err().startsWith("cuckoo: compare: "), run.err());
  }

  @Test
  void mistakesAreCompareOwnWithStatusTwo() {
    String err = compareErr(2, "--size", "lots");
    assertTrue(err.startsWith("compare: --size takes a number of keys such as 500k or 10M, not lots\n"), err);
    assertTrue(compareErr(2, "--configs", "classic?fingerprintBits=99").startsWith("compare: "));
  }
}
