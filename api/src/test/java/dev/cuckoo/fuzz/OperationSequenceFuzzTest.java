package dev.cuckoo.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cuckoo.testkit.OperationSequence;

/**
 * Proves {@link OperationSequence} on the exact test-only variant: any byte string is a valid
 * sequence of operations, and the filter must keep the contract through all of it.
 */
class OperationSequenceFuzzTest {
  private static final OperationSequence EXACT = new OperationSequence("exact?capacity=40");

  @FuzzTest(maxDuration = "30s")
  void operations(byte[] program) {
    if (program != null) {
      EXACT.run(program);
    }
  }
}
