package dev.cuckoo.scalable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cuckoo.Concurrency;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.testkit.ConcurrentUse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scalable filters with {@code concurrency=locked} shared by writer and reader threads: a chain
 * that grows while readers look up, and a single table that refuses adds once full.
 */
class ScalableConcurrencyTest {

  @Test
  void onlyNoneAndLockedAreAllowed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.create("scalable?capacity=1000&concurrency=striped"));
    assertEquals("concurrency=striped is out of range for variant scalable: none, threadsafe, locked", e.getMessage());
    assertEquals(Concurrency.LOCKED, CuckooFilters.create("scalable?capacity=1000&concurrency=locked")
        .spec().concurrency().orElseThrow());
    assertEquals(Concurrency.LOCKED, CuckooFilters.create("scalable?capacity=1000&concurrency=threadsafe")
        .spec().concurrency().orElseThrow());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "scalable?capacity=4000&bucketSize=2&expansion=2&concurrency=locked",
      "scalable?capacity=20000&bucketSize=4&concurrency=locked"})
  void writersAndReadersLoseNothingAndSizeIsExact(String config) throws InterruptedException {
    new ConcurrentUse(config, 3, 2, 6_000, 4, 100_000).run();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"scalable?capacity=8000&bucketSize=4&expansion=0&concurrency=locked"})
  void addsRefusedUnderContentionLoseNothing(String config) throws InterruptedException {
    ConcurrentUse.fillPastCapacity(config, 3, 1, 1.3);
  }
}
