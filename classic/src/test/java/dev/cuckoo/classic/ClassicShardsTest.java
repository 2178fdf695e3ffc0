package dev.cuckoo.classic;

import dev.cuckoo.testkit.ShardedFilterContractTest;
import java.util.List;

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
}
