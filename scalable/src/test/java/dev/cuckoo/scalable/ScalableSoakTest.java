package dev.cuckoo.scalable;

import dev.cuckoo.testkit.SoakRun;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * 10^7 random operations on scalable chains against the multiset model ({@link SoakRun}): one
 * that grows (RedisBloom's defaults, then buckets of 4 growing by 2), so that adds past the
 * capacity add sub-filters and removes compact them, and one that never grows (expansion 0),
 * so that adds are refused. Run with {@code ./mvnw -B verify -Psoak}; rerun a seed with {@code
 * -Dcuckoo.test.seed=N}.
 */
@Tag("soak")
class ScalableSoakTest {
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "scalable?capacity=100000",
      "scalable?capacity=200000&bucketSize=4&expansion=2",
      "scalable?capacity=250000&bucketSize=4&expansion=0&maxKicks=500"})
  void tenMillionOperationsKeepTheContract(String config) {
    System.out.println(new SoakRun(config, SoakRun.OPERATIONS).run());
  }
}
