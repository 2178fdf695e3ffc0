package dev.cuckoo.testkit;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** What tests of every variant do to filters and keys: write, read back, make distinct keys. */
public final class Filters {
  private Filters() {}

  /**
   * @param f a filter
   * @return its file's bytes
   */
  public static byte[] write(CuckooFilter f) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      f.writeTo(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /**
   * @param f a filter
   * @return the filter written to bytes and read back
   */
  public static CuckooFilter roundTrip(CuckooFilter f) {
    try {
      return CuckooFilters.read(new ByteArrayInputStream(write(f)));
    } catch (IOException e) {
      throw new UncheckedIOException("write/read of " + f, e);
    }
  }

  /**
   * A bijection on longs (the SplitMix64 finalizer): distinct inputs give distinct keys, spread
   * like random ones.
   *
   * @param z any value
   * @return its image
   */
  public static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
