package dev.cuckoo.semisorted;

import java.util.List;

/**
 * The contract test kit over tables mapped from files ({@link
 * dev.cuckoo.CuckooFilters#createFile}): the same table classes as on the heap, over the other
 * storage, for each table class (widths 16, 6, 13 and 24), striped, and split into shards.
 */
class SemiSortedMappedContractTest extends SemiSortedContractTest {

  @Override
  protected boolean inFiles() {
    return true;
  }

  @Override
  protected List<String> configs() {
    return List.of(
        "semi-sorted?capacity=6000&fingerprintBits=16",
        "semi-sorted?capacity=4499&fingerprintBits=6",
        "semi-sorted?capacity=2998&fingerprintBits=13",
        "semi-sorted?capacity=1500&fingerprintBits=24&maxKicks=20",
        "semi-sorted?capacity=2998&fingerprintBits=13&concurrency=striped",
        "semi-sorted?capacity=6000&fingerprintBits=16&shards=4",
        "semi-sorted?capacity=2998&fingerprintBits=16&shards=7&concurrency=striped");
  }
}
