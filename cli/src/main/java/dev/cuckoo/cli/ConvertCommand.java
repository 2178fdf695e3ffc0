package dev.cuckoo.cli;

import dev.cuckoo.CuckooFilter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cuckoo convert}: reads a filter file of any format version and writes it again in the
 * current one, so that a file of an earlier release opens mapped.
 */
@Command(
    name = "convert",
    mixinStandardHelpOptions = true,
    description = {
      "Rewrite a filter file in the current format version.",
      "",
      "Reads IN (any format version this build reads) and writes the same filter to OUT in the "
          + "current version: for classic and semi-sorted, version 3, whose table is aligned so "
          + "that query and info map it instead of reading it. OUT is written atomically and may "
          + "not be IN.",
      "",
    })
final class ConvertCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "IN", description = "The filter file to read.")
  Path input;

  @Parameters(index = "1", paramLabel = "OUT", description = "The file to write.")
  Path output;

  @Mixin HashPath hashes;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    FileAccess.requireNotSameFile(input, output, "OUT");
    FileAccess.requireWritable(output);
    CuckooFilter filter = FileAccess.readFilter(input, hashes);
    FileAccess.writeAtomically(output, filter::writeTo);
    PrintWriter out = spec.commandLine().getOut();
    out.println("wrote " + output + ": " + TextFormat.things(filter.size(), "key") + ", " + filter.spec());
    out.flush();
    return CuckooCommand.EXIT_OK;
  }
}
