package dev.cuckoo;

import java.util.Iterator;
import java.util.function.Predicate;

/** The one loop behind every {@code addAll}: in order, stopping at the first refusal. */
final class InOrder {
  private InOrder() {}

  /**
   * @return how many {@code add} accepted before it first refused, or all of them
   */
  static <T> long addUntilRefused(Iterator<? extends T> keys, Predicate<? super T> add) {
    long added = 0;
    while (keys.hasNext()) {
      if (!add.test(keys.next())) {
        return added;
      }
      added++;
    }
    return added;
  }
}
