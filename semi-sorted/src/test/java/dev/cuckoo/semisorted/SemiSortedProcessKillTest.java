package dev.cuckoo.semisorted;

import dev.cuckoo.testkit.ProcessKillContractTest;
import java.util.List;

/**
 * Writers of semi-sorted files killed at random moments, buckets rewritten whole across words:
 * see {@link ProcessKillContractTest}.
 */
class SemiSortedProcessKillTest extends ProcessKillContractTest {
  @Override
  protected List<String> configs() {
    return List.of(
        "semi-sorted?capacity=20000&fingerprintBits=16",
        "semi-sorted?capacity=20000&fingerprintBits=24",
        "semi-sorted?capacity=20000&fingerprintBits=12&concurrency=striped");
  }
}
