package dev.cuckoo.classic;

import dev.cuckoo.testkit.SoakRun;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * 10^7 random operations on each of several classic shapes against the multiset model ({@link
 * SoakRun}): the fast paths, a packed odd width, the narrowest and widest fingerprints and every
 * bucket size. Run with {@code ./mvnw -B verify -Psoak}; rerun a seed with {@code
 * -Dcuckoo.test.seed=N}.
 */
@Tag("soak")
class ClassicSoakTest {
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "classic?capacity=200000&fingerprintBits=8&bucketSize=4",
      "classic?capacity=1000000&fingerprintBits=16&bucketSize=4",
      "classic?capacity=150000&fingerprintBits=13&bucketSize=2",
      "classic?capacity=4000&fingerprintBits=4&bucketSize=1", // larger ones waste memory and are refused
      "classic?capacity=250000&fingerprintBits=32&bucketSize=8&maxKicks=50"})
  void tenMillionOperationsKeepTheContract(String config) {
    System.out.println(new SoakRun(config, SoakRun.OPERATIONS).run());
  }
}
