package dev.cuckoo.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine;

/**
 * One run of the {@code cuckoo} command through its entry point, {@link
 * CuckooCommand#commandLine}, with standard output and error captured.
 *
 * @param status the exit status
 * @param out what it printed on standard output
 * @param err what it printed on standard error
 */
record CommandRun(int status, String out, String err) {

  /** Runs {@code cuckoo ARGS} with an empty standard input. */
  static CommandRun cuckoo(String... args) {
    return withStdin(new byte[0], args);
  }

  /** Runs {@code cuckoo ARGS} with {@code stdin} as standard input. */
  static CommandRun withStdin(byte[] stdin, String... args) {
    return run(stdin, System::getenv, args);
  }

  /** Runs {@code cuckoo ARGS} with these environment variables and no others. */
  static CommandRun withEnvironment(Map<String, String> environment, String... args) {
    return run(new byte[0], environment::get, args);
  }

  private static CommandRun run(byte[] stdin, Function<String, String> environment, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = CuckooCommand.commandLine(new ByteArrayInputStream(stdin), new PrintWriter(out, true),
        new PrintWriter(err, true));
    ((CuckooCommand) cl.getCommand()).environment = environment;
    int status = cl.execute(args);
    return new CommandRun(status, out.toString(), err.toString());
  }

  /** @return standard output's lines */
  List<String> outLines() {
    return out.isEmpty() ? List.of() : Arrays.asList(out.split("\n"));
  }

  /** Checks exit status 0 and nothing on standard error. */
  CommandRun ok() {
    assertEquals("", err, "stderr of a run that should succeed");
    assertEquals(CuckooCommand.EXIT_OK, status, "exit status; stdout: " + out);
    return this;
  }

  /**
   * Checks that the run failed as an error must: status 2, nothing on stdout, and one line on
   * stderr, {@code cuckoo: ...}, without a stack trace.
   *
   * @return the line
   */
  String error() {
    assertEquals(CuckooCommand.EXIT_ERROR, status, "exit status; stderr: " + err);
    assertEquals("", out, "stdout of a failed run");
    assertTrue(err.startsWith("cuckoo: "), err);
    assertTrue(err.endsWith("\n"), err);
    assertEquals(1, err.split("\n").length, "one line: " + err);
    assertFalse(err.contains("\tat "), "no stack trace: " + err);
    return err.strip();
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
