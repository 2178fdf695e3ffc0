package dev.cuckoo.cli;

import dev.cuckoo.benchmarks.Compare;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cuckoo compare}: the benchmarks' quick comparison ({@link Compare}), run in this JVM
 * with the arguments as given; {@code Compare} forks its worker JVMs on this JVM's class path,
 * which in {@code cuckoo.jar} holds the harness and every variant.
 */
@Command(
    name = "compare",
    description = {
      "Compare the variants and peer libraries (the benchmarks' compare).",
      "",
      "Runs as ./compare does, with the same options and output; 'cuckoo compare --help' "
          + "prints them. For example: cuckoo compare --size 1M --peers off --out compare-out",
    })
final class CompareCommand implements Callable<Integer> {
  @Parameters(paramLabel = "ARG", description = "compare's own options.")
  List<String> args = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    spec.commandLine().getOut().flush();
    spec.commandLine().getErr().flush();
    try {
      return Compare.execute(args.toArray(new String[0]));
    } catch (IOException e) {
      // a worker that failed, or results that could not be written: the user's to fix, not a bug
      throw new CommandError("compare: " + e.getMessage(), e);
    }
  }
}
