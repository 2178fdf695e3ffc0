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
}
