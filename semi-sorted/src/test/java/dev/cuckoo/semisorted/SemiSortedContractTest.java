package dev.cuckoo.semisorted;

import dev.cuckoo.FilterSpec;
import dev.cuckoo.engine.testkit.TableVariantContractTest;
import java.util.ArrayList;
import java.util.List;

/**
 * Every contract suite of the test kits over semi-sorted filters ({@link
 * TableVariantContractTest}): the widths that take different code (5, 8, 9, 13, 16, 17, 32: each
 * lane layout, the paper's 13 and the headline 16, buckets that fit a word exactly or straddle
 * two), striped, split into shards and machine-durable.
 */
class SemiSortedContractTest extends TableVariantContractTest {
  private static final int[] WIDTHS = {5, 8, 9, 13, 16, 17, 32};
  /** 13-bit fingerprints: 48-bit buckets, so the table ends mid-word. */
  static final String SMALL = "semi-sorted?capacity=1010&fingerprintBits=13";

  @Override
  protected String variant() {
    return SemiSortedProvider.NAME;
  }

  /**
   * Every width above, plus a few configs that vary the hash, seed, maxKicks and targetFpp, a few
   * with {@code concurrency=striped}, and a few split into shards.
   */
  @Override
  protected List<String> heapConfigs() {
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

  /** Each table class (widths 16, 6, 13 and 24), striped, and split into shards. */
  @Override
  protected List<String> fileConfigs() {
    return List.of(
        "semi-sorted?capacity=6000&fingerprintBits=16",
        "semi-sorted?capacity=4499&fingerprintBits=6",
        "semi-sorted?capacity=2998&fingerprintBits=13",
        "semi-sorted?capacity=1500&fingerprintBits=24&maxKicks=20",
        "semi-sorted?capacity=2998&fingerprintBits=13&concurrency=striped",
        "semi-sorted?capacity=6000&fingerprintBits=16&shards=4",
        "semi-sorted?capacity=2998&fingerprintBits=16&shards=7&concurrency=striped");
  }

  /** Each search path's widths, 5 to 32. */
  @Override
  protected List<String> mappedShapes() {
    List<String> shapes = new ArrayList<>();
    shapes.add("semi-sorted?fingerprintBits=16");
    for (int bits : new int[] {5, 7, 8, 12, 13, 15, 17, 24, 32}) {
      shapes.add("semi-sorted?fingerprintBits=" + bits + "&hash=murmur64a");
    }
    shapes.add("semi-sorted?fingerprintBits=13&concurrency=striped");
    shapes.add("semi-sorted?fingerprintBits=16&shards=4");
    shapes.add("semi-sorted?fingerprintBits=13&shards=7");
    return shapes;
  }

  /**
   * Every table class, whose buckets are rewritten whole and straddle words (the undo records'
   * case), striped and machine-durable too.
   */
  @Override
  protected List<String> deathConfigs() {
    return List.of(
        "semi-sorted?capacity=300&fingerprintBits=16",
        "semi-sorted?capacity=300&fingerprintBits=6",
        "semi-sorted?capacity=300&fingerprintBits=12",
        "semi-sorted?capacity=300&fingerprintBits=24",
        "semi-sorted?capacity=300&fingerprintBits=16&concurrency=striped",
        "semi-sorted?capacity=300&fingerprintBits=12&durability=machine");
  }

  /** Buckets rewritten whole across words. */
  @Override
  protected List<String> killConfigs() {
    return List.of(
        "semi-sorted?capacity=20000&fingerprintBits=16",
        "semi-sorted?capacity=20000&fingerprintBits=24",
        "semi-sorted?capacity=20000&fingerprintBits=12&concurrency=striped");
  }

  @Override
  protected List<String> crashConfigs() {
    return List.of(
        "semi-sorted?capacity=400&fingerprintBits=16&durability=machine",
        "semi-sorted?capacity=400&fingerprintBits=24&durability=machine");
  }

  @Override
  protected List<String> faultConfigs() {
    return List.of(
        "semi-sorted?capacity=300&fingerprintBits=16",
        "semi-sorted?capacity=300&fingerprintBits=12&durability=machine");
  }

  /** The headline width and an odd one. */
  @Override
  protected List<String> shardedShapes() {
    return List.of("semi-sorted?fingerprintBits=16", "semi-sorted?fingerprintBits=13");
  }

  @Override
  protected String stashFillingShape() {
    return "semi-sorted?capacity=300&fingerprintBits=8&maxKicks=0";
  }

  /**
   * The headline 16-bit and the paper's 13-bit fingerprints (60- and 48-bit buckets, which share
   * words within a stripe) and 32-bit ones, whose buckets are wider than a word.
   */
  @Override
  protected List<String> stripedShapes() {
    return List.of("fingerprintBits=16", "fingerprintBits=13", "fingerprintBits=32", "fingerprintBits=13&maxKicks=50");
  }

  @Override
  protected long tableWords(FilterSpec spec, long buckets) {
    return SemiSortedTable.payloadWords(buckets, spec.fingerprintBits().getAsInt());
  }

  /** 4 billion items of 16 bits in 15: an 8 GB table. */
  @Override
  protected String hugeConfig() {
    return "semi-sorted?capacity=4000000000&fingerprintBits=16";
  }

  /** 1 billion items of 16 bits in 15: a 2 GB table. */
  @Override
  protected String truncatedConfig() {
    return "semi-sorted?capacity=1000000000&fingerprintBits=16";
  }

  @Override
  protected String smallConfig() {
    return SMALL;
  }

  @Override
  protected long[] tableWithOneFingerprint(int words) {
    return oneFingerprint(words);
  }

  /**
   * @param words the longs the table of {@link #SMALL} takes
   * @return a table holding fingerprint 0x1FF5 in bucket 0: the code of nibbles 0, 0, 0, 5 and the
   *     high part 0x1FF in slot 3, at bit 12 + 3·9
   */
  static long[] oneFingerprint(int words) {
    long[] table = new long[words];
    table[0] = SemiSortCodec.encode(0, 0, 0, 5) | 0x1FFL << 39;
    return table;
  }

  @Override
  protected int[] capacityWidths() {
    return new int[] {16, 13};
  }

  /** Semi-sorted filters hold their capacity in at most {@code (f - 1) / 0.95} bits per key. */
  @Override
  protected double bitsPerKeyBound(int bits) {
    return (bits - 1) / 0.95;
  }

  /** The two widths that matter: the headline 16 bits in 15 and the paper's 13 bits in 12. */
  @Override
  protected List<String> soakConfigs() {
    return List.of(
        "semi-sorted?capacity=1000000&fingerprintBits=16",
        "semi-sorted?capacity=200000&fingerprintBits=13");
  }
}
