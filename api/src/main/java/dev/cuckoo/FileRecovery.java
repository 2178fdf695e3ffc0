package dev.cuckoo;

import java.util.Objects;

/**
 * What opening a filter file found its last writer had left, and did about it: the report {@link
 * MappedFilter#recovery()} gives when {@link CuckooFilters#open}, {@link
 * CuckooFilters#openWritable} or {@link CuckooFilters#recover} brought a file back.
 *
 * @param cause why the file needed it
 * @param items the items the file holds now
 * @param description a sentence saying what was found and done, as {@code cuckoo recover} prints it
 */
public record FileRecovery(Cause cause, long items, String description) {

  /** Why a file needed recovering. */
  public enum Cause {
    /**
     * Its writer's process stopped (killed, out of memory, halted) while the file had changes it
     * had not forced, with {@link Durability#PROCESS}: the file held every add that had returned;
     * a bucket rewrite the writer was in the middle of was put back, a clear it was in the middle
     * of finished, the items recounted and the checksum rebuilt.
     */
    WRITER_STOPPED,
    /**
     * A force of a {@link Durability#MACHINE} file was cut short, by a crash of its process or of
     * its machine, after its journal was whole: the file was brought to that force from the
     * journal.
     */
    FORCE_CUT_SHORT,
    /**
     * The file was consistent, but its writer stopped with a journal beside it ({@code
     * FILE.journal}, of a {@link Durability#MACHINE} file), which was removed: the file holds what
     * its last force left.
     */
    JOURNAL_LEFT
  }

  /**
   * @param cause why the file needed it
   * @param items the items the file holds now
   * @param description a sentence saying what was found and done
   */
  public FileRecovery {
    Objects.requireNonNull(cause, "cause must not be null");
    Objects.requireNonNull(description, "description must not be null");
  }

  /** @return {@link #description()} */
  @Override
  public String toString() {
    return description;
  }
}
