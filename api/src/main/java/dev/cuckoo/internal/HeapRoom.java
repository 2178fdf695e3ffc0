package dev.cuckoo.internal;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.FilterProvider;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * Where every new filter is created: checks what its variant says it allocates ({@link
 * FilterProvider#memoryToCreate}) against the heap first, and refuses a filter the heap cannot
 * hold with an {@link IllegalArgumentException} that names the bytes it needs, the heap's
 * maximum and the same config with a capacity that fits, rather than an {@code
 * OutOfMemoryError}.
 *
 * <p>The check before allocating compares with {@link Runtime#maxMemory()} alone, not with what
 * is free now: the heap in use counts garbage a collection would free, so comparing with it would
 * refuse filters that fit. A filter below the maximum may still not find room (the heap holds
 * live data, and a collector can give one array less than all of it); the {@code
 * OutOfMemoryError} its allocation then throws is turned into the same refusal, which is safe
 * because nothing but the new filter has been allocated. The config it suggests takes at most half
 * the heap free now, garbage counted as in use: room for it whether or not a collection runs
 * first, and for the application around it.
 */
public final class HeapRoom {
  private HeapRoom() {}

  /**
   * Creates an empty filter of a resolved spec, after checking that the heap can hold it.
   *
   * @param provider the spec's variant
   * @param resolved a spec the provider resolved
   * @return the filter
   * @throws IllegalArgumentException if the heap cannot hold it (naming a config that fits), or
   *     if the variant refuses the spec
   */
  public static CuckooFilter create(FilterProvider provider, FilterSpec resolved) {
    OptionalLong needed = provider.memoryToCreate(resolved);
    if (needed.isPresent() && needed.getAsLong() > Runtime.getRuntime().maxMemory()) {
      throw tooLarge(provider, resolved, needed);
    }
    try {
      return provider.create(resolved);
    } catch (OutOfMemoryError e) {
      IllegalArgumentException refused = tooLarge(provider, resolved, needed);
      refused.addSuppressed(e);
      throw refused;
    }
  }

  /**
   * Checks that a filter of a resolved spec could be on the heap at all, as {@link #create} does
   * first: a variant refuses a table past one Java array (its message names {@code
   * CuckooFilters.open} and {@code createFile}). For reading a sound file, whose payload would
   * otherwise be reported as unreadable.
   *
   * @param provider the spec's variant
   * @param resolved a spec the provider resolved
   * @throws IllegalArgumentException if the variant refuses a heap table of that spec
   */
  public static void requireHeapTable(FilterProvider provider, FilterSpec resolved) {
    OptionalLong unused = provider.memoryToCreate(resolved);
  }

  /**
   * Checks, before a file's payload is read, that the heap could hold the filter it makes: about
   * as many bytes as the payload. Only the heap's maximum is compared ({@link #create} explains
   * why); a read that then finds too little free is refused by {@link #noRoomToRead}.
   *
   * @param provider the file's variant
   * @param resolved the file's spec, resolved
   * @param payloadLength the payload's length in bytes
   * @param version the file's format version
   * @return the refusal to throw, or {@code null} if the heap's maximum is enough
   */
  public static IllegalArgumentException roomToRead(FilterProvider provider, FilterSpec resolved, long payloadLength,
      int version) {
    // The payload holds the table, so its bytes are what a read allocates, about: a payload that
    // cannot hold the spec's table is damage, which the variant's reader reports, allocating only as
    // the bytes arrive.
    return payloadLength > Runtime.getRuntime().maxMemory()
        ? noRoomToRead(provider, resolved, payloadLength, version, null)
        : null;
  }

  /**
   * The refusal of a read whose filter the heap cannot hold: it names the bytes, the heap's
   * maximum, and how to have the filter without the heap ({@code open} maps a file of a variant
   * that maps; an older file is converted first).
   *
   * @param provider the file's variant
   * @param resolved the file's spec, resolved
   * @param payloadLength the payload's length in bytes
   * @param version the file's format version
   * @param cause the {@code OutOfMemoryError} the read threw, or {@code null} if it was refused first
   * @return the exception to throw
   */
  public static IllegalArgumentException noRoomToRead(FilterProvider provider, FilterSpec resolved,
      long payloadLength, int version, OutOfMemoryError cause) {
    long max = Runtime.getRuntime().maxMemory();
    String instead;
    if (!provider.mapsFiles()) {
      instead = "";
    } else if (version >= FilterFile.FORMAT_VERSION) {
      instead = "CuckooFilters.open maps the file instead, holding none of its table on the heap, or ";
    } else {
      instead = "CuckooFilters.convert rewrites the file in format version " + FilterFile.FORMAT_VERSION
          + " without reading it onto the heap, and CuckooFilters.open then maps it, or ";
    }
    String room = cause == null
        ? "the heap's maximum of " + bytes(max)
        : "the heap had free (its maximum is " + bytes(max) + ")";
    IllegalArgumentException refused = new IllegalArgumentException("reading a filter of " + resolved + " takes about "
        + bytes(payloadLength) + " of heap, more than " + room + "; " + instead + "give the JVM more heap with -Xmx");
    if (cause != null) {
      refused.addSuppressed(cause);
    }
    return refused;
  }

  private static IllegalArgumentException tooLarge(FilterProvider provider, FilterSpec spec, OptionalLong needed) {
    Runtime rt = Runtime.getRuntime();
    long max = rt.maxMemory();
    long free = max - (rt.totalMemory() - rt.freeMemory());
    String what = needed.isPresent()
        ? "needs " + bytes(needed.getAsLong()) + (needed.getAsLong() > max ? ", more than" : ", and did not fit in")
        : "did not fit in";
    long fits = largestCapacityWithin(provider, spec, free / 2);
    String instead = fits > 0
        ? spec.toBuilder().capacity(fits).build() + " fits in half the " + bytes(free) + " free now"
        : "not even capacity=1 fits in half the " + bytes(free) + " free now";
    String file = provider.mapsFiles()
        ? ", or build it in a file, which the heap does not bound (CuckooFilters.createFile)"
        : "";
    return new IllegalArgumentException("a filter of " + spec + " " + what + " the heap's maximum of "
        + bytes(max) + "; " + instead + file + ", or give the JVM more heap with -Xmx");
  }

  /** The largest capacity below the spec's whose filter takes at most {@code budget} bytes, or 0. */
  private static long largestCapacityWithin(FilterProvider provider, FilterSpec spec, long budget) {
    long lo = 0;
    long hi = spec.capacity().orElse(1) - 1;
    while (lo < hi) {
      long mid = lo + (hi - lo + 1) / 2;
      if (takesAtMost(provider, spec.toBuilder().capacity(mid).build(), budget)) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  private static boolean takesAtMost(FilterProvider provider, FilterSpec spec, long budget) {
    try {
      OptionalLong bytes = provider.memoryToCreate(spec);
      return bytes.isPresent() && bytes.getAsLong() <= budget;
    } catch (IllegalArgumentException refused) {
      return false;
    }
  }

  private static String bytes(long n) {
    return n + " bytes (" + String.format(Locale.ROOT, "%.1f", n / (double) (1 << 20)) + " MiB)";
  }
}
