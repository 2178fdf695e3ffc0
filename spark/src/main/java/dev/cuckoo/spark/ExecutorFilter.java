package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilter;
import java.io.Serializable;
import org.apache.spark.broadcast.Broadcast;

/**
 * Where an executor finds the filter a lookup column asks: a broadcast of the filter's bytes,
 * or a filter file each executor maps. It travels with the query plan, so it holds a handle, not
 * the filter; {@link #filter()} is the executor's one filter for it, made on first use.
 */
interface ExecutorFilter extends Serializable {
  /** @return the executor's filter, read or mapped once per JVM and then shared by its tasks */
  CuckooFilter filter();

  /** A filter broadcast as its file bytes ({@link SharedFilter}). */
  record Broadcasted(Broadcast<SharedFilter> shared) implements ExecutorFilter {
    private static final long serialVersionUID = 1L;

    @Override
    public CuckooFilter filter() {
      return shared.value().filter();
    }
  }
}
