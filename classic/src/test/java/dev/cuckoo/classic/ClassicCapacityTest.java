package dev.cuckoo.classic;

import dev.cuckoo.engine.testkit.CapacityPromiseContractTest;

/** Classic filters with buckets of 4 hold their capacity in at most {@code f / 0.95} bits per key. */
class ClassicCapacityTest extends CapacityPromiseContractTest {
  @Override
  protected String config(long capacity, int bits, long seed) {
    return "classic?capacity=" + capacity + "&fingerprintBits=" + bits + "&bucketSize=4&seed=" + seed;
  }

  @Override
  protected double bitsPerKeyBound(int bits) {
    return bits / 0.95;
  }

  @Override
  protected int[] widthsSource() {
    return new int[] {8, 12, 16, 13};
  }
}
