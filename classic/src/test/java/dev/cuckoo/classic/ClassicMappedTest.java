package dev.cuckoo.classic;

import dev.cuckoo.testkit.MappedFilterContractTest;
import java.util.ArrayList;
import java.util.List;

/** The mapped-file contract over every classic shape: widths 4..32, buckets of 1, 2, 4 and 8. */
class ClassicMappedTest extends MappedFilterContractTest {
  @Override
  protected List<String> shapes() {
    List<String> shapes = new ArrayList<>();
    shapes.add("classic?fingerprintBits=16&bucketSize=4");
    shapes.add("classic?fingerprintBits=8&bucketSize=4");
    for (int slots : new int[] {1, 2, 4, 8}) {
      for (int bits : new int[] {4, 5, 7, 12, 13, 16, 23, 32}) {
        shapes.add("classic?fingerprintBits=" + bits + "&bucketSize=" + slots + "&hash=murmur64a");
      }
    }
    shapes.add("classic?fingerprintBits=12&concurrency=striped");
    shapes.add("classic?fingerprintBits=16&shards=4");
    shapes.add("classic?fingerprintBits=13&bucketSize=2&shards=7");
    return shapes;
  }
}
