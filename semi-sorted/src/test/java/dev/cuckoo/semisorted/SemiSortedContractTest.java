package dev.cuckoo.semisorted;

import dev.cuckoo.engine.testkit.TableFilterContractTest;
import java.util.ArrayList;
import java.util.List;

/**
 * The contract test kit over the widths that take different code (5, 8, 9, 13, 16, 17, 32: each lane
 * layout, the paper's 13 and the headline 16, buckets that fit a word exactly or straddle two),
 * plus a few configs that vary the hash, seed, maxKicks and targetFpp, and a few with {@code
 * concurrency=striped}.
 */
class SemiSortedContractTest extends TableFilterContractTest {
  private static final int[] WIDTHS = {5, 8, 9, 13, 16, 17, 32};

  @Override
  protected String variant() {
    return SemiSortedProvider.NAME;
  }

  @Override
  protected List<String> configs() {
    List<String> configs = new ArrayList<>();
    int i = 0;
    for (int bits : WIDTHS) {
      long capacity = spreadCapacity(i++);
      configs.add("semi-sorted?capacity=" + capacity + "&fingerprintBits=" + bits);
    }
    configs.add("semi-sorted?capacity=20000");
    configs.add("semi-sorted?capacity=12345&fingerprintBits=13&hash=murmur3&seed=0x9e3779b97f4a7c15");
    configs.add("semi-sorted?capacity=7777&targetFpp=0.001&bucketSize=4&hash=wyhash&seed=42");
    configs.add("semi-sorted?capacity=5000&fingerprintBits=8&maxKicks=20");
    configs.add("semi-sorted?capacity=1&fingerprintBits=6");
    // Thread-safe filters, run by one thread here: the headline and the paper's widths,
    // 16-bucket stripe blocks (60-bit buckets) and buckets wider than a word.
    configs.add("semi-sorted?capacity=6000&fingerprintBits=16&concurrency=striped");
    configs.add("semi-sorted?capacity=2998&fingerprintBits=13&concurrency=striped");
    configs.add("semi-sorted?capacity=1500&fingerprintBits=5&concurrency=striped");
    configs.add("semi-sorted?capacity=4499&fingerprintBits=32&maxKicks=20&concurrency=striped");
    // Sharded tables (shards=S): the headline width and an odd one, striped too.
    configs.add("semi-sorted?capacity=6000&fingerprintBits=16&shards=4");
    configs.add("semi-sorted?capacity=4499&fingerprintBits=13&shards=7");
    configs.add("semi-sorted?capacity=2998&fingerprintBits=16&shards=7&concurrency=striped");
    return configs;
  }
}
