package dev.cuckoo.cli;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.FilterFileInfo;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
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
          + "prints what the file's header tells and names the hash. A file of format version 3 "
          + "is mapped, not read, so info takes milliseconds at any size; --verify then also "
          + "reads the whole file against its checksum.",
      "",
    })
final class InfoCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "FILTER", description = "The filter file.")
  Path filterFile;

  @Mixin HashPath hashes;

  @Option(names = "--json", description = "Print one JSON object instead of text.")
  boolean json;

  @Option(names = "--verify", description = "Also check the whole file against its checksum and the table "
      + "against the items it declares (a mapped file is otherwise described from its header and first page), "
      + "and say what was checked. In a terminal, a line on stderr shows the time it has taken.")
  boolean verify;

  @Option(names = "--progress", description = "With --verify: show the time it has taken even when stderr is not a "
      + "terminal.")
  boolean progress;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    FilterFileInfo withoutHash = FileAccess.headerIfHashMissing(filterFile, hashes);
    if (withoutHash != null) {
      long fileBytes = FileAccess.size(filterFile);
      String hash = FileAccess.hashOf(withoutHash);
      if (json) {
        out.println(FilterReport.headerJson(filterFile.toString(), fileBytes, withoutHash, hash));
      } else {
        FilterReport.row(out, "file", filterFile + " (" + TextFormat.grouped(fileBytes) + " bytes)");
        FilterReport.row(out, "format", FilterReport.format(withoutHash));
        FilterReport.printHeaderText(out, withoutHash, hash);
      }
      out.flush();
      return CuckooCommand.EXIT_OK;
    }
    FilterFileInfo header = FileAccess.headerOf(filterFile);
    long fileBytes = FileAccess.size(filterFile);
    ProgressBar bar = verify && ProgressBar.wanted(progress, false) ? ProgressBar.elapsed(err, "checking " + filterFile + " ("
        + TextFormat.mebibytes(fileBytes) + ")") : ProgressBar.off();
    CuckooFilter filter;
    String verified = null;
    try {
      filter = FileAccess.openFilter(filterFile, hashes, header, err);
      if (verify && filter instanceof MappedFilter mapped) {
        bar.start();
        try {
          mapped.verify();
        } catch (IOException e) {
          throw FileAccess.notValid(filterFile, e);
        }
      }
      if (verify) {
        // A file that is not mapped was read whole, which checks as much as verify() does.
        verified = (filter instanceof MappedFilter ? "" : "read whole: ") + "checksum ok over all "
            + TextFormat.grouped(fileBytes) + " bytes; the table holds the " + TextFormat.grouped(filter.size())
            + " items it declares";
      }
    } finally {
      bar.finish();
    }
    FilterReport report = new FilterReport(filter);
    if (json) {
      out.println(report.toJson(filterFile.toString(), fileBytes, header, verified));
    } else {
      FilterReport.row(out, "file", filterFile + " (" + TextFormat.grouped(fileBytes) + " bytes)");
      if (header != null) {
        FilterReport.row(out, "format", FilterReport.format(header));
      }
      report.printText(out);
      if (verified != null) {
        FilterReport.row(out, "verified", verified);
      }
    }
    out.flush();
    return CuckooCommand.EXIT_OK;
  }
}
