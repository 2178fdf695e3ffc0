package dev.cuckoo.semisorted;

import dev.cuckoo.engine.testkit.CapacityPromiseContractTest;

/** Semi-sorted filters hold their capacity in at most {@code (f - 1) / 0.95} bits per key. */
class SemiSortedCapacityTest extends CapacityPromiseContractTest {
  @Override
  protected String config(long capacity, int bits, long seed) {
    return "semi-sorted?capacity=" + capacity + "&fingerprintBits=" + bits + "&seed=" + seed;
  }

  @Override
  protected double bitsPerKeyBound(int bits) {
    return (bits - 1) / 0.95;
  }

  @Override
  protected int[] widthsSource() {
    return new int[] {16, 13};
  }
}
