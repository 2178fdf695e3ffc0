package dev.cuckoo.classic;

import java.util.List;

/**
 * The contract test kit over tables mapped from files ({@link
 * dev.cuckoo.CuckooFilters#createFile}): the same table classes as on the heap, over the other
 * storage, for a shape of each table class (8-bit and 16-bit buckets of 4, packed slots that cross
 * words, buckets of 1 and 8), striped, and split into shards.
 */
class ClassicMappedContractTest extends ClassicContractTest {

  @Override
  protected boolean inFiles() {
    return true;
  }

  @Override
  protected List<String> configs() {
    return List.of(
        "classic?capacity=4499&fingerprintBits=8",
        "classic?capacity=6000&fingerprintBits=16",
        "classic?capacity=2998&fingerprintBits=13&bucketSize=2",
        "classic?capacity=1500&fingerprintBits=12&bucketSize=8&maxKicks=20",
        "classic?capacity=5997&fingerprintBits=7&bucketSize=1",
        "classic?capacity=6000&fingerprintBits=16&concurrency=striped",
        "classic?capacity=4499&fingerprintBits=13&bucketSize=2&shards=7",
        "classic?capacity=5000&fingerprintBits=8&shards=7&concurrency=striped");
  }
}
