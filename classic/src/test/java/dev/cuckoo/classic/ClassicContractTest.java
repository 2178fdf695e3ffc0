package dev.cuckoo.classic;

import dev.cuckoo.engine.testkit.TableFilterContractTest;
import java.util.ArrayList;
import java.util.List;

/**
 * The contract test kit over the fingerprint widths that take different code (4, 7, 8, 12, 13, 16,
 * 24, 32: the fast paths, byte-aligned and odd widths, lanes that cross words) and every bucket
 * size, plus a few configs that vary the hash, seed, maxKicks and targetFpp, and a few with
 * {@code concurrency=striped}, and a few split into shards.
 */
class ClassicContractTest extends TableFilterContractTest {
  private static final int[] WIDTHS = {4, 7, 8, 12, 13, 16, 24, 32};
  private static final int[] BUCKET_SIZES = {1, 2, 4, 8};

  @Override
  protected String variant() {
    return ClassicProvider.NAME;
  }

  @Override
  protected List<String> configs() {
    List<String> configs = new ArrayList<>();
    int i = 0;
    for (int bits : WIDTHS) {
      for (int slots : BUCKET_SIZES) {
        long capacity = spreadCapacity(i++);
        configs.add("classic?capacity=" + capacity + "&fingerprintBits=" + bits + "&bucketSize=" + slots);
      }
    }
    configs.add("classic?capacity=20000");
    configs.add("classic?capacity=12345&fingerprintBits=16&hash=murmur3&seed=0x9e3779b97f4a7c15");
    configs.add("classic?capacity=7777&targetFpp=0.001&bucketSize=8&hash=wyhash&seed=42");
    configs.add("classic?capacity=5000&fingerprintBits=8&maxKicks=20");
    configs.add("classic?capacity=1&fingerprintBits=13&bucketSize=1");
    // Thread-safe filters, run by one thread here: the fast paths, packed slots that cross
    // words (so stripes span several buckets) and a short kick path that fills the stash.
    configs.add("classic?capacity=6000&fingerprintBits=16&concurrency=striped");
    configs.add("classic?capacity=4499&fingerprintBits=8&concurrency=striped");
    configs.add("classic?capacity=2998&fingerprintBits=13&bucketSize=2&concurrency=striped");
    configs.add("classic?capacity=1500&fingerprintBits=4&bucketSize=1&concurrency=striped");
    configs.add("classic?capacity=5000&fingerprintBits=12&bucketSize=8&maxKicks=20&concurrency=striped");
    // Sharded tables (shards=S): keys and their alternates within a shard, a power of two of
    // shards and an odd count, a fast-path width and a packed one, striped too.
    configs.add("classic?capacity=6000&fingerprintBits=16&shards=4");
    configs.add("classic?capacity=4499&fingerprintBits=13&bucketSize=2&shards=7");
    configs.add("classic?capacity=5000&fingerprintBits=8&shards=7&concurrency=striped");
    return configs;
  }
}
