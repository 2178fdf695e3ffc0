package dev.cuckoo.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import org.junit.jupiter.api.Test;

/** The shard count a build picks: no task holds more than its share, and every core builds. */
class ShardPlanTest {

  private static ShardPlan plan(String config, int parallelism) {
    return ShardPlan.of(FilterSpec.parse(config), parallelism, KeyColumn.LONG);
  }

  @Test
  void aLargeFilterIsSplitSoThatAShardsTableAndKeysStaySmall() {
    for (String config : new String[] {"classic?capacity=100000000&targetFpp=0.001",
        "classic?capacity=10000000000&fingerprintBits=12", "semi-sorted?capacity=1000000000&targetFpp=0.0001",
        "classic?capacity=3000000000&fingerprintBits=32"}) {
      ShardPlan plan = plan(config, 2);
      long capacity = FilterSpec.parse(config).capacity().orElseThrow();
      long tableBytes = CuckooFilters.createShard(plan.config, 0).tableBytes();
      assertTrue(tableBytes <= ShardPlan.SHARD_TABLE_BYTES, config + ": a shard's table is " + tableBytes);
      assertTrue(capacity / plan.shards <= ShardPlan.SHARD_KEYS, config + ": " + plan.shards + " shards");
      assertEquals(Integer.toString(plan.shards), FilterSpec.parse(plan.config).option(FilterSpec.SHARDS).orElseThrow());
    }
  }

  @Test
  void aSmallFilterStillGetsAShardPerCore() {
    assertEquals(8, plan("classic?capacity=1000", 8).shards);
    assertEquals(1, plan("classic?capacity=1000", 1).shards);
  }

  @Test
  void theConfigsShardsAreKept() {
    assertEquals(7, plan("classic?capacity=100000000&shards=7", 2).shards);
  }
}
