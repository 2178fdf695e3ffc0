package dev.cuckoo.cli;

import java.io.IOException;
import java.net.URISyntaxException;
import java.security.CodeSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cuckoo compare}: the benchmarks' quick comparison, run from {@code benchmarks.jar} in a
 * JVM of its own with the arguments as given, its output on this terminal and its exit status
 * returned.
 *
 * <p>The command line holds no benchmark code: nothing depends on the {@code benchmarks} module
 * (the architecture's rule), so the cli finds its jar instead, at the system property {@value
 * #JAR_PROPERTY} or where a build of this repository puts it, {@value #JAR_IN_REPOSITORY} in a
 * folder above {@code cuckoo.jar}.
 */
@Command(
    name = "compare",
    description = {
      "Compare the variants and peer libraries (the benchmarks' compare).",
      "",
      "Runs benchmarks/target/benchmarks.jar as ./compare does, with the same options and output; "
          + "'cuckoo compare --help' prints them. For example: "
          + "cuckoo compare --size 1M --peers off --out compare-out",
    })
final class CompareCommand implements Callable<Integer> {
  /** The system property that names the benchmarks jar, for a jar outside this repository. */
  static final String JAR_PROPERTY = "cuckoo.benchmarks.jar";
  /** Where the repository's build puts the benchmarks jar, from the repository's root. */
  static final String JAR_IN_REPOSITORY = "benchmarks/target/benchmarks.jar";
  private static final String MAIN = "dev.cuckoo.benchmarks.Compare";
  // cli/target/cuckoo.jar, or cli/target/classes when run from the build: the root is 3 or 4 up.
  private static final int FOLDERS_UP = 4;

  @Parameters(paramLabel = "ARG", description = "compare's own options.")
  List<String> args = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    Path jar = benchmarksJar();
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(jar.toString());
    command.add(MAIN);
    command.addAll(args);
    spec.commandLine().getOut().flush();
    spec.commandLine().getErr().flush();
    Process process;
    try {
      process = new ProcessBuilder(command).inheritIO().start();
    } catch (IOException e) {
      throw new CommandError("compare: cannot start " + command.get(0) + ": " + e.getMessage(), e);
    }
    try {
      return process.waitFor();
    } finally {
      process.destroy();
    }
  }

  /** @return the benchmarks jar, which exists */
  static Path benchmarksJar() {
    String named = System.getProperty(JAR_PROPERTY);
    if (named != null) {
      Path jar = Paths.get(named);
      if (!Files.isRegularFile(jar)) {
        throw new CommandError("compare: " + JAR_PROPERTY + "=" + named + " is not a file");
      }
      return jar;
    }
    Path here = codeLocation();
    for (int i = 0; here != null && i < FOLDERS_UP; i++, here = here.getParent()) {
      Path jar = here.resolve(JAR_IN_REPOSITORY);
      if (Files.isRegularFile(jar)) {
        return jar;
      }
    }
    throw new CommandError("compare runs " + JAR_IN_REPOSITORY + ", which is not built: run ./compare "
        + "from the repository (it builds it), or name a built jar with -D" + JAR_PROPERTY + "=PATH");
  }

  /** @return cuckoo.jar, or the classes folder this class was loaded from; null if unknown */
  private static Path codeLocation() {
    CodeSource source = CompareCommand.class.getProtectionDomain().getCodeSource();
    if (source == null) {
      return null;
    }
    try {
      return Paths.get(source.getLocation().toURI());
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null;
    }
  }
}
