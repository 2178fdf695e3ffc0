package dev.cuckoo.classic;

import dev.cuckoo.testkit.ProcessKillContractTest;
import java.util.List;

/** Writers of classic files killed at random moments: see {@link ProcessKillContractTest}. */
class ClassicProcessKillTest extends ProcessKillContractTest {
  @Override
  protected List<String> configs() {
    return List.of(
        "classic?capacity=20000&fingerprintBits=16",
        "classic?capacity=20000&fingerprintBits=12",
        "classic?capacity=20000&fingerprintBits=8&concurrency=striped",
        "classic?capacity=20000&fingerprintBits=16&shards=3");
  }
}
