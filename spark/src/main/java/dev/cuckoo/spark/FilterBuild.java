package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterShard;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.ShardRouter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.analysis.TypeCheckResult;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.aggregate.ImperativeAggregate;
import org.apache.spark.sql.catalyst.expressions.aggregate.TypedImperativeAggregate;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The SQL aggregate {@code cuckoo_build(key, 'config')}: the file bytes of a filter of the
 * column's distinct non-null keys, null when there are none.
 *
 * <p>Its buffer is the keys' 64-bit hashes (as a sharded build ships them), kept sorted and
 * distinct as it grows; partial buffers merge by concatenation. The last task sorts them once
 * more and adds each distinct hash once to a one-shard table, so the filter holds exactly the
 * distinct keys ({@code size()} is their count) and, without a capacity in the config, is sized
 * for exactly that count. The price is memory: the task that finishes holds 8 bytes per distinct
 * key and then the table (about 1 GB at 100M keys and 0.1%), where a sharded build ({@link
 * CuckooSpark#write}) splits both across tasks; a query whose only aggregate is this one is
 * planned as that build instead ({@link ShardedSqlBuild}). Every buffer asks Spark's memory manager for its
 * heap before it takes it ({@link BuildMemory}), so a build bigger than a task may hold fails its
 * query, saying so and naming the sharded build, where it used to run the JVM out of memory.
 *
 * <p>The config must be a literal string; it is checked when the query is analysed, on the
 * driver, by the library (its messages name the key, the value and what is allowed), so a typo
 * fails the query before any job.
 */
final class FilterBuild extends TypedImperativeAggregate<FilterBuild.Hashes> implements java.io.Serializable {
  private static final long serialVersionUID = 1L;
  static final String NAME = "cuckoo_build";
  private static final java.util.concurrent.atomic.AtomicLong BUILDS = new java.util.concurrent.atomic.AtomicLong();

  private final Expression key;
  private final Expression config;
  private final int mutableAggBufferOffset;
  private final int inputAggBufferOffset;
  /** The checked config, once evaluated. */
  private transient volatile FilterSpec spec;
  private transient ShardRouter router;
  private transient byte[] scratch;

  private FilterBuild(Expression key, Expression config, int mutableAggBufferOffset, int inputAggBufferOffset) {
    this.key = key;
    this.config = config;
    this.mutableAggBufferOffset = mutableAggBufferOffset;
    this.inputAggBufferOffset = inputAggBufferOffset;
  }

  FilterBuild(Expression key, Expression config) {
    this(key, config, 0, 0);
  }

  @Override
  public TypeCheckResult checkInputDataTypes() {
    TypeCheckResult k = SqlFunctions.keyTypeMismatch(key, "first");
    if (k != null) {
      return k;
    }
    if (!config.dataType().equals(DataTypes.StringType)) {
      return SqlFunctions.mismatch(config, "second", "\"STRING\"");
    }
    if (!config.foldable()) {
      return SqlFunctions.nonFoldable("config", DataTypes.StringType, config);
    }
    spec();
    return TypeCheckResult.TypeCheckSuccess$.MODULE$;
  }

  /** @return the key expression */
  Expression key() {
    return key;
  }

  /** @return the config as the user wrote it, checked when the query was analysed */
  String configText() {
    return config.eval(null).toString();
  }

  /**
   * The config, checked: on the driver when the query is analysed, where a bad one throws
   * Spark's {@code INVALID_PARAMETER_VALUE} with the library's message.
   */
  private FilterSpec spec() {
    FilterSpec s = spec;
    if (s == null) {
      Object value = config.eval(null);
      if (value == null) {
        throw SqlFunctions.raise(SqlFunctions.invalidValue(NAME, "config",
            "the config is null; give one, e.g. 'classic?targetFpp=0.001'"));
      }
      try {
        s = BuildConfig.checked(value.toString(), KeyColumn.of(key.dataType(), key.sql()), key.sql());
        if (s.option(FilterSpec.SHARDS).isPresent()) {
          throw new IllegalArgumentException("cuckoo_build makes one table; 'shards' is for CuckooSpark.build and"
              + " write, which build a filter in shards across tasks");
        }
      } catch (IllegalArgumentException | UnsupportedOperationException e) {
        throw SqlFunctions.raise(SqlFunctions.invalidValue(NAME, "config", e.getMessage()));
      }
      spec = s;
    }
    return s;
  }

  @Override
  public Hashes createAggregationBuffer() {
    return new Hashes(new long[64], 0, BuildMemory.ofTask(NAME));
  }

  @Override
  public Hashes update(Hashes buffer, InternalRow input) {
    Object value = key.eval(input);
    if (value != null) {
      if (router == null) {
        router = CuckooFilters.keyHasher(BuildConfig.resolvable(spec()).toString());
        scratch = new byte[8];
      }
      buffer.add(KeyColumn.hashOf(value, router, scratch));
    }
    return buffer;
  }

  @Override
  public Hashes merge(Hashes buffer, Hashes input) {
    buffer.addAll(input);
    input.release();
    return buffer;
  }

  /**
   * Filters this JVM's SQL builds have finished, as aggregates or in shards ({@link
   * ShardedSqlBuild}), for the tests that check a cached filter is built once.
   */
  static long builds() {
    return BUILDS.get();
  }

  /** Counts a build {@link ShardedSqlBuild} made in place of the aggregate. */
  static void countBuild() {
    BUILDS.incrementAndGet();
  }

  @Override
  public Object eval(Hashes buffer) {
    BUILDS.incrementAndGet();
    try {
      return fileOf(buffer);
    } finally {
      buffer.release();
    }
  }

  /** The filter file of the buffer's distinct hashes; null for none. */
  private byte[] fileOf(Hashes buffer) {
    int keys = ShardTask.distinct(buffer.hashes, buffer.size);
    if (keys == 0) {
      return null;
    }
    FilterSpec s = spec();
    String config = (s.capacity().isPresent() ? s : s.toBuilder().capacity(keys).build()).toString();
    // The table, then its bytes three times as they are written out: the shard's, the file's
    // buffer, and the array returned.
    long table = CuckooFilters.variant(s.variant()).heapBytes(CuckooFilters.spec(config)).orElse(8L * keys);
    buffer.reserve(4 * table, keys);
    FilterShard shard = CuckooFilters.createShard(config, 0);
    long refused = ShardTask.fill(shard, buffer.hashes, keys)[1];
    buffer.dropHashes(); // the hashes are in the table now: let them go before its bytes are written
    if (refused > 0) {
      throw new IllegalArgumentException("cuckoo_build: capacity=" + s.capacity().getAsLong() + " cannot hold the "
          + keys + " distinct keys: give capacity=" + keys + " or more, or no capacity (" + refused
          + " keys did not fit; config " + config + ")");
    }
    try {
      byte[] bytes = ShardTask.bytesOf(shard);
      ByteArrayOutputStream file = new ByteArrayOutputStream(bytes.length + 512);
      CuckooFilters.joinShards(config, 1, i -> new ByteArrayInputStream(bytes), file);
      return file.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException("cuckoo_build: writing the filter failed (" + config + ")", e);
    }
  }

  @Override
  public byte[] serialize(Hashes buffer) {
    buffer.compact();
    // These bytes, and Spark's copy of them into the row it sends on; the buffer is done after.
    buffer.reserve(16L * buffer.size, buffer.size);
    ByteBuffer out = ByteBuffer.allocate(8 * buffer.size);
    out.asLongBuffer().put(buffer.hashes, 0, buffer.size);
    buffer.release();
    return out.array();
  }

  @Override
  public Hashes deserialize(byte[] bytes) {
    BuildMemory memory = BuildMemory.ofTask(NAME);
    int n = bytes.length / 8;
    if (memory != null) {
      memory.reserve(8L * Math.max(64, n), n);
    }
    long[] hashes = new long[Math.max(64, n)];
    ByteBuffer.wrap(bytes).asLongBuffer().get(hashes, 0, n);
    return new Hashes(hashes, n, memory);
  }

  @Override
  public int mutableAggBufferOffset() {
    return mutableAggBufferOffset;
  }

  @Override
  public int inputAggBufferOffset() {
    return inputAggBufferOffset;
  }

  @Override
  public ImperativeAggregate withNewMutableAggBufferOffset(int offset) {
    return new FilterBuild(key, config, offset, inputAggBufferOffset);
  }

  @Override
  public ImperativeAggregate withNewInputAggBufferOffset(int offset) {
    return new FilterBuild(key, config, mutableAggBufferOffset, offset);
  }

  @Override
  public Seq<Expression> children() {
    return CollectionConverters.asScala(java.util.List.of(key, config)).toSeq();
  }

  @Override
  public Expression withNewChildrenInternal(IndexedSeq<Expression> newChildren) {
    return new FilterBuild(newChildren.apply(0), newChildren.apply(1), mutableAggBufferOffset, inputAggBufferOffset);
  }

  /** Catalyst copies a node reflectively through its constructor, which it cannot call here. */
  @Override
  public Expression makeCopy(Object[] args) {
    return new FilterBuild((Expression) args[0], (Expression) args[1], (Integer) args[2], (Integer) args[3]);
  }

  @Override
  public boolean nullable() {
    return true;
  }

  @Override
  public DataType dataType() {
    return DataTypes.BinaryType;
  }

  @Override
  public String prettyName() {
    return NAME;
  }

  @Override
  public int productArity() {
    return 4;
  }

  @Override
  public Object productElement(int n) {
    return switch (n) {
      case 0 -> key;
      case 1 -> config;
      case 2 -> mutableAggBufferOffset;
      case 3 -> inputAggBufferOffset;
      default -> throw new IndexOutOfBoundsException(n);
    };
  }

  @Override
  public boolean canEqual(Object that) {
    return that instanceof FilterBuild;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FilterBuild b && b.key.equals(key) && b.config.equals(config)
        && b.mutableAggBufferOffset == mutableAggBufferOffset && b.inputAggBufferOffset == inputAggBufferOffset;
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, config, mutableAggBufferOffset, inputAggBufferOffset);
  }

  /**
   * Key hashes, kept at most half duplicates: when the array is full it is sorted and made
   * distinct, and grows only if that leaves it more than half full. A key repeated in many rows
   * costs its 8 bytes once per compaction, not once per row.
   */
  static final class Hashes {
    private long[] hashes;
    private int size;
    /** The task's accounting of the heap this buffer holds ({@link BuildMemory}); null outside a task. */
    private final BuildMemory memory;

    Hashes(long[] hashes, int size, BuildMemory memory) {
      this.hashes = hashes;
      this.size = size;
      this.memory = memory;
      reserve(8L * hashes.length, size);
    }

    void add(long hash) {
      if (size == hashes.length) {
        compact();
        if (size > hashes.length / 2) {
          grow(hashes.length * 2L);
        }
      }
      hashes[size++] = hash;
    }

    void addAll(Hashes other) {
      if (size + other.size > hashes.length) {
        grow(Math.max(size + (long) other.size, hashes.length * 2L));
      }
      System.arraycopy(other.hashes, 0, hashes, size, other.size);
      size += other.size;
    }

    /** Grows the array, asking the task's memory first (the old array and the new are held at once). */
    private void grow(long length) {
      if (length > Integer.MAX_VALUE - 8) {
        throw new IllegalStateException(NAME + ": one task cannot hold more than " + (Integer.MAX_VALUE - 8)
            + " keys' hashes; build with CuckooSpark.write, which splits the filter into shards across tasks");
      }
      reserve(8L * length, size);
      long[] grown = Arrays.copyOf(hashes, (int) length);
      if (memory != null) {
        memory.freeMemory(8L * hashes.length);
      }
      hashes = grown;
    }

    /** Asks the task for {@code bytes} more; see {@link BuildMemory#reserve}. */
    void reserve(long bytes, long keys) {
      if (memory != null) {
        memory.reserve(bytes, keys);
      }
    }

    /** Lets the hashes go, and gives their memory back: the table holds the keys now. */
    void dropHashes() {
      if (memory != null) {
        memory.freeMemory(Math.min(memory.getUsed(), 8L * hashes.length));
      }
      hashes = new long[0];
      size = 0;
    }

    /** Lets everything go, once merged into another buffer. */
    void release() {
      hashes = new long[0];
      size = 0;
      if (memory != null) {
        memory.releaseAll();
      }
    }

    void compact() {
      size = ShardTask.distinct(hashes, size);
    }
  }
}
