package dev.cuckoo.semisorted;

import dev.cuckoo.testkit.SoakRun;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * 10^7 random operations on each of the two semi-sorted widths that matter, the headline 16
 * bits in 15 and the paper's 13 bits in 12, against the multiset model ({@link SoakRun}). Run
 * with {@code ./mvnw -B verify -Psoak}; rerun a seed with {@code -Dcuckoo.test.seed=N}.
 */
@Tag("soak")
class SemiSortedSoakTest {
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "semi-sorted?capacity=1000000&fingerprintBits=16",
      "semi-sorted?capacity=200000&fingerprintBits=13"})
  void tenMillionOperationsKeepTheContract(String config) {
    System.out.println(new SoakRun(config, SoakRun.OPERATIONS).run());
  }
}
