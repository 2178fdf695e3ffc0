package dev.cuckoo.classic;

import dev.cuckoo.engine.BitStringTable;
import dev.cuckoo.engine.TableFilter;
import dev.cuckoo.engine.TableProvider;
import dev.cuckoo.engine.TableWords;
import dev.cuckoo.engine.testkit.ProcessDeathContractTest;
import java.util.List;

/** Every table class of classic, striped and sharded too: see {@link ProcessDeathContractTest}. */
class ClassicProcessDeathTest extends ProcessDeathContractTest {
  @Override
  protected List<String> configs() {
    return List.of(
        "classic?capacity=1500&fingerprintBits=16",
        "classic?capacity=1500&fingerprintBits=8",
        "classic?capacity=1500&fingerprintBits=12",
        "classic?capacity=1500&fingerprintBits=13&bucketSize=2",
        "classic?capacity=1500&fingerprintBits=24&bucketSize=8",
        "classic?capacity=1500&fingerprintBits=16&concurrency=striped",
        "classic?capacity=3000&fingerprintBits=12&shards=2");
  }

  @Override
  protected TableProvider provider() {
    return new ClassicProvider();
  }

  @Override
  protected BitStringTable wrap(TableFilter heap, TableWords words) {
    BitStringTable shape = heap.table();
    return BucketTable.wrap(shape.bucketCount(), shape.slotsPerBucket(), shape.fingerprintBits(), words);
  }
}
