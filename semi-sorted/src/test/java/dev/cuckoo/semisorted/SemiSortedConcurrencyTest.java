package dev.cuckoo.semisorted;

import dev.cuckoo.testkit.StripedConcurrencyContractTest;
import java.util.List;

/**
 * Semi-sorted filters with {@code concurrency=striped} shared by writer and reader threads: the
 * headline 16-bit and the paper's 13-bit fingerprints (60- and 48-bit buckets, which share words
 * within a stripe) and 32-bit ones, whose buckets are wider than a word.
 */
class SemiSortedConcurrencyTest extends StripedConcurrencyContractTest {

  @Override
  protected String variant() {
    return "semi-sorted";
  }

  @Override
  protected List<String> shapes() {
    return List.of("fingerprintBits=16", "fingerprintBits=13", "fingerprintBits=32", "fingerprintBits=13&maxKicks=50");
  }
}
