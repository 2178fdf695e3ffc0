package dev.cuckoo.classic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.ShardRouter;
import dev.cuckoo.engine.CuckooSizing;
import dev.cuckoo.engine.PartialKeyHashing;
import dev.cuckoo.testkit.ShardedFilterContractTest;
import dev.cuckoo.testkit.TestSeed;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The sharded contract over the fast paths (8 and 16 bits in buckets of 4) and packed shapes. */
class ClassicShardsTest extends ShardedFilterContractTest {
  @Override
  protected List<String> shapes() {
    return List.of("classic?fingerprintBits=12", "classic?fingerprintBits=16", "classic?fingerprintBits=8",
        "classic?fingerprintBits=13&bucketSize=2");
  }

  @Override
  protected String stashFillingShape() {
    return "classic?capacity=300&fingerprintBits=8&bucketSize=1&maxKicks=0";
  }

  /** The router in the API names the shard the engine's layout does. */
  @Test
  void theRoutersShardIsTheLayoutsShard() {
    SplittableRandom r = TestSeed.random("router");
    for (int shards : new int[] {1, 2, 7, 4096, 1 << 20}) {
      ShardRouter router = CuckooFilters.keyHasher("classic?capacity=10000000&shards=" + shards);
      assertEquals(shards, router.shards());
      for (int i = 0; i < 10_000; i++) {
        long h = i < 3 ? new long[] {0, -1, Long.MIN_VALUE}[i] : r.nextLong();
        assertEquals(PartialKeyHashing.bucketIndex(h, shards), router.shardOf(h), "hash " + h + TestSeed.rerun());
      }
      byte[] key = {1, 2, 3};
      assertEquals(CuckooFilters.hash("xxh3").hashBytes(key, 0, 3), router.hash(key));
    }
  }

  /** Shards are sized with slack: a capacity one unsharded array holds may not fit in shards. */
  @Test
  void aShardedTableTooLargeForOneArrayIsRefusedOnTheHeapNamingFiles() {
    long max = ClassicProvider.maxCapacity(4, 32);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.create("classic?fingerprintBits=32&capacity=" + max + "&shards=3"));
    assertTrue(e.getMessage().contains("3 shards") && e.getMessage().contains("createFile"), e.getMessage());
  }

  /** The joined file may be past any array; each shard is built on one heap. */
  @Test
  void aShardLargerThanOneArrayIsRefusedNamingAShardCountThatFits() {
    long max = ClassicProvider.maxCapacity(4, 32);
    String config = "classic?fingerprintBits=32&capacity=" + 3 * max + "&shards=2";
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.createShard(config, 0));
    assertTrue(e.getMessage().contains("shards=4 or more"), e.getMessage());
    assertEquals(2, CuckooFilters.keyHasher(config).shards(), "the spec itself is valid: a file holds it");
  }

  /** A fingerprint means something only at its bucket, and shards move the alternate: no merge across. */
  @Test
  void filtersOfAnotherShardCountDoNotMergeEvenWithAsManyBuckets() {
    long buckets = CuckooSizing.bucketCount(100_000, 4, 12, 4);
    long capacity = (long) (buckets * 4 * CuckooSizing.designLoad(4));
    while (CuckooSizing.bucketCount(capacity, 4, 12) < buckets) {
      capacity++;
    }
    while (CuckooSizing.bucketCount(capacity, 4, 12) > buckets) {
      capacity--;
    }
    assertEquals(buckets, CuckooSizing.bucketCount(capacity, 4, 12));
    CuckooFilter plain = CuckooFilters.create("classic?capacity=" + capacity);
    CuckooFilter sharded = CuckooFilters.create("classic?capacity=100000&shards=4");
    for (int k = 0; k < 1000; k++) {
      sharded.add("key-" + k);
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> plain.addAll(sharded));
    assertTrue(e.getMessage().contains("shards"), e.getMessage());
    assertEquals(0, plain.size());
  }
}
