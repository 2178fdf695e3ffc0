package dev.cuckoo.benchmarks;

/** Reproducible random keys. */
final class Keys {
  private Keys() {}

  /**
   * @param n how many
   * @param stream which stream: different streams never share a key
   * @return {@code n} distinct pseudo-random longs
   */
  static long[] distinct(int n, int stream) {
    long[] keys = new long[n];
    long base = (long) stream << 48;
    for (int i = 0; i < n; i++) {
      keys[i] = mix(base + i);
    }
    return keys;
  }

  /** The SplitMix64 finalizer: a bijection, so distinct inputs give distinct keys. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
