package dev.cuckoo.testkit;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What {@code concurrency=striped} promises, as one abstract test for every variant that offers
 * it (the pattern of {@link CuckooFilterContractTest}): a variant module subclasses it and names
 * its variant and the table shapes to share between threads. Each check runs {@link
 * ConcurrentUse} on every shape:
 * <ul>
 *   <li>writers adding and removing while readers look up what they published: nothing lost,
 *       {@code size()} exact;
 *   <li>writers filling past capacity: refused adds lose nothing;
 *   <li>a writer relocating fingerprints in a small, nearly full table while a reader looks up
 *       stored keys: no false negative;
 *   <li>(tagged {@code soak}, outside the default build) a minute and more of four writers and
 *       four readers on a filter of a million keys.
 * </ul>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class StripedConcurrencyContractTest {

  /** @return the variant under test */
  protected abstract String variant();

  /**
   * @return the shapes to check, as config options without capacity or concurrency ({@code
   *     "fingerprintBits=12&bucketSize=2"}, say); one should set a low {@code maxKicks}, so that
   *     adds past capacity reach the stash and refusals quickly
   */
  protected abstract List<String> shapes();

  private String config(int capacity, String shape) {
    return variant() + "?capacity=" + capacity + "&" + shape + "&concurrency=striped";
  }

  /** Three writers, two readers, keys for 90% of the capacity: kicks run under contention. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void writersAndReadersLoseNothingAndSizeIsExact(String shape) throws InterruptedException {
    new ConcurrentUse(config(20_000, shape), 3, 2, 6_000, 6, 200_000).run();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void addsRefusedUnderContentionLoseNothing(String shape) throws InterruptedException {
    ConcurrentUse.fillPastCapacity(config(8_000, shape), 3, 1, 1.3);
  }

  /** Lookups of stored keys while a writer relocates fingerprints in a small, nearly full table. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void relocationsHideNoStoredKey(String shape) throws InterruptedException {
    ConcurrentUse.movesHideNoResident(config(4_000, shape), 1, 1, 300_000);
  }

  /** A minute and more of four writers and four readers on a filter of a million keys. */
  @Test
  @Tag("soak")
  void soak() throws InterruptedException {
    ConcurrentUse.Outcome o =
        new ConcurrentUse(config(1_000_000, "fingerprintBits=16"), 4, 4, 200_000, 320, 400_000_000).run();
    System.out.println(variant() + " soak: " + o);
  }
}
