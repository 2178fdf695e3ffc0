package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Aggregator;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The SQL aggregate {@code cuckoo_build(key, 'config')}: each partition fills a filter of the
 * config with its keys (each distinct key once: {@code addIfAbsent}), the partial filters are
 * merged with {@code addAll}, and the result is the filter's file bytes, or null when there were
 * no non-null keys. The whole filter is built in each task: this is the SQL convenience for
 * filters that fit one task; {@code CuckooSpark.build} shards larger ones.
 */
final class FilterAggregator extends Aggregator<Row, FilterAggregator.Buffer, byte[]> {
  private static final long serialVersionUID = 1L;

  /** The input: the key's bytes and the config, a literal. */
  static final StructType INPUT = new StructType()
      .add("key", DataTypes.BinaryType)
      .add("config", DataTypes.StringType, false);

  @Override
  public Buffer zero() {
    return new Buffer();
  }

  @Override
  public Buffer reduce(Buffer b, Row row) {
    if (row.isNullAt(0)) {
      return b;
    }
    String config = row.getString(1);
    if (b.filter == null) {
      b.filter = CuckooFilters.create(config);
      b.config = config;
    } else if (!b.config.equals(config)) {
      throw new IllegalArgumentException("cuckoo_build's config must be the same in every row: got '" + b.config
          + "' and '" + config + "'");
    }
    byte[] key = (byte[]) row.get(0);
    if (!b.filter.addIfAbsent(key) && !b.filter.mightContain(key)) {
      throw new IllegalStateException("cuckoo_build: the filter (" + config + ") is full after " + b.filter.size()
          + " keys; give a larger capacity");
    }
    return b;
  }

  @Override
  public Buffer merge(Buffer a, Buffer b) {
    if (a.filter == null) {
      return b;
    }
    if (b.filter == null) {
      return a;
    }
    if (a.filter.addAll(b.filter) < b.filter.size()) {
      throw new IllegalStateException("cuckoo_build: merging the partitions' filters (" + a.config
          + ") ran out of room after " + a.filter.size() + " items; give a larger capacity");
    }
    return a;
  }

  @Override
  public byte[] finish(Buffer b) {
    if (b.filter == null) {
      return null;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      b.filter.writeTo(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  @Override
  public Encoder<Buffer> bufferEncoder() {
    return Encoders.javaSerialization(Buffer.class);
  }

  @Override
  public Encoder<byte[]> outputEncoder() {
    return Encoders.BINARY();
  }

  /**
   * A partial filter; it crosses the shuffle as its file bytes. Public only because Spark's
   * serialization encoder takes public classes; its package-private outer class keeps it out of
   * the API.
   */
  public static final class Buffer implements Serializable {
    private static final long serialVersionUID = 1L;

    private transient CuckooFilter filter;
    private String config;

    private void writeObject(ObjectOutputStream out) throws IOException {
      out.defaultWriteObject();
      out.writeBoolean(filter != null);
      if (filter != null) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        filter.writeTo(bytes);
        out.writeInt(bytes.size());
        bytes.writeTo(out);
      }
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      if (in.readBoolean()) {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        filter = CuckooFilters.read(new ByteArrayInputStream(bytes));
      }
    }
  }
}
