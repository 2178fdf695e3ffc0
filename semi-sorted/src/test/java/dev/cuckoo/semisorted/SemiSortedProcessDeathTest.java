package dev.cuckoo.semisorted;

import dev.cuckoo.engine.BitStringTable;
import dev.cuckoo.engine.TableFilter;
import dev.cuckoo.engine.TableProvider;
import dev.cuckoo.engine.TableWords;
import dev.cuckoo.engine.testkit.ProcessDeathContractTest;
import java.util.List;

/**
 * Every semi-sorted table class, whose buckets are rewritten whole and straddle words (the
 * undo records' case): see {@link ProcessDeathContractTest}.
 */
class SemiSortedProcessDeathTest extends ProcessDeathContractTest {
  @Override
  protected List<String> configs() {
    return List.of(
        "semi-sorted?capacity=1500&fingerprintBits=16",
        "semi-sorted?capacity=1500&fingerprintBits=6",
        "semi-sorted?capacity=1500&fingerprintBits=12",
        "semi-sorted?capacity=1500&fingerprintBits=24",
        "semi-sorted?capacity=1500&fingerprintBits=16&concurrency=striped");
  }

  @Override
  protected TableProvider provider() {
    return new SemiSortedProvider();
  }

  @Override
  protected BitStringTable wrap(TableFilter heap, TableWords words) {
    BitStringTable shape = heap.table();
    return SemiSortedTable.of(shape.bucketCount(), shape.fingerprintBits(), words);
  }
}
