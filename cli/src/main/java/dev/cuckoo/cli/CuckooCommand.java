package dev.cuckoo.cli;

import dev.cuckoo.CuckooFilters;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code cuckoo} command: builds filter files from keys, queries and inspects them, moves
 * RedisBloom-compatible filters to and from Redis, keeps files in a log store, and runs the
 * benchmarks' comparison.
 *
 * <pre>{@code
 * cuckoo build --config 'classic?capacity=1000000' --input keys.txt --output keys.cuckoo
 * cuckoo query keys.cuckoo alice bob        # alice<TAB>yes, bob<TAB>no; exit 1: one is absent
 * cuckoo info keys.cuckoo
 * }</pre>
 *
 * <p>Exit status: {@value #EXIT_OK} when done (for {@code query}: every key present); {@value
 * #EXIT_INCOMPLETE} when {@code query} found a key absent or {@code build} had a key refused;
 * {@value #EXIT_ERROR} for an error (a missing, unreadable or corrupt file, a bad config or
 * option), reported as one line {@code cuckoo: ...} on standard error, with the stack trace only
 * under {@code --debug}.
 */
@Command(
    name = "cuckoo",
    mixinStandardHelpOptions = true,
    versionProvider = CuckooCommand.Version.class,
    subcommands = {
      BuildCommand.class,
      QueryCommand.class,
      InfoCommand.class,
      ConvertCommand.class,
      RecoverCommand.class,
      ExportRedisCommand.class,
      ImportRedisCommand.class,
      PushRedisCommand.class,
      PullRedisCommand.class,
      StoreCommand.class,
      CompareCommand.class,
      CommandLine.HelpCommand.class
    },
    description = {
      "Cuckoo filters from the command line: build a filter file from keys, query it, inspect "
          + "it, move it to and from Redis (a live server, or RedisBloom's chunks in files), keep "
          + "files in a log store, and compare the variants.",
    },
    footer = {
      "",
      "Run 'cuckoo COMMAND --help' for a command's options. A config is "
          + "'variant?key=value&...', such as 'classic?capacity=1000000&fingerprintBits=12' "
          + "(every key: docs/guide/configuration.md).",
      "",
      CuckooCommand.EXIT_STATUS_HELP,
    })
public final class CuckooCommand implements Callable<Integer> {
  /** Exit status: done; for {@code query}, every key is present. */
  static final int EXIT_OK = 0;
  /** Exit status: {@code query} found a key absent, or {@code build} had a key refused. */
  static final int EXIT_INCOMPLETE = 1;
  /** Exit status: an error, reported on one line. */
  static final int EXIT_ERROR = 2;
  /** The exit statuses, for the help of the commands. */
  static final String EXIT_STATUS_HELP = "Exit status: 0 done (query: every key present); 1 query "
      + "found a key absent, or build had a key refused; 2 an error (a missing, unreadable or "
      + "corrupt file, a bad config or option), reported as one line 'cuckoo: ...' on stderr "
      + "(--debug adds the stack trace).";

  @Option(names = "--debug", scope = ScopeType.INHERIT,
      description = "On an error, print the stack trace after the message.")
  boolean debug;

  @Spec CommandSpec spec;

  /** What an input of {@code -} reads; tests give their own. */
  InputStream stdin = System.in;

  /** The environment (for {@code REDISCLI_AUTH}); tests give their own. */
  Function<String, String> environment = System::getenv;

  /**
   * Runs the command and exits with its status.
   *
   * @param args the command line; see {@code cuckoo --help}
   */
  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
    PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    int status = commandLine(System.in, out, err).execute(args);
    out.flush();
    err.flush();
    System.exit(status);
  }

  /**
   * @param stdin what an input of {@code -} reads
   * @param out standard output
   * @param err standard error
   * @return the command, ready to {@link CommandLine#execute execute}
   */
  static CommandLine commandLine(InputStream stdin, PrintWriter out, PrintWriter err) {
    CuckooCommand top = new CuckooCommand();
    top.stdin = stdin;
    CommandLine cl = new CommandLine(top);
    ErrorReporter errors = new ErrorReporter();
    cl.setOut(out)
        .setErr(err)
        .setExpandAtFiles(false) // a key may start with '@'
        .setCaseInsensitiveEnumValuesAllowed(true)
        .setExecutionExceptionHandler(errors)
        .setParameterExceptionHandler(errors);
    cl.getSubcommands().get("compare").setUnmatchedOptionsArePositionalParams(true);
    cl.getSubcommands().get("build").getCommandSpec().usageMessage().footer(BuildCommand.footer());
    return cl;
  }

  /** {@code cuckoo} alone: the usage, as an error. */
  @Override
  public Integer call() {
    spec.commandLine().getErr().println("cuckoo: give a command");
    spec.commandLine().usage(spec.commandLine().getErr());
    return EXIT_ERROR;
  }

  /** {@code cuckoo --version}: this build's version, and the variants and hashes installed. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() throws Exception {
      Properties p = new Properties();
      try (InputStream in = CuckooCommand.class.getResourceAsStream("version.properties")) {
        if (in != null) {
          p.load(in);
        }
      }
      return new String[] {
        "cuckoo " + p.getProperty("version", "(unknown version)"),
        "variants: " + String.join(", ", CuckooFilters.variants()),
        "hashes: " + String.join(", ", CuckooFilters.hashes()),
        "java: " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")",
      };
    }
  }
}
