package dev.cuckoo.semisorted;

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
 * The semi-sorted cuckoo filter: partial-key cuckoo hashing over a {@link SemiSortedTable}, two
 * candidate buckets of four fingerprints per key; see {@link SemiSortedProvider} for what it
 * promises. {@link #of} picks the class for the width and the spec's concurrency. As in every
 * variant, a subclass is named for what its lookup reads ({@code OfWidth16}, and {@code
 * OfAnyWidth} for every other width) or for the concurrency it adds ({@code Striped}).
 */
abstract sealed class SemiSortedFilter extends TableFilter
    permits SemiSortedFilter.OfWidth16, SemiSortedFilter.OfAnyWidth, SemiSortedFilter.Striped,
        SemiSortedFilter.Mapped, SemiSortedFilter.Sharded {

  /*
   * The cuckoo filter of Fan et al. [1], section 3, with the semi-sorted buckets of section 5.2
   * (SemiSortedTable, SemiSortCodec): a key's hash gives its first bucket and an f-bit
   * fingerprint, its second bucket is alternate(i1, fingerprint) (PartialKeyHashing). The
   * engine's FingerprintStore runs add, count and remove over the table (TableFilter), as for a
   * classic filter: a refused add changes nothing (KickPath undoes itself), a FingerprintStash takes the
   * rare key no arrangement holds, and only keys that were added may be removed (section 3.3).
   * The table is sized by CuckooSizing (an even bucket count, no power of two), the same number
   * of buckets as a classic filter of the same capacity, each one bit per slot smaller;
   * SemiSortedPayload writes and reads the file payload.
   *
   * A lookup in a loop of independent lookups over a table larger than the caches costs about
   * as much per instruction as per cache miss (docs/results.md), so a filter without concurrency
   * looks up from the filter to its table and, only while the stash holds anything, the stash,
   * as classic's do (ClassicFilter); the headline width has a class naming its table's final
   * class. A striped filter looks up through its store, which validates what it reads.
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   */

  /**
   * Creates an empty filter of the resolved spec's shape.
   *
   * @param spec the resolved spec
   * @return the filter
   */
  static SemiSortedFilter of(FilterSpec spec) {
    requireHeapTable(spec);
    SemiSortedTable table = SemiSortedTable.create(newBucketCount(spec), spec.fingerprintBits().getAsInt());
    return of(spec, table, new FingerprintStash(FingerprintStash.DEFAULT_SLOTS), 0);
  }

  /**
   * @param spec the resolved spec
   * @return the bytes the table of a new filter of that spec takes
   */
  static long tableBytes(FilterSpec spec) {
    requireHeapTable(spec);
    return Long.BYTES * SemiSortedTable.allocatedWords(newBucketCount(spec), spec.fingerprintBits().getAsInt());
  }

  /**
   * Refuses a spec whose table is more than one array on the heap holds: such a filter lives in
   * a file.
   *
   * @param spec the resolved spec
   * @throws IllegalArgumentException naming the largest capacity the heap takes at that width,
   *     and {@code CuckooFilters.createFile} and {@code open}
   */
  static void requireHeapTable(FilterSpec spec) {
    long capacity = spec.capacity().getAsLong();
    int bits = spec.fingerprintBits().getAsInt();
    long max = SemiSortedProvider.maxCapacity(bits);
    // The bound is for one table: a sharded one is sized with slack per shard, so its words are
    // checked too.
    if (capacity > max || SemiSortedTable.allocatedWords(newBucketCount(spec), bits) > SemiSortedTable.MAX_WORDS) {
      throw TablePayload.tooLargeForHeap(SemiSortedProvider.NAME, capacity, FilterSpec.FINGERPRINT_BITS + "=" + bits,
          max);
    }
  }

  static long newBucketCount(FilterSpec spec) {
    return CuckooSizing.bucketCount(spec.capacity().getAsLong(), SemiSortedTable.SLOTS, spec.fingerprintBits().getAsInt(),
        ShardedTable.shardsOf(spec));
  }

  /**
   * Creates one empty shard of a sharded filter: a table of one shard's buckets.
   *
   * @param spec the resolved spec, with {@code shards=S}
   * @param index the shard, in {@code [0, S)}
   * @return the shard
   */
  static TableShard shard(FilterSpec spec, int index) {
    int bits = spec.fingerprintBits().getAsInt();
    int shards = ShardedTable.shardsOf(spec);
    long shardBuckets = newBucketCount(spec) / shards;
    TableShard.requireHeapShard(spec, SemiSortedTable.allocatedWords(shardBuckets, bits), SemiSortedTable.MAX_WORDS);
    SemiSortedTable table = SemiSortedTable.create(shardBuckets, bits);
    long words = SemiSortedTable.payloadWords(shardBuckets, bits);
    return new TableShard(spec, ShardedTable.shard(table, shards, index, bits, table.tableBytes()), words,
        o -> table.writePayloadWords(o, words));
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
  static SemiSortedFilter of(FilterSpec spec, SemiSortedTable table, FingerprintStash stash, long size) {
    int shards = ShardedTable.shardsOf(spec);
    if (shards > 1) {
      ShardedTable sharded = ShardedTable.whole(table, shards, table.bits, table.tableBytes());
      return new Sharded(spec, table, sharded, stash, FingerprintStore.create(spec, sharded, stash, table.bucketBits, size));
    }
    FingerprintStore store = FingerprintStore.create(spec, table, stash, table.bucketBits, size);
    if (FingerprintStore.isStriped(spec)) {
      return new Striped(spec, table, stash, store);
    }
    if (table instanceof Width16Table sixteen) {
      return new OfWidth16(spec, sixteen, stash, store);
    }
    return new OfAnyWidth(spec, table, stash, store);
  }

  /**
   * Wraps a mapped table and stash (a file's, {@link SemiSortedPayload#open}) in a filter.
   *
   * @param spec the resolved spec
   * @param contents the table's fields, stash and file
   * @return the filter
   */
  static Mapped mapped(FilterSpec spec, TablePayload.MappedContents contents) {
    MappedSemiSortedTable table = new MappedSemiSortedTable(contents.buckets(), spec.fingerprintBits().getAsInt(),
        contents.words());
    int shards = ShardedTable.shardsOf(spec);
    CuckooTable placed = shards == 1 ? table : ShardedTable.whole(table, shards, table.bits, table.tableBytes());
    FingerprintStore store = FingerprintStore.create(spec, placed, contents.stash(), table.bucketBits,
        contents.items());
    return new Mapped(spec, table, contents.stash(), store, contents.file());
  }

  private SemiSortedFilter(FilterSpec spec, FingerprintStash stash, FingerprintStore store) {
    super(spec, store, stash);
  }

  private SemiSortedFilter(FilterSpec spec, FingerprintStash stash, FingerprintStore store, MappedTable file) {
    super(spec, store, stash, file);
  }

  @Override
  protected abstract SemiSortedTable table();

  /** @return the stash, for tests */
  FingerprintStash stash() {
    return stash;
  }

  /**
   * @return the bytes of the table, its precomputed alternate offsets, and the stash (the codec's
   *     tables are shared by all filters)
   */
  @Override
  public long sizeInBytes() {
    SemiSortedTable table = table();
    return table.tableBytes() + table.extraBytes() + stash.memoryBytes();
  }

  @Override
  protected long payloadLength() {
    return SemiSortedPayload.length(table());
  }

  @Override
  protected void writePayload(PayloadOutput out) throws IOException {
    SemiSortedPayload.write(out, spec(), table(), store.size(), stash);
  }

  /** 16-bit fingerprints ({@link Width16Table}), without concurrency. */
  static final class OfWidth16 extends SemiSortedFilter {
    private final Width16Table table;

    OfWidth16(FilterSpec spec, Width16Table table, FingerprintStash stash, FingerprintStore store) {
      super(spec, stash, store);
      this.table = table;
    }

    @Override
    protected SemiSortedTable table() {
      return table;
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      return table.containsHash(keyHash) || stash.mightContain(table, keyHash);
    }
  }

  /** Every other width, without concurrency. */
  static final class OfAnyWidth extends SemiSortedFilter {
    private final SemiSortedTable table;

    OfAnyWidth(FilterSpec spec, SemiSortedTable table, FingerprintStash stash, FingerprintStore store) {
      super(spec, stash, store);
      this.table = table;
    }

    @Override
    protected SemiSortedTable table() {
      return table;
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      return table.containsHash(keyHash) || stash.mightContain(table, keyHash);
    }
  }

  /**
   * Any width, its table mapped from a file ({@link MappedSemiSortedTable}); without concurrency
   * its lookups go to the table directly, with {@code concurrency=striped} through the store.
   */
  static final class Mapped extends SemiSortedFilter implements MappedFilter {
    private final MappedSemiSortedTable table;
    /** Whether lookups go through the store: when it is striped, or the table sharded. */
    private final boolean striped;

    Mapped(FilterSpec spec, MappedSemiSortedTable table, FingerprintStash stash, FingerprintStore store,
        MappedTable file) {
      super(spec, stash, store, file);
      this.table = table;
      this.striped = FingerprintStore.isStriped(spec) || ShardedTable.shardsOf(spec) > 1;
    }

    @Override
    protected SemiSortedTable table() {
      return table;
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      if (striped) {
        return super.mightContainHash(keyHash);
      }
      return table.containsHash(keyHash) || stash.mightContain(table, keyHash);
    }

    /** {@inheritDoc} Every bucket's code and order too, which opening does not check. */
    @Override
    public void verify() throws IOException {
      verifyFile(table.tailIsClear(), table.occupiedSlots());
      SemiSortedPayload.requireCanonical(table, path() + ": " + SemiSortedProvider.NAME);
    }
  }

  /**
   * Any width split into shards ({@link ShardedTable}), with any concurrency: lookups through the
   * store, whose table places keys by the sharded layout.
   */
  static final class Sharded extends SemiSortedFilter {
    private final SemiSortedTable table;
    /** The table seen whole, for lookups without concurrency; {@code null} when striped. */
    private final ShardedTable lookups;

    Sharded(FilterSpec spec, SemiSortedTable table, ShardedTable sharded, FingerprintStash stash, FingerprintStore store) {
      super(spec, stash, store);
      this.table = table;
      this.lookups = FingerprintStore.isStriped(spec) ? null : sharded;
    }

    @Override
    protected SemiSortedTable table() {
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

  /** Any width with {@code concurrency=striped}: lookups through the striped store. */
  static final class Striped extends SemiSortedFilter {
    private final SemiSortedTable table;

    Striped(FilterSpec spec, SemiSortedTable table, FingerprintStash stash, FingerprintStore store) {
      super(spec, stash, store);
      this.table = table;
    }

    @Override
    protected SemiSortedTable table() {
      return table;
    }
  }
}
