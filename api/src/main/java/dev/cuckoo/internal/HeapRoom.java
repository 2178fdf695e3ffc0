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
    return new IllegalArgumentException("a filter of " + spec + " " + what + " the heap's maximum of "
        + bytes(max) + "; " + instead + ", or give the JVM more heap with -Xmx");
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
