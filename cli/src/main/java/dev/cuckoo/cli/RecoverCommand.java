package dev.cuckoo.cli;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FileRecovery;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cuckoo recover}: brings back a mapped filter file whose writer stopped (killed, out of
 * memory, a power loss in the middle of a force) before it forced or closed it ({@link
 * CuckooFilters#recover}), and says what it found.
 */
@Command(
    name = "recover",
    mixinStandardHelpOptions = true,
    description = {
      "Recover a filter file whose writer stopped while changing it.",
      "",
      "A file that a writer changes in place (build --in-place, CuckooFilters.openWritable) is marked "
          + "as being changed until the writer forces or closes it. If the writer's process died "
          + "(kill -9, the OOM killer, a crash), FILE holds every key whose add had returned: recover "
          + "puts back a bucket the writer was in the middle of rewriting, recounts the keys, rebuilds "
          + "the checksum and marks the file consistent; a clear() it was in the middle of is finished, "
          + "and a merge it was in the middle of stays recorded, for the same merge to finish. A file of "
          + "durability=machine whose force was cut short, by any crash, is brought to that force from its "
          + "journal (FILE.journal), and a journal left beside a consistent file is removed. query, info "
          + "and opening the file from Java recover it too, when they may write it.",
      "",
      "Refused: a file a writer has open now (it holds the file's lock), and a file of "
          + "durability=process whose machine stopped (a power loss or a kernel crash) while it was being "
          + "changed: pages written since its last force may be lost, so it is rebuilt, not trusted.",
      "",
    })
final class RecoverCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "FILE", description = "The filter file to recover.")
  Path file;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (Files.isDirectory(file)) {
      throw new CommandError(file + ": is a directory, not a filter file");
    }
    java.util.Optional<FileRecovery> recovered;
    try {
      recovered = CuckooFilters.recover(file);
    } catch (CorruptFilterException e) {
      throw FileAccess.notValid(file, e);
    } catch (IOException e) {
      throw FileAccess.failure(file, e);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (recovered.isPresent()) {
      out.println(recovered.get().description());
      out.flush();
      return CuckooCommand.EXIT_OK;
    }
    try (MappedFilter filter = CuckooFilters.open(file)) {
      String keys = TextFormat.things(filter.size(), "key");
      String merge = filter.unfinishedMerge().isPresent() ? "; it records a merge (addAll) cut short after "
          + TextFormat.things(filter.unfinishedMerge().getAsLong(), "entry") + ": merge the same filter again to"
          + " finish it" : "";
      out.println(file + ": nothing to recover: its last writer forced or closed it; it holds " + keys + merge + " ("
          + filter.spec() + ")");
    } catch (UnsupportedOperationException e) {
      out.println(file + ": nothing to recover: " + e.getMessage());
    } catch (CorruptFilterException e) {
      throw FileAccess.notValid(file, e);
    } catch (IOException e) {
      throw FileAccess.failure(file, e);
    }
    out.flush();
    return CuckooCommand.EXIT_OK;
  }
}
