package dev.cuckoo.engine.testkit;

import dev.cuckoo.FilterSpec;
import dev.cuckoo.engine.CuckooSizing;
import dev.cuckoo.testkit.CuckooFilterContractTest;

/**
 * The API's contract kit for a table-based variant (one whose provider extends {@code
 * TableProvider}), with what every such variant promises alike: a subclass names its variant and
 * its configs, and nothing else that the engine decides. {@link TableVariantContractTest} runs it
 * on the heap and in mapped files.
 */
public abstract class TableFilterContractTest extends CuckooFilterContractTest {

  /**
   * {@inheritDoc} A table is sized for its capacity with the default walk of {@link
   * CuckooSizing#MIN_KICKS} kicks or more ({@code CuckooSizing}), so the capacity is promised with
   * that many, not with fewer.
   */
  @Override
  protected boolean guaranteesCapacity(FilterSpec spec) {
    return spec.maxKicks().getAsInt() >= CuckooSizing.MIN_KICKS;
  }

  /**
   * @param i the index of a config in a subclass's list
   * @return a capacity from 1,500 to 5,997 that cycles with {@code i}: not a multiple of anything
   *     in particular, so that bucket counts are odd multiples of small numbers and tables end
   *     in the middle of a word
   */
  protected static long spreadCapacity(int i) {
    return 1_500 + 1_499L * (i % 4);
  }
}
