package dev.cuckoo.semisorted;

import dev.cuckoo.testkit.FileFaultContractTest;
import java.util.List;

/** A full disk, an I/O error or a permission taken away at any write: see {@link FileFaultContractTest}. */
class SemiSortedFileFaultTest extends FileFaultContractTest {
  @Override
  protected List<String> configs() {
    return List.of(
        "semi-sorted?capacity=300&fingerprintBits=16",
        "semi-sorted?capacity=300&fingerprintBits=12&durability=machine");
  }
}
