package dev.cuckoo.classic;

import dev.cuckoo.FilterSpec;
import dev.cuckoo.engine.testkit.TableVariantContractTest;
import java.util.ArrayList;
import java.util.List;

/**
 * Every contract suite of the test kits over classic filters ({@link TableVariantContractTest}):
 * the widths that take different code (4, 7, 8, 12, 13, 16, 24, 32: the fast paths, byte-aligned
 * and odd widths, lanes that cross words) in every bucket size, striped, split into shards and
 * machine-durable.
 */
class ClassicContractTest extends TableVariantContractTest {
  private static final int[] WIDTHS = {4, 7, 8, 12, 13, 16, 24, 32};
  private static final int[] BUCKET_SIZES = {1, 2, 4, 8};

  @Override
  protected String variant() {
    return ClassicProvider.NAME;
  }

  /**
   * Every width above in every bucket size, plus a few configs that vary the hash, seed, maxKicks
   * and targetFpp, a few with {@code concurrency=striped}, and a few split into shards.
   */
  @Override
  protected List<String> heapConfigs() {
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

  /**
   * A shape of each table class (8-bit and 16-bit buckets of 4, packed slots that cross words,
   * buckets of 1 and 8), striped, and split into shards.
   */
  @Override
  protected List<String> fileConfigs() {
    return List.of(
        "classic?capacity=4499&fingerprintBits=8",
        "classic?capacity=6000&fingerprintBits=16",
        "classic?capacity=2998&fingerprintBits=13&bucketSize=2",
        "classic?capacity=1500&fingerprintBits=12&bucketSize=8&maxKicks=20",
        "classic?capacity=5997&fingerprintBits=7&bucketSize=1",
        "classic?capacity=6000&fingerprintBits=16&concurrency=striped",
        "classic?capacity=4499&fingerprintBits=13&bucketSize=2&shards=7",
        "classic?capacity=5000&fingerprintBits=8&shards=7&concurrency=striped");
  }

  /** Every classic shape: widths 4..32, buckets of 1, 2, 4 and 8. */
  @Override
  protected List<String> mappedShapes() {
    List<String> shapes = new ArrayList<>();
    shapes.add("classic?fingerprintBits=16&bucketSize=4");
    shapes.add("classic?fingerprintBits=8&bucketSize=4");
    for (int slots : BUCKET_SIZES) {
      for (int bits : new int[] {4, 5, 7, 12, 13, 16, 23, 32}) {
        shapes.add("classic?fingerprintBits=" + bits + "&bucketSize=" + slots + "&hash=murmur64a");
      }
    }
    shapes.add("classic?fingerprintBits=12&concurrency=striped");
    shapes.add("classic?fingerprintBits=16&shards=4");
    shapes.add("classic?fingerprintBits=13&bucketSize=2&shards=7");
    return shapes;
  }

  /** Every table class of classic, striped, sharded and machine-durable too. */
  @Override
  protected List<String> deathConfigs() {
    return List.of(
        "classic?capacity=600&fingerprintBits=16",
        "classic?capacity=600&fingerprintBits=8",
        "classic?capacity=600&fingerprintBits=12",
        "classic?capacity=600&fingerprintBits=13&bucketSize=2",
        "classic?capacity=600&fingerprintBits=24&bucketSize=8",
        "classic?capacity=600&fingerprintBits=16&concurrency=striped",
        "classic?capacity=800&fingerprintBits=12&shards=2",
        "classic?capacity=600&fingerprintBits=16&durability=machine");
  }

  @Override
  protected List<String> killConfigs() {
    return List.of(
        "classic?capacity=20000&fingerprintBits=16",
        "classic?capacity=20000&fingerprintBits=12",
        "classic?capacity=20000&fingerprintBits=8&concurrency=striped",
        "classic?capacity=20000&fingerprintBits=16&shards=3");
  }

  @Override
  protected List<String> crashConfigs() {
    return List.of(
        "classic?capacity=400&fingerprintBits=16&durability=machine",
        "classic?capacity=400&fingerprintBits=12&durability=machine",
        "classic?capacity=800&fingerprintBits=8&shards=2&durability=machine");
  }

  @Override
  protected List<String> faultConfigs() {
    return List.of(
        "classic?capacity=300&fingerprintBits=16",
        "classic?capacity=300&fingerprintBits=16&concurrency=striped",
        "classic?capacity=600&fingerprintBits=12&shards=2",
        "classic?capacity=300&fingerprintBits=16&durability=machine");
  }

  /** The fast paths (8 and 16 bits in buckets of 4) and packed shapes. */
  @Override
  protected List<String> shardedShapes() {
    return List.of("classic?fingerprintBits=12", "classic?fingerprintBits=16", "classic?fingerprintBits=8",
        "classic?fingerprintBits=13&bucketSize=2");
  }

  @Override
  protected String stashFillingShape() {
    return "classic?capacity=300&fingerprintBits=8&bucketSize=1&maxKicks=0";
  }

  /**
   * The two fast paths (8- and 16-bit fingerprints) and packed 12-bit slots, where a stripe spans
   * buckets that share words.
   */
  @Override
  protected List<String> stripedShapes() {
    return List.of("fingerprintBits=8", "fingerprintBits=12", "fingerprintBits=16", "fingerprintBits=12&bucketSize=2",
        "fingerprintBits=12&bucketSize=2&maxKicks=50");
  }

  @Override
  protected long tableWords(FilterSpec spec, long buckets) {
    return BucketTable.payloadWords(buckets, spec.bucketSize().getAsInt(), spec.fingerprintBits().getAsInt());
  }

  /** 30 billion items of 4 bits in buckets of 8: a 16 GiB table. */
  @Override
  protected String hugeConfig() {
    return "classic?capacity=30000000000&fingerprintBits=4&bucketSize=8";
  }

  /** 4 billion items of 4 bits in buckets of 4: a 2 GiB table. */
  @Override
  protected String truncatedConfig() {
    return "classic?capacity=4000000000&fingerprintBits=4&bucketSize=4";
  }

  /** 12-bit slots: 48-bit buckets, so the table ends mid-word. */
  @Override
  protected String smallConfig() {
    return "classic?capacity=1010&fingerprintBits=12&bucketSize=4";
  }

  /** Fingerprint 0x123 in slot 0 of bucket 0. */
  @Override
  protected long[] tableWithOneFingerprint(int words) {
    long[] table = new long[words];
    table[0] = 0x123;
    return table;
  }

  @Override
  protected int[] capacityWidths() {
    return new int[] {8, 12, 16, 13};
  }

  /** Buckets of 4 hold their capacity in at most {@code f / 0.95} bits per key. */
  @Override
  protected double bitsPerKeyBound(int bits) {
    return bits / 0.95;
  }

  /**
   * The fast paths, a packed odd width, the narrowest and widest fingerprints and every bucket
   * size.
   */
  @Override
  protected List<String> soakConfigs() {
    return List.of(
        "classic?capacity=200000&fingerprintBits=8&bucketSize=4",
        "classic?capacity=1000000&fingerprintBits=16&bucketSize=4",
        "classic?capacity=150000&fingerprintBits=13&bucketSize=2",
        "classic?capacity=4000&fingerprintBits=4&bucketSize=1", // larger ones waste memory and are refused
        "classic?capacity=250000&fingerprintBits=32&bucketSize=8&maxKicks=50");
  }
}
