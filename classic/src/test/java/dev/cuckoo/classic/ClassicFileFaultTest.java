package dev.cuckoo.classic;

import dev.cuckoo.testkit.FileFaultContractTest;
import java.util.List;

/** A full disk, an I/O error or a permission taken away at any write: see {@link FileFaultContractTest}. */
class ClassicFileFaultTest extends FileFaultContractTest {
  @Override
  protected List<String> configs() {
    return List.of(
        "classic?capacity=300&fingerprintBits=16",
        "classic?capacity=300&fingerprintBits=16&concurrency=striped",
        "classic?capacity=600&fingerprintBits=12&shards=2",
        "classic?capacity=300&fingerprintBits=16&durability=machine");
  }
}
