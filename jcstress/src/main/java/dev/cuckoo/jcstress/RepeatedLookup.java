package dev.cuckoo.jcstress;

import java.util.function.BooleanSupplier;

/**
 * The reading side of every race here: a lookup repeated until the writer has returned. A writer
 * spends most of its time before the step that can hide a key (taking locks, searching a path,
 * loading a copy), so one lookup, which takes nanoseconds, would nearly always end before that
 * step began; repeated, the lookups cover the whole write.
 */
final class RepeatedLookup {
  private RepeatedLookup() {}

  /**
   * @param lookup one lookup of a stored key: whether it found the key
   * @param writerDone whether the writer has returned (a volatile read)
   * @return whether every lookup found the key
   */
  static boolean allFound(BooleanSupplier lookup, BooleanSupplier writerDone) {
    boolean found = true;
    do {
      found &= lookup.getAsBoolean();
    } while (!writerDone.getAsBoolean());
    return found;
  }
}
