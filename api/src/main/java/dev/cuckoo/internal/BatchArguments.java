package dev.cuckoo.internal;

import java.util.Objects;

/**
 * The checks of the many-keys calls ({@code mightContainAll}), one copy for the interface's
 * defaults and for the SPI's base class, which answers them block by block.
 */
public final class BatchArguments {
  private BatchArguments() {}

  /**
   * @param keys the keys
   * @param results where the answers go
   * @throws IllegalArgumentException if {@code results} is shorter than {@code keys}
   */
  public static void require(long[] keys, boolean[] results) {
    Objects.requireNonNull(keys, "keys must not be null");
    Objects.requireNonNull(results, "results must not be null");
    if (results.length < keys.length) {
      throw new IllegalArgumentException("results has " + results.length + " places for " + keys.length + " keys");
    }
  }

  /**
   * @param keys the keys' arrays
   * @param lengths how many bytes of each are the key
   * @param count how many keys
   * @param results where the answers go
   * @throws IllegalArgumentException if an array is shorter than {@code count}
   */
  public static void require(byte[][] keys, int[] lengths, int count, boolean[] results) {
    Objects.requireNonNull(keys, "keys must not be null");
    Objects.requireNonNull(lengths, "lengths must not be null");
    Objects.requireNonNull(results, "results must not be null");
    if (count < 0 || keys.length < count || lengths.length < count || results.length < count) {
      throw new IllegalArgumentException(count + " keys asked for, with " + keys.length + " keys, " + lengths.length
          + " lengths and " + results.length + " places for answers");
    }
  }
}
