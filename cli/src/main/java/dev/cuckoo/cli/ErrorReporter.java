package dev.cuckoo.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every failure into one line on standard error, {@code cuckoo: ...}, and exit status
 * {@link CuckooCommand#EXIT_ERROR}: a mistake on the command line names the command's help; an
 * error while running gives its message ({@link CommandError}s name the file or option at
 * fault). The stack trace follows only with {@code --debug}; an unexpected exception says so and
 * points to {@code --debug}.
 */
final class ErrorReporter implements IExecutionExceptionHandler, IParameterExceptionHandler {

  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    String line = "cuckoo: " + ex.getMessage();
    if (ex instanceof UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()) {
      line += " (did you mean " + String.join(" or ", unmatched.getSuggestions()) + "?)";
    }
    cmd.getErr().println(line + " (see '" + cmd.getCommandSpec().qualifiedName() + " --help')");
    return CuckooCommand.EXIT_ERROR;
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parsed) {
    PrintWriter err = cmd.getErr();
    boolean debug = debug(parsed);
    if (ex instanceof CommandError) {
      err.println("cuckoo: " + ex.getMessage());
    } else {
      err.println("cuckoo: internal error: " + ex
          + (debug ? "" : " (run again with --debug for the stack trace)"));
    }
    if (debug) {
      ex.printStackTrace(err);
    }
    err.flush();
    return CuckooCommand.EXIT_ERROR;
  }

  /** @return whether {@code --debug} was given, before or after the subcommand */
  private static boolean debug(ParseResult parsed) {
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--debug")) {
        return true;
      }
    }
    return false;
  }
}
