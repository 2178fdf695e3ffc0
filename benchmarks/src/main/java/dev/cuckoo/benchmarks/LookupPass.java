package dev.cuckoo.benchmarks;

/**
 * One timed pass of lookups over an array of keys, in a loop of its own: what both workers
 * measure lookups with.
 *
 * @param found how many of the keys the filter reported present
 * @param nanos how long the pass took
 */
record LookupPass(long found, long nanos) {

  /**
   * @param f the filter
   * @param keys the keys to look up, in order
   * @return the pass
   */
  static LookupPass over(FilterAdapter f, long[] keys) {
    long t0 = System.nanoTime();
    long found = 0;
    for (long k : keys) {
      found += f.mightContain(k) ? 1 : 0;
    }
    return new LookupPass(found, System.nanoTime() - t0);
  }

  /** @return nanoseconds per lookup */
  double nanosPer(int lookups) {
    return (double) nanos / lookups;
  }
}
