package dev.cuckoo.exact;

import dev.cuckoo.FilterSpec;
import dev.cuckoo.testkit.CuckooFilterContractTest;
import java.util.List;

/** Runs the contract test kit against the exact test-only variant, proving the kit itself. */
class ExactContractTest extends CuckooFilterContractTest {
  @Override
  protected String variant() {
    return ExactProvider.NAME;
  }

  /** A hash map of counts: it allocates boxes and entries. */
  @Override
  protected boolean allocationFree(FilterSpec spec) {
    return false;
  }

  @Override
  protected List<String> configs() {
    return List.of("exact?capacity=100", "exact?capacity=5000&spare=3&flavour=salted");
  }
}
