package dev.cuckoo;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Whether a filter may be shared between threads, and how it keeps them apart: the value of the
 * config key {@value FilterSpec#CONCURRENCY}.
 *
 * <p>Without a thread-safe mode, a filter is not safe to use from several threads at once:
 * writes that overlap other writes or lookups are not detected, and they can lose keys silently
 * (later lookups answer {@code false} for keys whose {@code add} returned {@code true}), leave
 * {@link CuckooFilter#size()} wrong, or corrupt the table, with no exception. Choose {@link
 * #THREADSAFE} (every variant takes it), lock the filter yourself, or give each thread its own.
 */
public enum Concurrency {
  /** Not thread-safe (the default): one thread at a time, or the caller's own locking. */
  NONE,
  /**
   * Thread-safe in whatever way the variant does best: {@link #STRIPED} for {@code classic} and
   * {@code semi-sorted}, {@link #LOCKED} for {@code scalable} and {@code expandable}. A filter's
   * resolved spec names the mode chosen, so this value never appears in {@link
   * CuckooFilter#spec()}.
   */
  THREADSAFE,
  /**
   * Every operation thread-safe; lookups take no lock (they check what they read against version
   * counters and retry when a writer may have changed it) and writers lock the stripes of the
   * buckets they change.
   */
  STRIPED,
  /**
   * Every operation thread-safe under one lock, the same in every variant that takes it:
   * writers one at a time; lookups take no lock (they check afterwards that no writer ran, and
   * look up again under the lock's read lock if one did); counts and figures share its read
   * lock. The lock is not reentrant.
   */
  LOCKED;

  /** @return the value as config strings write it: {@code none}, {@code threadsafe}, ... */
  public String configValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** @return {@link #configValue()} */
  @Override
  public String toString() {
    return configValue();
  }

  /**
   * Reads the value of a config string's {@value FilterSpec#CONCURRENCY} key.
   *
   * @param text {@code none}, {@code threadsafe}, {@code striped} or {@code locked}
   * @return the value
   * @throws IllegalArgumentException naming the text and the values allowed
   */
  public static Concurrency parse(String text) {
    for (Concurrency c : values()) {
      if (c.configValue().equals(text)) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        FilterSpec.CONCURRENCY + "=" + text + " is not a concurrency mode: "
            + Arrays.stream(values()).map(Concurrency::configValue).collect(Collectors.joining(", ")));
  }
}
