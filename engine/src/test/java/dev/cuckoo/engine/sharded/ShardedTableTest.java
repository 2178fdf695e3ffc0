package dev.cuckoo.engine.sharded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.engine.CuckooSizing;
import dev.cuckoo.engine.PartialKeyHashing;
import dev.cuckoo.engine.testkit.ArrayTable;
import dev.cuckoo.testkit.TestSeed;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ShardedTableTest {
  private static final long[] EDGE_HASHES = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1,
      Long.MAX_VALUE - 1, 0x5555_5555_5555_5555L, 0xAAAA_AAAA_AAAA_AAAAL};

  /** floor(floor(x·m / 2^63) / m_s) = floor(x·S / 2^63) for m = S·m_s: a key's shard is its first bucket's. */
  @Test
  void aKeysShardIsItsFirstBucketsShard() {
    SplittableRandom r = TestSeed.random("shard of");
    int[] shardCounts = {1, 2, 3, 7, 64, 1000, 4099, CuckooSizing.MAX_SHARDS};
    long[] shardBuckets = {64, 128, 6400, 1L << 20, 1L << 40};
    for (int shards : shardCounts) {
      for (long perShard : shardBuckets) {
        if (perShard > ((1L << 62) - 1) / shards) {
          continue;
        }
        long buckets = shards * perShard;
        String shape = shards + " shards of " + perShard + " buckets, ";
        for (int i = 0; i < 5_000 + EDGE_HASHES.length; i++) {
          long h = i < EDGE_HASHES.length ? EDGE_HASHES[i] : r.nextLong();
          assertShardOfFirstBucket(h, shards, perShard, buckets, shape);
        }
        // Hashes at either side of a boundary between shards: x = (h >>> 1) at ceil(s·2^63 / S).
        for (int n = 0; n < 20; n++) {
          long s = 1L + r.nextInt(Math.max(1, shards - 1));
          long x = BigInteger.valueOf(s).shiftLeft(63).add(BigInteger.valueOf(shards - 1))
              .divide(BigInteger.valueOf(shards)).longValue();
          for (long dx = -2; dx <= 2; dx++) {
            long h = (x + dx) << 1;
            assertShardOfFirstBucket(h, shards, perShard, buckets, shape);
            assertShardOfFirstBucket(h | 1, shards, perShard, buckets, shape);
          }
        }
      }
    }
  }

  private static void assertShardOfFirstBucket(long h, int shards, long perShard, long buckets, String shape) {
    long first = PartialKeyHashing.bucketIndex(h, buckets);
    assertEquals(first / perShard, PartialKeyHashing.bucketIndex(h, shards),
        "hash " + h + ", " + shape + TestSeed.rerun());
  }

  @Test
  void theAlternateIsAnInvolutionWithinTheShardAndTheOldOneForOneShard() {
    SplittableRandom r = TestSeed.random("sharded alternate");
    for (int shards : new int[] {1, 2, 7, 64}) {
      long perShard = 64L * (1 + r.nextInt(200));
      ShardedTable whole = ShardedTable.whole(new ArrayTable(shards * perShard, 4), shards, 16, 1L << 40);
      for (int i = 0; i < 20_000; i++) {
        long bucket = r.nextLong(shards * perShard);
        int fp = 1 + r.nextInt(0xFFFF);
        long alternate = whole.alternate(bucket, fp);
        String at = "bucket " + bucket + ", fingerprint " + fp + ", " + shards + " x " + perShard + ", "
            + TestSeed.rerun();
        assertEquals(bucket / perShard, alternate / perShard, at);
        assertNotEquals(bucket, alternate, at);
        assertEquals(bucket, whole.alternate(alternate, fp), at);
        long base = bucket / perShard * perShard;
        assertEquals(base + PartialKeyHashing.alternateBucket(bucket - base, fp, perShard), alternate, at);
        if (shards == 1) {
          assertEquals(PartialKeyHashing.alternateBucket(bucket, fp, perShard), alternate, at);
        }
      }
    }
  }

  @Test
  void aLoneShardPlacesKeysAsTheWholeTableDoes() {
    SplittableRandom r = TestSeed.random("lone shard");
    int shards = 7;
    long perShard = 640;
    ShardedTable whole = ShardedTable.whole(new ArrayTable(shards * perShard, 4), shards, 16, 0);
    for (int index = 0; index < shards; index++) {
      ArrayTable own = new ArrayTable(perShard, 4);
      ShardedTable lone = ShardedTable.shard(own, shards, index, 16, 0);
      assertEquals(index * perShard, lone.firstBucket());
      for (int i = 0; i < 5_000; i++) {
        long h = r.nextLong();
        if (lone.shardOf(h) != index) {
          continue;
        }
        long bucket = lone.bucketIndex(h);
        int fp = lone.fingerprint(h);
        assertEquals(whole.bucketIndex(h), bucket);
        assertEquals(whole.alternate(bucket, fp), lone.alternate(bucket, fp));
        assertTrue(lone.insert(bucket, fp));
        assertTrue(lone.containsHash(h), TestSeed.rerun());
        assertTrue(own.count(bucket - index * perShard, lone.alternate(bucket, fp) - index * perShard, fp) > 0);
        assertTrue(lone.remove(bucket, fp));
      }
    }
  }

  @Test
  void shardsAreSizedForTheirShareAndSlackInWholeWords() {
    for (int shards : new int[] {2, 3, 100, 4096}) {
      for (long capacity : new long[] {1, 1000, 123_457, 10_000_000}) {
        long perShard = CuckooSizing.shardBucketCount(capacity, 4, 16, shards);
        assertEquals(0, perShard % CuckooSizing.SHARD_BUCKET_MULTIPLE);
        double share = (double) capacity / shards;
        assertTrue(perShard * 4 * 0.965 >= share + 7 * Math.sqrt(share) - 1, shards + " x " + perShard);
        assertEquals(shards * perShard, CuckooSizing.bucketCount(capacity, 4, 16, shards));
      }
    }
    for (long capacity : new long[] {1, 1000, 123_457}) {
      assertEquals(CuckooSizing.bucketCount(capacity, 4, 12), CuckooSizing.bucketCount(capacity, 4, 12, 1));
      assertEquals(CuckooSizing.bucketCountForNewTable(capacity, 2, 12, 32),
          CuckooSizing.bucketCountForNewTable(capacity, 2, 12, 32, 1));
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CuckooSizing.bucketCount(1000, 4, 16, CuckooSizing.MAX_SHARDS + 1));
    assertTrue(e.getMessage().contains("shards=1048577") && e.getMessage().contains("1..1048576"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> CuckooSizing.bucketCount(1000, 4, 16, 0));
  }
}
