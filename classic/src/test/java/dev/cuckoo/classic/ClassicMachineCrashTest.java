package dev.cuckoo.classic;

import dev.cuckoo.testkit.MachineCrashContractTest;
import java.util.List;

/** Power cuts under machine-durable classic files: see {@link MachineCrashContractTest}. */
class ClassicMachineCrashTest extends MachineCrashContractTest {
  @Override
  protected List<String> configs() {
    return List.of(
        "classic?capacity=400&fingerprintBits=16&durability=machine",
        "classic?capacity=400&fingerprintBits=12&durability=machine",
        "classic?capacity=800&fingerprintBits=8&shards=2&durability=machine");
  }
}
