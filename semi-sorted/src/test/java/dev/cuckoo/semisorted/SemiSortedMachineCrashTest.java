package dev.cuckoo.semisorted;

import dev.cuckoo.testkit.MachineCrashContractTest;
import java.util.List;

/** Power cuts under machine-durable semi-sorted files: see {@link MachineCrashContractTest}. */
class SemiSortedMachineCrashTest extends MachineCrashContractTest {
  @Override
  protected List<String> configs() {
    return List.of(
        "semi-sorted?capacity=400&fingerprintBits=16&durability=machine",
        "semi-sorted?capacity=400&fingerprintBits=24&durability=machine");
  }
}
