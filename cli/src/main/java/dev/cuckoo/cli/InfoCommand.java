package dev.cuckoo.cli;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.internal.FilterFile.Header;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cuckoo info}: what a filter file holds; see {@link FilterReport}. */
@Command(
    name = "info",
    mixinStandardHelpOptions = true,
    description = {
      "Describe a filter file: variant, spec, size, load, bits/item, FPP.",
      "",
      "Prints the variant, the resolved spec, items, capacity (slots), load, bits per item, "
          + "sizeInBytes (the tables' memory) and the false-positive probability expected at "
          + "this load; for a RedisBloom-compatible filter also its CF.INFO reply. For a file "
          + "built with a hash this build does not have (and --hash-path does not give), it "
          + "prints what the file's header tells and names the hash.",
      "",
    })
final class InfoCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "FILTER", description = "The filter file.")
  Path filterFile;

  @Mixin HashPath hashes;

  @Option(names = "--json", description = "Print one JSON object instead of text.")
  boolean json;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Header withoutHash = FileAccess.headerIfHashMissing(filterFile, hashes);
    if (withoutHash != null) {
      long fileBytes = FileAccess.size(filterFile);
      String hash = FileAccess.hashOf(withoutHash);
      if (json) {
        out.println(FilterReport.headerJson(filterFile.toString(), fileBytes, withoutHash, hash));
      } else {
        FilterReport.row(out, "file", filterFile + " (" + TextFormat.grouped(fileBytes) + " bytes)");
        FilterReport.printHeaderText(out, withoutHash, hash);
      }
      out.flush();
      return CuckooCommand.EXIT_OK;
    }
    CuckooFilter filter = FileAccess.readFilter(filterFile, hashes);
    long fileBytes = FileAccess.size(filterFile);
    FilterReport report = new FilterReport(filter);
    if (json) {
      out.println(report.toJson(filterFile.toString(), fileBytes));
    } else {
      FilterReport.row(out, "file", filterFile + " (" + TextFormat.grouped(fileBytes) + " bytes)");
      report.printText(out);
    }
    out.flush();
    return CuckooCommand.EXIT_OK;
  }
}
