package dev.cuckoo.testkit;

import java.util.SplittableRandom;

/**
 * The one seed every randomized test of a run derives its randomness from: {@code
 * -Dcuckoo.test.seed=N} if given, else a random one. Failure messages print it ({@link #rerun}),
 * so any failure can be repeated exactly.
 */
public final class TestSeed {
  /** The base seed of this run. */
  public static final long BASE = Long.getLong("cuckoo.test.seed", new SplittableRandom().nextLong());

  private TestSeed() {}

  /**
   * @param name what the randomness is for (a test's name, a config): different names get
   *     independent seeds
   * @return a seed derived from {@link #BASE} and the name
   */
  public static long of(String name) {
    return mix(BASE ^ mix(name.hashCode() * 0x9E3779B97F4A7C15L));
  }

  /**
   * @param name what the randomness is for
   * @return a random source seeded with {@link #of(String)}
   */
  public static SplittableRandom random(String name) {
    return new SplittableRandom(of(name));
  }

  /** @return {@code "seed N: rerun with -Dcuckoo.test.seed=N"}, for failure messages */
  public static String rerun() {
    return "seed " + BASE + ": rerun with -Dcuckoo.test.seed=" + BASE;
  }

  /** The SplitMix64 finalizer: a bijection on longs. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
