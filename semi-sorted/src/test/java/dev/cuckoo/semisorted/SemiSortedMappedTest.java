package dev.cuckoo.semisorted;

import dev.cuckoo.testkit.MappedFilterContractTest;
import java.util.ArrayList;
import java.util.List;

/** The mapped-file contract over semi-sorted widths: each search path's widths, 5 to 32. */
class SemiSortedMappedTest extends MappedFilterContractTest {
  @Override
  protected List<String> shapes() {
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
}
