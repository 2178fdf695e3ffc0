package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.KeyKind;
import java.io.Serializable;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.expressions.Expression;

/**
 * Where an executor finds the filter a lookup column asks: a broadcast of the filter's bytes,
 * or a filter file each executor maps. It travels with the query plan, so it holds a handle, not
 * the filter; {@link #filter()} is the executor's one filter for it, made on first use.
 */
interface ExecutorFilter extends Serializable {
  /** @return the executor's filter, read or mapped once per JVM and then shared by its tasks; null for none */
  CuckooFilter filter();

  /**
   * @return the kind of key the filter records ({@link dev.cuckoo.FilterSpec#KEYS}), where the
   *     driver knows it without reading the filter; null where it records none or is not known
   *     there (the executors then check it)
   */
  default KeyKind knownKind() {
    return null;
  }

  /**
   * The filter of a SQL argument that is one value for the query (a literal, a scalar
   * subquery's result, shipped with the plan): evaluated once where it is asked, its bytes read
   * into a filter once per JVM. Null where the bytes are null.
   */
  record ConstantFile(Expression file) implements ExecutorFilter {
    private static final long serialVersionUID = 1L;

    @Override
    public CuckooFilter filter() {
      Object bytes = file.eval(null);
      return bytes == null ? null : SharedFilter.of((byte[]) bytes);
    }
  }

  /**
   * A filter broadcast as its file bytes ({@link SharedFilter}).
   *
   * @param shared the broadcast
   * @param knownKind the kind of key the filter records, or null
   */
  record Broadcasted(Broadcast<SharedFilter> shared, KeyKind knownKind) implements ExecutorFilter {
    private static final long serialVersionUID = 1L;

    @Override
    public CuckooFilter filter() {
      return shared.value().filter();
    }
  }
}
