package dev.cuckoo.classic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.testkit.ConcurrentUse;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Classic filters with {@code concurrency=striped} shared by writer and reader threads: the two
 * fast paths (8- and 16-bit fingerprints) and packed 12-bit slots, where a stripe spans buckets
 * that share words.
 */
class ClassicConcurrencyTest {

  @Test
  void theOptionIsCheckedKeptInTheSpecAndReadBackFromTheFile() throws IOException {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.create("classic?capacity=1000&concurrency=locked"));
    assertEquals("concurrency=locked is out of range for variant classic: none, striped", e.getMessage());
    CuckooFilter f = CuckooFilters.create("classic?capacity=1000&concurrency=striped");
    assertEquals("striped", f.spec().option("concurrency").orElseThrow());
    assertEquals(f.spec(), CuckooFilters.create(f.spec().toString()).spec());
    f.add("x");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    CuckooFilter back = CuckooFilters.read(new ByteArrayInputStream(out.toByteArray()));
    assertEquals(f.spec(), back.spec());
    assertEquals("none", CuckooFilters.create("classic?capacity=1000").spec().option("concurrency").orElseThrow());
  }

  /** Three writers, two readers, keys for 90% of the capacity: kicks run under contention. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "classic?capacity=20000&fingerprintBits=8&concurrency=striped",
      "classic?capacity=20000&fingerprintBits=12&concurrency=striped",
      "classic?capacity=20000&fingerprintBits=16&concurrency=striped",
      "classic?capacity=20000&fingerprintBits=12&bucketSize=2&concurrency=striped"})
  void writersAndReadersLoseNothingAndSizeIsExact(String config) throws InterruptedException {
    new ConcurrentUse(config, 3, 2, 6_000, 6, 200_000).run();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "classic?capacity=8000&fingerprintBits=8&concurrency=striped",
      "classic?capacity=8000&fingerprintBits=16&concurrency=striped",
      "classic?capacity=8000&fingerprintBits=12&bucketSize=2&maxKicks=50&concurrency=striped"})
  void addsRefusedUnderContentionLoseNothing(String config) throws InterruptedException {
    ConcurrentUse.fillPastCapacity(config, 3, 1, 1.3);
  }

  /** Lookups of stored keys while writers relocate fingerprints in a small, nearly full table. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "classic?capacity=4000&fingerprintBits=8&concurrency=striped",
      "classic?capacity=4000&fingerprintBits=16&concurrency=striped",
      "classic?capacity=4000&fingerprintBits=12&bucketSize=2&concurrency=striped"})
  void relocationsHideNoStoredKey(String config) throws InterruptedException {
    ConcurrentUse.movesHideNoResident(config, 1, 1, 300_000);
  }

  /** A minute and more of four writers and four readers on a filter of a million keys. */
  @Test
  @Tag("soak")
  void soak() throws InterruptedException {
    ConcurrentUse.Outcome o = new ConcurrentUse(
        "classic?capacity=1000000&fingerprintBits=16&concurrency=striped", 4, 4, 200_000, 320, 400_000_000).run();
    System.out.println("classic soak: " + o);
  }
}
