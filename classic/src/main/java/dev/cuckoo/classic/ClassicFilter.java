package dev.cuckoo.classic;

import dev.cuckoo.FilterSpec;
import dev.cuckoo.MappedFilter;
import dev.cuckoo.engine.CuckooSizing;
import dev.cuckoo.engine.CuckooTable;
import dev.cuckoo.engine.FingerprintStash;
import dev.cuckoo.engine.FingerprintStore;
import dev.cuckoo.engine.MappedTable;
import dev.cuckoo.engine.ShardedTable;
import dev.cuckoo.engine.TableFilter;
import dev.cuckoo.engine.TablePayload;
import dev.cuckoo.engine.TableShard;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;

/**
 * The classic cuckoo filter: partial-key cuckoo hashing over a {@link BucketTable} with two
 * candidate buckets per key; see {@link ClassicProvider} for what it promises. {@link #of} picks
 * the class for the table's shape and the spec's concurrency. As in every variant, a subclass is
 * named for what its lookup reads ({@code OfByteBuckets}, {@code OfShortBuckets}, and {@code
 * OfPackedBuckets} for every other shape) or for the concurrency it adds ({@code Striped}).
 */
abstract sealed class ClassicFilter extends TableFilter
    permits ClassicFilter.OfByteBuckets, ClassicFilter.OfShortBuckets, ClassicFilter.OfPackedBuckets,
        ClassicFilter.Striped, ClassicFilter.Mapped, ClassicFilter.Sharded {

  /*
   * Fan et al. [1], section 3: a key's hash gives its first bucket i1 and an f-bit fingerprint;
   * its second bucket is alternate(i1, fingerprint) (PartialKeyHashing). The engine's
   * FingerprintStore runs add, count and remove over the table (TableFilter): a refused add
   * changes nothing (KickPath undoes itself), and only keys that were added may be removed
   * (section 3.3). The table is sized by CuckooSizing (an even bucket count, no power of two);
   * ClassicPayload writes and reads the file payload.
   *
   * A lookup in a loop of independent lookups over a table larger than the caches costs about
   * as much per instruction as per cache miss: the processor overlaps the misses of as many
   * lookups as its reorder window holds instructions for (docs/results.md, "Repeated JMH
   * lookups"). Every type check on the way to the table counts, so a filter without concurrency
   * is a subclass per table class whose lookup goes from the filter to its table's final class
   * and, only while the stash holds anything, to the stash: no store in between. A striped
   * filter looks up through its store, which validates what it reads against the writers.
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   */

  /**
   * Creates an empty filter of the resolved spec's shape.
   *
   * @param spec the resolved spec
   * @return the filter
   * @throws IllegalArgumentException for a shape that wastes memory, fingerprints so short for
   *     the capacity that a wider one takes less ({@link CuckooSizing#bucketCountForNewTable}),
   *     or a table larger than one array holds ({@link #requireHeapTable})
   */
  static ClassicFilter of(FilterSpec spec) {
    requireHeapTable(spec);
    int slots = spec.bucketSize().getAsInt();
    int bits = spec.fingerprintBits().getAsInt();
    BucketTable table = BucketTable.create(newBucketCount(spec), slots, bits);
    return of(spec, table, new FingerprintStash(FingerprintStash.DEFAULT_SLOTS), 0);
  }

  /**
   * @param spec the resolved spec
   * @return the bytes the table of a new filter of that spec takes
   * @throws IllegalArgumentException as {@link #of(FilterSpec)} does for a shape that wastes
   *     memory ({@link CuckooSizing#bucketCountForNewTable}) or a table too large for the heap
   */
  static long tableBytes(FilterSpec spec) {
    requireHeapTable(spec);
    return Long.BYTES * BucketTable.allocatedWords(newBucketCount(spec), spec.bucketSize().getAsInt(),
        spec.fingerprintBits().getAsInt());
  }

  /**
   * Refuses a spec whose table is more than one array on the heap holds: such a filter lives in
   * a file.
   *
   * @param spec the resolved spec
   * @throws IllegalArgumentException naming the largest capacity the heap takes at that shape,
   *     and {@code CuckooFilters.createFile} and {@code open}
   */
  static void requireHeapTable(FilterSpec spec) {
    long capacity = spec.capacity().getAsLong();
    int slots = spec.bucketSize().getAsInt();
    int bits = spec.fingerprintBits().getAsInt();
    long max = ClassicProvider.maxCapacity(slots, bits);
    // The bound is for one table: a sharded one is sized with slack per shard, so its words are
    // checked too.
    if (capacity > max || BucketTable.allocatedWords(newBucketCount(spec), slots, bits) > BucketTable.MAX_WORDS) {
      throw TablePayload.tooLargeForHeap(ClassicProvider.NAME, capacity, ClassicProvider.shape(slots, bits)
          + shardsText(spec), max);
    }
  }

  private static String shardsText(FilterSpec spec) {
    int shards = ShardedTable.shardsOf(spec);
    return shards > 1 ? " (less in " + shards + " shards)" : "";
  }

  static long newBucketCount(FilterSpec spec) {
    return CuckooSizing.bucketCountForNewTable(spec.capacity().getAsLong(), spec.bucketSize().getAsInt(),
        spec.fingerprintBits().getAsInt(), ClassicProvider.MAX_BITS, ShardedTable.shardsOf(spec));
  }

  /**
   * Creates one empty shard of a sharded filter: a table of one shard's buckets.
   *
   * @param spec the resolved spec, with {@code shards=S}
   * @param index the shard, in {@code [0, S)}
   * @return the shard
   */
  static TableShard shard(FilterSpec spec, int index) {
    int slots = spec.bucketSize().getAsInt();
    int bits = spec.fingerprintBits().getAsInt();
    int shards = ShardedTable.shardsOf(spec);
    long shardBuckets = newBucketCount(spec) / shards;
    TableShard.requireHeapShard(spec, BucketTable.allocatedWords(shardBuckets, slots, bits), BucketTable.MAX_WORDS);
    BucketTable table = BucketTable.create(shardBuckets, slots, bits);
    return new TableShard(spec, ShardedTable.shard(table, shards, index, bits, table.tableBytes()),
        BucketTable.payloadWords(shardBuckets, slots, bits), table::writePayloadWords);
  }

  /**
   * Wraps a table and stash (read from a file, say) in the filter class for their shape.
   *
   * @param spec the resolved spec
   * @param table a table of the spec's shape
   * @param stash the fingerprints kept beside it
   * @param size the items the table and the stash hold
   * @return the filter
   */
  static ClassicFilter of(FilterSpec spec, BucketTable table, FingerprintStash stash, long size) {
    long bucketBits = (long) table.slots * table.bits;
    int shards = ShardedTable.shardsOf(spec);
    if (shards > 1) {
      ShardedTable sharded = ShardedTable.whole(table, shards, table.bits, table.tableBytes());
      return new Sharded(spec, table, sharded, stash, FingerprintStore.create(spec, sharded, stash, bucketBits, size));
    }
    FingerprintStore store = FingerprintStore.create(spec, table, stash, bucketBits, size);
    if (FingerprintStore.isStriped(spec)) {
      return new Striped(spec, table, stash, store);
    }
    if (table instanceof ShortBucketTable shorts) {
      return new OfShortBuckets(spec, shorts, stash, store);
    }
    if (table instanceof ByteBucketTable bytes) {
      return new OfByteBuckets(spec, bytes, stash, store);
    }
    return new OfPackedBuckets(spec, (PackedBucketTable) table, stash, store);
  }

  /**
   * Wraps a mapped table and stash (a file's, {@link ClassicPayload#open}) in a filter.
   *
   * @param spec the resolved spec
   * @param contents the table's fields, stash and file
   * @return the filter
   */
  static Mapped mapped(FilterSpec spec, TablePayload.MappedContents contents) {
    int slots = spec.bucketSize().getAsInt();
    int bits = spec.fingerprintBits().getAsInt();
    MappedBucketTable table = new MappedBucketTable(contents.buckets(), slots, bits, contents.words());
    int shards = ShardedTable.shardsOf(spec);
    CuckooTable placed = shards == 1 ? table : ShardedTable.whole(table, shards, bits, table.tableBytes());
    FingerprintStore store = FingerprintStore.create(spec, placed, contents.stash(), (long) slots * bits,
        contents.items());
    return new Mapped(spec, table, contents.stash(), store, contents.file());
  }

  private ClassicFilter(FilterSpec spec, FingerprintStash stash, FingerprintStore store) {
    super(spec, store, stash);
  }

  private ClassicFilter(FilterSpec spec, FingerprintStash stash, FingerprintStore store, MappedTable file) {
    super(spec, store, stash, file);
  }

  @Override
  protected abstract BucketTable table();

  /** @return the stash, for tests */
  FingerprintStash stash() {
    return stash;
  }

  /** @return the bytes of the table, its precomputed alternate offsets, and the stash */
  @Override
  public long sizeInBytes() {
    BucketTable table = table();
    return table.tableBytes() + table.extraBytes() + stash.memoryBytes();
  }

  @Override
  protected long payloadLength() {
    return ClassicPayload.length(table());
  }

  @Override
  protected void writePayload(PayloadOutput out) throws IOException {
    ClassicPayload.write(out, spec(), table(), store.size(), stash);
  }

  /**
   * Completes a block of lookups whose table answers are in {@code results}: a key the table
   * does not hold may be in the stash, while the stash holds anything.
   *
   * @return the true answers, {@code found} and the stash's
   */
  final int stashed(BucketTable table, long[] hashes, int n, boolean[] results, int at, int found) {
    if (stash.size() == 0) {
      return found;
    }
    int all = found;
    for (int i = 0; i < n; i++) {
      if (!results[at + i] && stash.mightContain(table, hashes[i])) {
        results[at + i] = true;
        all++;
      }
    }
    return all;
  }

  /** 16-bit fingerprints in buckets of 4 ({@link ShortBucketTable}), without concurrency. */
  static final class OfShortBuckets extends ClassicFilter {
    private final ShortBucketTable table;

    OfShortBuckets(FilterSpec spec, ShortBucketTable table, FingerprintStash stash, FingerprintStore store) {
      super(spec, stash, store);
      this.table = table;
    }

    @Override
    protected BucketTable table() {
      return table;
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      return table.containsHash(keyHash) || stash.mightContain(table, keyHash);
    }

    /** {@inheritDoc} Both buckets of every key read first, then tested; the stash after. */
    @Override
    protected int mightContainHashes(long[] hashes, int n, long[] scratch, boolean[] results, int at) {
      return stashed(table, hashes, n, results, at, table.containsHashes(hashes, n, scratch, results, at));
    }
  }

  /** 8-bit fingerprints in buckets of 4 ({@link ByteBucketTable}), without concurrency. */
  static final class OfByteBuckets extends ClassicFilter {
    private final ByteBucketTable table;

    OfByteBuckets(FilterSpec spec, ByteBucketTable table, FingerprintStash stash, FingerprintStore store) {
      super(spec, stash, store);
      this.table = table;
    }

    @Override
    protected BucketTable table() {
      return table;
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      return table.containsHash(keyHash) || stash.mightContain(table, keyHash);
    }
  }

  /** Every other shape ({@link PackedBucketTable}), without concurrency. */
  static final class OfPackedBuckets extends ClassicFilter {
    private final PackedBucketTable table;

    OfPackedBuckets(FilterSpec spec, PackedBucketTable table, FingerprintStash stash, FingerprintStore store) {
      super(spec, stash, store);
      this.table = table;
    }

    @Override
    protected BucketTable table() {
      return table;
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      return table.containsHash(keyHash) || stash.mightContain(table, keyHash);
    }
  }

  /**
   * Any shape, its table mapped from a file ({@link MappedBucketTable}); without concurrency its
   * lookups go to the table directly, with {@code concurrency=striped} through the store.
   */
  static final class Mapped extends ClassicFilter implements MappedFilter {
    private final MappedBucketTable table;
    /** Whether lookups go through the store: when it is striped, or the table sharded. */
    private final boolean striped;

    Mapped(FilterSpec spec, MappedBucketTable table, FingerprintStash stash, FingerprintStore store, MappedTable file) {
      super(spec, stash, store, file);
      this.table = table;
      this.striped = FingerprintStore.isStriped(spec) || ShardedTable.shardsOf(spec) > 1;
    }

    @Override
    protected BucketTable table() {
      return table;
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      if (striped) {
        return super.mightContainHash(keyHash);
      }
      return table.containsHash(keyHash) || stash.mightContain(table, keyHash);
    }

    /** {@inheritDoc} Both buckets of every key read first, then tested; the stash after. */
    @Override
    protected int mightContainHashes(long[] hashes, int n, long[] scratch, boolean[] results, int at) {
      if (striped) {
        return super.mightContainHashes(hashes, n, scratch, results, at);
      }
      return stashed(table, hashes, n, results, at, table.containsHashes(hashes, n, scratch, results, at));
    }

    @Override
    public void verify() throws IOException {
      verifyFile(table.tailIsClear(), table.occupiedSlots());
    }
  }

  /**
   * Any shape split into shards ({@link ShardedTable}), with any concurrency: lookups through the
   * store, whose table places keys by the sharded layout.
   */
  static final class Sharded extends ClassicFilter {
    private final BucketTable table;
    /** The table seen whole, for lookups without concurrency; {@code null} when striped. */
    private final ShardedTable lookups;

    Sharded(FilterSpec spec, BucketTable table, ShardedTable sharded, FingerprintStash stash, FingerprintStore store) {
      super(spec, stash, store);
      this.table = table;
      this.lookups = FingerprintStore.isStriped(spec) ? null : sharded;
    }

    @Override
    protected BucketTable table() {
      return table;
    }

    /*
     * The store's lookup finds the alternate bucket through ShardedTable.alternate, which divides
     * to find the bucket's shard; ShardedTable.containsHash takes the shard from the hash with a
     * multiply instead.
     */
    @Override
    protected boolean mightContainHash(long keyHash) {
      if (lookups == null) {
        return super.mightContainHash(keyHash);
      }
      return lookups.containsHash(keyHash) || stash.mightContain(lookups, keyHash);
    }
  }

  /** Any shape with {@code concurrency=striped}: lookups through the striped store. */
  static final class Striped extends ClassicFilter {
    private final BucketTable table;

    Striped(FilterSpec spec, BucketTable table, FingerprintStash stash, FingerprintStore store) {
      super(spec, stash, store);
      this.table = table;
    }

    @Override
    protected BucketTable table() {
      return table;
    }
  }
}
