package dev.cuckoo.semisorted;

import dev.cuckoo.testkit.ShardedFilterContractTest;
import java.util.List;

/** The sharded contract over the headline width and an odd one. */
class SemiSortedShardsTest extends ShardedFilterContractTest {
  @Override
  protected List<String> shapes() {
    return List.of("semi-sorted?fingerprintBits=16", "semi-sorted?fingerprintBits=13");
  }

  @Override
  protected String stashFillingShape() {
    return "semi-sorted?capacity=300&fingerprintBits=8&maxKicks=0";
  }
}
