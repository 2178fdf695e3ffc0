package dev.cuckoo.benchmarks;

import java.util.function.LongFunction;

/**
 * A named way to build a filter for a given number of keys: one of our variant configs or a
 * peer library.
 *
 * @param name what tables and charts call it, e.g. {@code classic?fingerprintBits=8}
 * @param family {@code cuckoo} (ours), {@code peer-cuckoo} or {@code peer-bloom}
 * @param factory builds an empty filter sized for that many keys
 */
public record Contender(String name, String family, LongFunction<FilterAdapter> factory) {

  /**
   * @param keys the number of keys the filter is sized for
   * @return a new, empty filter
   */
  public FilterAdapter create(long keys) {
    return factory.apply(keys);
  }

  /** @return whether this is one of our variants */
  public boolean ours() {
    return family.equals("cuckoo");
  }
}
