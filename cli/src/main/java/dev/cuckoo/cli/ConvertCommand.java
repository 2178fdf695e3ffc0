package dev.cuckoo.cli;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterFileInfo;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cuckoo convert}: writes a filter file of any format version again in the current one
 * of its variant ({@link CuckooFilters#convert}), so that a file of an earlier release opens
 * mapped. The table of a variant that maps is streamed, so a file larger than the heap converts.
 */
@Command(
    name = "convert",
    mixinStandardHelpOptions = true,
    description = {
      "Rewrite a filter file in the current format version.",
      "",
      "Reads IN (any format version this build reads) and writes the same filter to OUT in the "
          + "current version of its variant: for classic and semi-sorted, version 3, whose table is "
          + "aligned so that query and info map it instead of reading it; the table is streamed "
          + "from IN to OUT, so a file larger than Java's heap converts. Other variants (scalable, "
          + "expandable) are read, never mapped, and version 2 is already their current format: "
          + "OUT is then the same filter, written again. OUT is checked whole before it replaces "
          + "anything, is written atomically, and may not be IN.",
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
    FilterFileInfo header = FileAccess.headerOf(input);
    String hashName = header == null ? null : FileAccess.hashOf(header);
    int version;
    if (hashName != null && !CuckooFilters.hashes().contains(hashName)) {
      // A hash from --hash-path: only a read can be given it, so the filter goes through the heap.
      CuckooFilter filter = FileAccess.readFilter(input, hashes);
      FileAccess.writeAtomically(output, filter::writeTo);
      version = FileAccess.headerOf(output).formatVersion();
    } else {
      version = convert(header);
    }
    CuckooFilter written = FileAccess.openFilter(output, hashes, spec.commandLine().getErr());
    PrintWriter out = spec.commandLine().getOut();
    String variant = written.spec().variant();
    boolean unchanged = header != null && header.formatVersion() == version;
    String what = FileAccess.mapsFiles(variant)
        ? "format version " + version + ", which query and info map without reading it"
            + (unchanged ? " (" + input + " was in it already)" : "")
        : "format version " + version + ", " + (unchanged ? "already " : "") + "the current format of variant "
            + variant + ", whose files are read, not mapped (variants that map: " + FileAccess.mappingVariants() + ")"
            + (unchanged ? ": the filter is as it was" : "");
    out.println("wrote " + output + " in " + what + ": " + TextFormat.things(written.size(), "key") + ", "
        + written.spec());
    out.flush();
    if (written instanceof MappedFilter mapped) {
      try {
        mapped.close();
      } catch (IOException ignored) {
        // read-only: nothing to force
      }
    }
    return CuckooCommand.EXIT_OK;
  }

  /** Converts through the library into a temporary file beside OUT, then renames it into place. */
  private int convert(FilterFileInfo header) {
    Path temp = TemporaryFiles.forTarget(output);
    try {
      int version = CuckooFilters.convert(input, temp);
      FileAccess.moveReplacing(temp, output.toAbsolutePath());
      return version;
    } catch (CorruptFilterException e) {
      throw FileAccess.notValid(input, e);
    } catch (IllegalArgumentException | OutOfMemoryError e) {
      // the library refuses only a filter of a variant that is read, not mapped, whose heap is too small
      throw FileAccess.noRoomToRead(input, header, e);
    } catch (IOException e) {
      Path at = e instanceof java.nio.file.FileSystemException fs && fs.getFile() != null
          && Path.of(fs.getFile()).equals(temp) ? output : input;
      throw FileAccess.failure(at, e);
    } finally {
      TemporaryFiles.release(temp);
    }
  }
}
