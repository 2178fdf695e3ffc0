package dev.cuckoo.semisorted;

import dev.cuckoo.testkit.ConcurrentUse;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Semi-sorted filters with {@code concurrency=striped} shared by writer and reader threads: the
 * headline 16-bit and the paper's 13-bit fingerprints (60- and 48-bit buckets, which share words
 * within a stripe) and 32-bit ones, whose buckets are wider than a word.
 */
class SemiSortedConcurrencyTest {

  /** Three writers, two readers, keys for 90% of the capacity: kicks run under contention. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "semi-sorted?capacity=20000&fingerprintBits=16&concurrency=striped",
      "semi-sorted?capacity=20000&fingerprintBits=13&concurrency=striped",
      "semi-sorted?capacity=20000&fingerprintBits=32&concurrency=striped"})
  void writersAndReadersLoseNothingAndSizeIsExact(String config) throws InterruptedException {
    new ConcurrentUse(config, 3, 2, 6_000, 6, 200_000).run();
  }

  /** Lookups of stored keys while writers relocate fingerprints in a small, nearly full table. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "semi-sorted?capacity=4000&fingerprintBits=16&concurrency=striped",
      "semi-sorted?capacity=4000&fingerprintBits=13&concurrency=striped"})
  void relocationsHideNoStoredKey(String config) throws InterruptedException {
    ConcurrentUse.movesHideNoResident(config, 1, 1, 300_000);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "semi-sorted?capacity=8000&fingerprintBits=16&concurrency=striped",
      "semi-sorted?capacity=8000&fingerprintBits=13&maxKicks=50&concurrency=striped"})
  void addsRefusedUnderContentionLoseNothing(String config) throws InterruptedException {
    ConcurrentUse.fillPastCapacity(config, 3, 1, 1.3);
  }

  /** A minute and more of four writers and four readers on a filter of a million keys. */
  @Test
  @Tag("soak")
  void soak() throws InterruptedException {
    ConcurrentUse.Outcome o = new ConcurrentUse(
        "semi-sorted?capacity=1000000&fingerprintBits=16&concurrency=striped", 4, 4, 200_000, 320, 400_000_000).run();
    System.out.println("semi-sorted soak: " + o);
  }
}
