package dev.cuckoo.internal;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.Durability;
import dev.cuckoo.FileRecovery;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.MappedFilter;
import dev.cuckoo.spi.FilterProvider;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What a writer's open does with a file its last writer did not leave as it should: the recovery
 * decision, in one place. The writer holds the file's lock, so no other writer is at work on it.
 *
 * <ul>
 *   <li>The mark is clear and no journal lies beside the file: the last writer forced or closed
 *       it. It opens as it is.
 *   <li>The mark is clear and a journal lies beside it ({@code durability=machine}): the last
 *       writer stopped between forces, or after a force had sealed the file and before it emptied
 *       the journal. The file holds what its last force left; the journal is removed ({@link
 *       FileRecovery.Cause#JOURNAL_LEFT}).
 *   <li>The mark is set, {@code durability=machine}: a force was cut short after its journal was
 *       whole (the mark is set only then), by a crash of the process or of the machine. The
 *       journal is replayed and the file sealed ({@link FileRecovery.Cause#FORCE_CUT_SHORT}).
 *   <li>The mark is set, {@code durability=process}: the writer's process stopped between forces.
 *       If the mark was set in this boot of the machine, the kernel wrote every page the process
 *       stored to, and every store kept each fingerprint in one of its slots: the variant puts
 *       back what the writer was in the middle of and recounts ({@link
 *       FilterProvider#recover}, {@link FileRecovery.Cause#WRITER_STOPPED}). If the machine
 *       stopped (another boot id), pages written since the last force may have reached the disk
 *       in any order or not at all, and the file is refused; so it is where this cannot be told.
 * </ul>
 *
 * <p>Each step can itself be cut short by a crash and is then done again by the next open: the
 * mark is cleared only by the seal that ends a recovery, and the journal is emptied only after.
 */
final class Recovery {
  private Recovery() {}

  /**
   * Opens a file for writing, bringing it back first if it needs it.
   *
   * @param provider the file's variant
   * @param spec the resolved spec it records
   * @param header its header
   * @param payload its payload, writable, the lock held
   * @return the filter; its {@link MappedFilter#recovery} says what was done
   * @throws CorruptFilterException if the file cannot be brought back (naming why)
   * @throws IOException if reading or writing fails
   */
  static MappedFilter openWritable(FilterProvider provider, FilterSpec spec, FilterFile.Header header,
      MappedEnvelope payload) throws IOException {
    Path path = payload.path();
    boolean machine = spec.durability() == Durability.MACHINE;
    Journal journal = payload.journal();
    if (!header.dirty()) {
      boolean left = journal.exists();
      if (left) {
        journal.remove();
      }
      payload.openJournal();
      MappedFilter filter = provider.open(spec, payload);
      if (left) {
        payload.recovered(new FileRecovery(FileRecovery.Cause.JOURNAL_LEFT, filter.size(), path + ": its last writer"
            + " stopped without closing it" + (machine ? " (between forces: adds after its last force are not in the"
            + " file)" : "") + "; it holds " + things(filter.size()) + ", what its last force left, and the journal"
            + " it left beside it (" + journal.path().getFileName() + ") was removed"));
      }
      return filter;
    }
    if (machine) {
      payload.replayJournal();
      payload.openJournal();
      MappedFilter filter = provider.open(spec, payload);
      payload.recovered(new FileRecovery(FileRecovery.Cause.FORCE_CUT_SHORT, filter.size(), path + ": recovered: a"
          + " force was cut short (its writer's process or machine stopped in the middle of it); the file was brought"
          + " to that force from its journal and holds " + things(filter.size())));
      return filter;
    }
    requireThisBoot(path, header.bootId());
    if (journal.exists()) {
      journal.remove(); // not this file's: a process-durable file keeps none
    }
    return provider.recover(spec, payload);
  }

  /**
   * @throws CorruptFilterException if the mark was not set in this boot of the machine, or this
   *     cannot be told
   */
  private static void requireThisBoot(Path path, byte[] recorded) throws CorruptFilterException {
    byte[] now = BootId.current();
    if (BootId.isUnknown(recorded) || BootId.isUnknown(now)) {
      throw new CorruptFilterException(MappedFiles.stoppedWriterMessage(path) + ", and whether its process or the"
          + " whole machine stopped cannot be told ("
          + (BootId.isUnknown(now) ? "this system has no " + BootId.SOURCE : "its writer's system had no boot id")
          + "): after a machine crash its table may lack fingerprints it had forced, so it is not recovered;"
          + " rebuild it");
    }
    if (!java.util.Arrays.equals(recorded, now)) {
      throw new CorruptFilterException(path + " was being changed in place when the machine stopped (it has"
          + " restarted since: boot id " + BootId.text(recorded) + ", now " + BootId.text(now) + "): the pages"
          + " written since its last force may have reached the disk in any order or not at all, so its table may"
          + " lack fingerprints it had forced; it cannot be recovered: rebuild it, or the copy written before"
          + " (durability=machine keeps forced keys across a machine's crash)");
    }
  }

  private static String things(long n) {
    return String.format(java.util.Locale.ROOT, "%,d", n) + (n == 1 ? " key" : " keys");
  }
}
