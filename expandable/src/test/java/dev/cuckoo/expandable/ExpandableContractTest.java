package dev.cuckoo.expandable;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.testkit.CuckooFilterContractTest;
import java.util.List;

/**
 * The contract test kit against variant {@code expandable}: both lane widths and both bucket
 * sizes, lanes that widen to hold a rate (with and without a size hint), starts small enough
 * that the kit's fill grows the table one to four times (the 60-key start eight times), another
 * hash, few kicks, and {@code concurrency=locked}.
 */
class ExpandableContractTest extends CuckooFilterContractTest {

  @Override
  protected String variant() {
    return ExpandableProvider.NAME;
  }

  @Override
  protected List<String> configs() {
    return List.of(
        "expandable?capacity=2000",
        "expandable?capacity=3000&bucketSize=8",
        "expandable?capacity=2000&fingerprintBits=32",
        "expandable?capacity=1500&fingerprintBits=32&bucketSize=8&hash=murmur3&seed=7",
        "expandable?capacity=60&maxKicks=50",
        "expandable?capacity=2500&concurrency=locked",
        "expandable?capacity=2000&targetFpp=0.001",
        "expandable?capacity=60&targetFpp=0.0001&expectedKeys=3000&maxKicks=50",
        "expandable?capacity=1000&targetFpp=0.01&concurrency=locked");
  }

  /** It grows instead. */
  @Override
  protected boolean refusesWhenFull(FilterSpec spec) {
    return false;
  }

  /**
   * {@code 2b} times the mean match probability of the entries it holds: a key never added is
   * compared with the {@code 2b} slots of its two buckets, and at most all of them are full.
   */
  @Override
  protected double fppBound(CuckooFilter filter) {
    ExpandableFilter f = (ExpandableFilter) filter;
    long[] ages = f.ages();
    double sum = 0;
    long n = 0;
    for (int a = 0; a < ages.length; a++) {
      sum += ages[a] * f.table.matchProbability(a);
      n += ages[a];
    }
    return Math.min(1.0, 2.0 * f.slots * sum / Math.max(1, n));
  }

  /** Its tables of every size are one family: a smaller one's entries age to the larger size. */
  @Override
  protected boolean mergesAcrossCapacities(FilterSpec spec) {
    return true;
  }
}
