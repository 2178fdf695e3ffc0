package dev.cuckoo.classic;

import dev.cuckoo.testkit.ProcessDeathContractTest;
import java.util.List;

/** Every table class of classic, striped, sharded and machine-durable too: see {@link ProcessDeathContractTest}. */
class ClassicProcessDeathTest extends ProcessDeathContractTest {
  @Override
  protected List<String> configs() {
    return List.of(
        "classic?capacity=600&fingerprintBits=16",
        "classic?capacity=600&fingerprintBits=8",
        "classic?capacity=600&fingerprintBits=12",
        "classic?capacity=600&fingerprintBits=13&bucketSize=2",
        "classic?capacity=600&fingerprintBits=24&bucketSize=8",
        "classic?capacity=600&fingerprintBits=16&concurrency=striped",
        "classic?capacity=800&fingerprintBits=12&shards=2",
        "classic?capacity=600&fingerprintBits=16&durability=machine");
  }
}
