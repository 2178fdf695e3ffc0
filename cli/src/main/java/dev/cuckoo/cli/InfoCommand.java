package dev.cuckoo.cli;

import dev.cuckoo.CuckooFilter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
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
          + "this load; for a RedisBloom-compatible filter also its CF.INFO reply.",
      "",
    })
final class InfoCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "FILTER", description = "The filter file.")
  Path filterFile;

  @Option(names = "--json", description = "Print one JSON object instead of text.")
  boolean json;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    CuckooFilter filter = FileAccess.readFilter(filterFile);
    long fileBytes = FileAccess.size(filterFile);
    PrintWriter out = spec.commandLine().getOut();
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
