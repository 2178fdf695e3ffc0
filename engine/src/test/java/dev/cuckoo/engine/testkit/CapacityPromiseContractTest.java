package dev.cuckoo.engine.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.testkit.TestSeed;
import java.util.Locale;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The sizing promise of a variant sized by {@link dev.cuckoo.engine.CuckooSizing}, at many
 * capacities and seeds: built for {@code n} keys, a filter takes {@code n} distinct keys without
 * refusing one (the stash may hold the tail; a lookup then finds every key), and from 20,000 keys
 * up its whole memory ({@code sizeInBytes()}, the table, the alternate offsets and the stash) is
 * at most {@link #bitsPerKeyBound} bits per key. {@link TableVariantContractTest} runs it for a
 * variant.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class CapacityPromiseContractTest {
  /** Below this, the stash's fixed bytes are a visible share of the memory. */
  private static final long MEMORY_FROM = 20_000;

  /**
   * @param capacity the capacity
   * @param bits the fingerprint width
   * @param seed the seed of the filter's kick path
   * @return a config of the variant with buckets of 4 and the default walk
   */
  protected abstract String config(long capacity, int bits, long seed);

  /**
   * @param bits the fingerprint width
   * @return the most bits per key the filter may take at capacity, in all
   */
  protected abstract double bitsPerKeyBound(int bits);

  /** @return the widths to check */
  protected abstract int[] widthsSource();

  /** The capacities: 10,000 up by factors of 1.45 to about 400,000, each with 8 seeds. */
  private static long[] capacities() {
    long[] c = new long[11];
    double n = 10_000;
    for (int i = 0; i < c.length; i++, n *= 1.45) {
      c[i] = Math.round(n) + i; // not round numbers: odd bucket counts before rounding
    }
    return c;
  }

  @ParameterizedTest(name = "{0}-bit fingerprints")
  @MethodSource("widthsSource")
  void everyCapacityTakesItsKeysWithinItsMemory(int bits) {
    long base = TestSeed.of("capacity promise " + bits);
    for (long capacity : capacities()) {
      for (int s = 0; s < 8; s++) {
        fill(capacity, bits, base + s * 0x9E3779B97F4A7C15L + capacity);
      }
    }
    fill(4_000_000, bits, base); // one large table, where the walk's reach matters most
  }

  @ParameterizedTest(name = "{0}-bit fingerprints")
  @MethodSource("widthsSource")
  void theMemoryBoundHoldsAtEveryCapacityUpToTenMillion(int bits) {
    // Memory does not depend on the keys: a dense grid of empty filters checks it, most
    // closely where the alternate offsets start to be made (tables of about 70 KB to 18 MB).
    for (double n = MEMORY_FROM; n <= 10_000_000; n *= 1.013) {
      long capacity = (long) n;
      CuckooFilter f = CuckooFilters.create(config(capacity, bits, 0));
      double bitsPerKey = 8.0 * f.sizeInBytes() / capacity;
      assertTrue(bitsPerKey <= bitsPerKeyBound(bits), String.format(Locale.ROOT,
          "capacity %d: %.4f bits per key, above %.4f", capacity, bitsPerKey, bitsPerKeyBound(bits)));
    }
  }

  private void fill(long capacity, int bits, long seed) {
    String config = config(capacity, bits, seed);
    String where = config + " (" + TestSeed.rerun() + ")";
    CuckooFilter f = CuckooFilters.create(config);
    for (long i = 0; i < capacity; i++) {
      if (!f.add(distinct(seed, i))) {
        fail(where + ": refused key " + i + " of its capacity " + capacity);
      }
    }
    for (long i = 0; i < capacity; i += 97) {
      assertTrue(f.mightContain(distinct(seed, i)), where + ": key " + i + " lost");
    }
    if (capacity >= MEMORY_FROM) {
      double bitsPerKey = 8.0 * f.sizeInBytes() / capacity;
      assertTrue(bitsPerKey <= bitsPerKeyBound(bits), String.format(Locale.ROOT,
          "%s: %.4f bits per key, above %.4f", where, bitsPerKey, bitsPerKeyBound(bits)));
    }
  }

  /** SplitMix64's finalizer, a bijection: distinct i give distinct keys. */
  private static long distinct(long seed, long i) {
    long z = (seed << 24) + i;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
