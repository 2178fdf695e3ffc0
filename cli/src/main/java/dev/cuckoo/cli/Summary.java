package dev.cuckoo.cli;

import java.io.PrintWriter;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * What a command that copies or stores something says when it is done, on standard output, and
 * {@code -q/--quiet}, which leaves it out: errors still go to standard error, and the exit status
 * answers as before. Mixed into each such command, so that the option reads and behaves alike in
 * all of them.
 */
final class Summary {
  @Option(names = {"-q", "--quiet"}, description = "Print no summary.")
  boolean quiet;

  /** The command this is mixed into: its standard output is the one a test or caller gave it. */
  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  /**
   * Prints the summary, unless {@code --quiet}, and flushes it, as every command flushes what
   * it prints before it returns.
   *
   * @param lines writes the summary to the command's standard output
   */
  void print(Consumer<PrintWriter> lines) {
    if (quiet) {
      return;
    }
    PrintWriter out = command.commandLine().getOut();
    lines.accept(out);
    out.flush();
  }
}
