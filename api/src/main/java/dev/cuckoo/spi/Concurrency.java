package dev.cuckoo.spi;

import dev.cuckoo.FilterSpec;

/**
 * The variant option {@value #OPTION}, which says whether a filter may be shared between threads
 * and how it keeps them apart. A variant that offers it declares it with {@link
 * SpecSchema.Builder#choiceOption} and the values it supports, so that it is validated, resolved
 * to its default, written in the file and read back like any other option.
 *
 * <ul>
 *   <li>{@value #NONE} (the default everywhere): not thread-safe; a filter shared between threads
 *       needs the caller's own locking;
 *   <li>{@value #STRIPED}: every operation thread-safe; lookups take no lock (they check what
 *       they read against version counters and retry when a writer may have changed it), writers
 *       lock the stripes of the buckets they change ({@link StripedFingerprintStore});
 *   <li>{@value #LOCKED}: every operation thread-safe under one read-write lock: writers one at
 *       a time, lookups together while no writer runs.
 * </ul>
 */
public final class Concurrency {
  /** The option's name. */
  public static final String OPTION = "concurrency";
  /** Not thread-safe. */
  public static final String NONE = "none";
  /** Lock-free lookups, writers on striped locks. */
  public static final String STRIPED = "striped";
  /** One read-write lock for the whole filter. */
  public static final String LOCKED = "locked";

  private Concurrency() {}

  /**
   * @param spec a resolved spec
   * @param value one of the values above
   * @return whether the spec's {@value #OPTION} is {@code value} ({@value #NONE} when absent)
   */
  public static boolean is(FilterSpec spec, String value) {
    return value.equals(spec.option(OPTION).orElse(NONE));
  }
}
