package dev.cuckoo.semisorted;

import dev.cuckoo.testkit.ProcessDeathContractTest;
import java.util.List;

/**
 * Every semi-sorted table class, whose buckets are rewritten whole and straddle words (the undo
 * records' case), striped and machine-durable too: see {@link ProcessDeathContractTest}.
 */
class SemiSortedProcessDeathTest extends ProcessDeathContractTest {
  @Override
  protected List<String> configs() {
    return List.of(
        "semi-sorted?capacity=300&fingerprintBits=16",
        "semi-sorted?capacity=300&fingerprintBits=6",
        "semi-sorted?capacity=300&fingerprintBits=12",
        "semi-sorted?capacity=300&fingerprintBits=24",
        "semi-sorted?capacity=300&fingerprintBits=16&concurrency=striped",
        "semi-sorted?capacity=300&fingerprintBits=12&durability=machine");
  }
}
