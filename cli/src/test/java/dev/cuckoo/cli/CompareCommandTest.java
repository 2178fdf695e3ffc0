package dev.cuckoo.cli;

import static dev.cuckoo.cli.CommandRun.cuckoo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

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
  void mistakesAreCompareOwnWithStatusTwo() {
    String err = compareErr(2, "--size", "lots");
    assertTrue(err.startsWith("compare: --size takes a number of keys such as 500k or 10M, not lots\n"), err);
    assertTrue(compareErr(2, "--configs", "classic?fingerprintBits=99").startsWith("compare: "));
  }
}
