package dev.cuckoo.engine;

import dev.cuckoo.Concurrency;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.engine.file.MergeRecord;
import dev.cuckoo.engine.file.TableFile;
import dev.cuckoo.engine.file.TablePayload;
import dev.cuckoo.engine.sharded.ShardedTable;
import dev.cuckoo.engine.striped.StripedFingerprintStore;
import dev.cuckoo.spi.AbstractCuckooFilter;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * A filter that is one {@link BitStringTable}, its {@link FingerprintStash} and the {@link
 * FingerprintStore} the spec asks for, on the heap or mapped from a file: every write, every
 * count, the sizes, the payload, merging and the file's upkeep are here, once for every
 * table-based variant, and {@link #compose} picks the class for the combination a filter is.
 *
 * <p>The combinations: a heap table without concurrency looks up through the variant's own
 * subclass for its table's final class ({@link TableProvider#lookups}); {@code
 * concurrency=striped} looks up through the store, which validates what it reads against the
 * writers ({@link ThroughStore}); a table split into shards through its sharded view ({@code
 * Sharded}); and a table mapped from a file, of any shape, sharded or striped or not, is a
 * {@code Mapped}, the one class that is a {@link dev.cuckoo.MappedFilter}. In a loop of lookups
 * over a table larger than the caches every instruction counts (docs/results.md, "Repeated JMH
 * lookups"), which is why a heap table without concurrency gets a class that names its table's
 * final class: the lookup goes from the filter to that class with no type check. A mapped one
 * goes through the table's interface, a type check the JIT inlines past while a process uses one
 * table class.
 */
public abstract class TableFilter extends AbstractCuckooFilter {
  /** Runs every write, and counts. */
  protected final FingerprintStore store;
  /** The fingerprints the table could not place. */
  protected final FingerprintStash stash;
  private final BitStringTable table;
  /** What keeps a mapped table's file consistent; {@code null} for a table on the heap. */
  final TableFile file;

  /**
   * What a filter is made of: the resolved spec, the table, its stash, and the store over them,
   * as {@link TableFilter#compose} makes it for the spec (over the sharded view of the table
   * when the spec has shards). The engine makes it ({@link #compose}); a variant's lookup class
   * hands it to {@link TableFilter#TableFilter(Parts)}. A mapped filter's parts also hold its file, which is
   * the engine's own.
   */
  public static final class Parts {
    private final FilterSpec spec;
    private final BitStringTable table;
    private final FingerprintStash stash;
    private final FingerprintStore store;
    /** The file's consistency keeper; {@code null} for a table on the heap. */
    final TableFile file;

    Parts(FilterSpec spec, BitStringTable table, FingerprintStash stash, FingerprintStore store, TableFile file) {
      this.spec = spec;
      this.table = table;
      this.stash = stash;
      this.store = store;
      this.file = file;
    }

    /** @return the resolved spec */
    public FilterSpec spec() {
      return spec;
    }

    /** @return the table */
    public BitStringTable table() {
      return table;
    }

    /** @return its stash */
    public FingerprintStash stash() {
      return stash;
    }

    /** @return the store over the table and the stash */
    public FingerprintStore store() {
      return store;
    }
  }

  /**
   * @param parts what the filter is made of
   */
  protected TableFilter(Parts parts) {
    super(parts.spec());
    this.store = parts.store();
    this.stash = parts.stash();
    this.table = parts.table();
    this.file = parts.file;
  }

  /**
   * The filter a table on the heap (or in a test's own storage), its stash and its items are,
   * for the spec's shards and concurrency.
   *
   * @param spec the resolved spec
   * @param table a table of the spec's shape
   * @param stash the fingerprints kept beside it
   * @param size the items the table and the stash hold
   * @param variant the variant, whose {@link TableProvider#lookups} is the class for a heap table
   *     without concurrency
   * @return the filter
   */
  public static TableFilter compose(FilterSpec spec, BitStringTable table, FingerprintStash stash, long size,
      TableProvider variant) {
    return compose(spec, table, stash, size, null, variant);
  }

  /**
   * The filter a table, its stash and its items are, for the spec's shards and concurrency and
   * for where the table lives.
   *
   * @param spec the resolved spec
   * @param table a table of the spec's shape
   * @param stash the fingerprints kept beside it
   * @param size the items the table and the stash hold
   * @param file the mapped file's keeper, or {@code null} for a table on the heap
   * @param variant the variant, whose {@link TableProvider#lookups} is the class for a heap table
   *     without concurrency
   * @return the filter; a {@link dev.cuckoo.MappedFilter} exactly when {@code file} is not null
   */
  static TableFilter compose(FilterSpec spec, BitStringTable table, FingerprintStash stash, long size,
      TableFile file, TableProvider variant) {
    int shards = CuckooSizing.shardsOf(spec);
    int bits = spec.fingerprintBits().getAsInt();
    ShardedTable sharded = shards > 1 ? ShardedTable.whole(table, shards, bits, table.words().bytes()) : null;
    CuckooTable placed = sharded == null ? table : sharded;
    Parts parts = new Parts(spec, table, stash, store(spec, placed, stash, table.bucketBits(), size),
        file);
    boolean striped = isStriped(spec);
    if (striped) {
      table.words().shareWriters();
    }
    if (file != null) {
      if (striped && file.writable()) {
        ((StripedFingerprintStore) parts.store()).guardWrites(file::beforeChange);
      }
      return new Mapped(parts, striped ? null : placed);
    }
    if (striped) {
      return new ThroughStore(parts);
    }
    return sharded != null ? new Sharded(parts, sharded) : variant.lookups(parts);
  }

  /**
   * The store a spec asks for: a {@code StripedFingerprintStore} when its {@code concurrency}
   * is {@link Concurrency#STRIPED}, else a {@link PlainFingerprintStore}.
   *
   * @param spec the resolved spec: its {@code maxKicks} and {@code seed} drive the kick path
   * @param table the table, with an even bucket count
   * @param stash the stash that goes with it
   * @param bucketBits the bits one bucket takes in the table's {@code long[]} words, buckets
   *     back to back (so that the striped store puts buckets that share a word in one stripe)
   * @param size the items the table and the stash hold now
   * @return the store
   */
  static FingerprintStore store(
      FilterSpec spec, CuckooTable table, FingerprintStash stash, long bucketBits, long size) {
    int maxKicks = spec.maxKicks().getAsInt();
    long seed = spec.seed().orElse(0L);
    if (isStriped(spec)) {
      return new StripedFingerprintStore(table, stash, bucketBits, maxKicks, seed, size);
    }
    return new PlainFingerprintStore(table, stash, new KickPath(maxKicks, seed), size);
  }

  /**
   * @param spec a resolved spec
   * @return whether it asks for the striped store ({@link Concurrency#STRIPED})
   */
  static boolean isStriped(FilterSpec spec) {
    return spec.concurrency().orElse(Concurrency.NONE) == Concurrency.STRIPED;
  }

  /**
   * The filter a table and its stash are, as the next writer recovers them from a file whose
   * writer died: its undo records put back, the items recounted.
   *
   * @param spec the resolved spec
   * @param table the table
   * @param stash the stash the file held
   * @param file the mapped file's keeper, or {@code null} (a test's storage)
   * @param variant the variant
   * @return the filter
   */
  static TableFilter recovered(FilterSpec spec, BitStringTable table, FingerprintStash stash, TableFile file,
      TableProvider variant) {
    return compose(spec, table, stash, table.occupiedSlots() + stash.size(), file, variant);
  }

  /*
   * A heap filter pays one null check of a final field per write for the mapped ones: lookups,
   * the hot path, do not change. A striped filter's writers pass here outside their locks, and
   * again under them (StripedFingerprintStore.guardWrites), where a force cannot slip between.
   */
  private void beforeChange() {
    if (file != null) {
      file.beforeChange();
    }
  }

  /** @return the store, once a mapped file knows that a change is coming ({@link #beforeChange}) */
  private FingerprintStore changing() {
    beforeChange();
    return store;
  }

  /** @return the table */
  public final BitStringTable table() {
    return table;
  }

  /** @return the stash */
  public final FingerprintStash stash() {
    return stash;
  }

  /** @return the bytes of the table, what it holds beside (alternate offsets), and the stash */
  @Override
  public final long sizeInBytes() {
    return table.words().bytes() + table.extraBytes() + stash.memoryBytes();
  }

  @Override
  protected final long payloadLength() {
    return TablePayload.alignedLength(table.words().length());
  }

  @Override
  protected final void writePayload(PayloadOutput out) throws IOException {
    TableWords words = table.words();
    TablePayload.write(out, spec().capacity().getAsLong(), table.slotsPerBucket(), spec().fingerprintBits().getAsInt(),
        CuckooSizing.shardsOf(spec()), table.bucketCount(), store.size(), words.length(),
        o -> words.writeTo(o, words.length()), stash);
  }

  /**
   * Completes a block of lookups whose table answers are in {@code results}: a key the table
   * does not hold may be in the stash, while the stash holds anything.
   *
   * @param lookups the table the keys were looked up in
   * @param hashes the keys' hashes
   * @param n how many
   * @param results the answers, at {@code at}
   * @param at where the block's answers start
   * @param found the true answers of the table
   * @return the true answers, {@code found} and the stash's
   */
  protected final int stashed(CuckooTable lookups, long[] hashes, int n, boolean[] results, int at, int found) {
    if (stash.size() == 0) {
      return found;
    }
    int all = found;
    for (int i = 0; i < n; i++) {
      if (!results[at + i] && stash.mightContain(lookups, hashes[i])) {
        results[at + i] = true;
        all++;
      }
    }
    return all;
  }

  /** A heap table with {@code concurrency=striped}: lookups through the striped store. */
  static final class ThroughStore extends TableFilter {
    /**
     * @param parts what the filter is made of
     */
    public ThroughStore(Parts parts) {
      super(parts);
    }
  }

  /**
   * A heap table split into shards ({@code ShardedTable}), without concurrency. The store's
   * lookup finds the alternate bucket through {@code ShardedTable.alternate}, which divides to
   * find the bucket's shard; {@code ShardedTable.containsHash} takes the shard from the hash with
   * a multiply instead.
   */
  static final class Sharded extends TableFilter {
    private final ShardedTable lookups;

    Sharded(Parts parts, ShardedTable lookups) {
      super(parts);
      this.lookups = lookups;
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      return lookups.containsHash(keyHash) || stash.mightContain(lookups, keyHash);
    }
  }

  /**
   * A table mapped from a file, of any shape, sharded or not, with any concurrency: the filter
   * {@code CuckooFilters.open} and {@code createFile} return. Every change first goes through its
   * {@code TableFile}, which marks the file as being changed (or refuses, for a read-only
   * file). Without concurrency its lookups go to the table (or its sharded view) directly, with
   * {@code concurrency=striped} through the store. A force and a close hold the store still
   * ({@link FingerprintStore#whileUnchanged}): no writer is in the middle of a change while the
   * first page is written and the file sealed.
   */
  static final class Mapped extends TableFilter implements dev.cuckoo.MappedFilter {
    /** The table (or its sharded view) lookups read; {@code null} when they go through the store. */
    private final CuckooTable lookups;
    /** The table itself, for block lookups; {@code null} when lookups go elsewhere. */
    private final BitStringTable blocks;

    Mapped(Parts parts, CuckooTable lookups) {
      super(parts);
      this.lookups = lookups;
      this.blocks = lookups == parts.table() ? parts.table() : null;
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      if (lookups == null) {
        return super.mightContainHash(keyHash);
      }
      return lookups.containsHash(keyHash) || stash.mightContain(lookups, keyHash);
    }

    /** {@inheritDoc} Both buckets of every key read first, then tested, where the table can; the stash after. */
    @Override
    protected int mightContainHashes(long[] hashes, int n, long[] scratch, boolean[] results, int at) {
      if (blocks == null) {
        return super.mightContainHashes(hashes, n, scratch, results, at);
      }
      return stashed(blocks, hashes, n, results, at, blocks.containsHashes(hashes, n, scratch, results, at));
    }

    @Override
    public java.nio.file.Path path() {
      return file.path();
    }

    @Override
    public boolean isWritable() {
      return file.writable();
    }

    @Override
    public void force() throws IOException {
      store.whileUnchanged(() -> file.force(store.size(), stash));
    }

    @Override
    public void close() throws IOException {
      store.whileUnchanged(() -> file.close(store.size(), stash));
    }

    @Override
    public java.util.Optional<dev.cuckoo.FileRecovery> recovery() {
      return file.recovery();
    }

    @Override
    public java.util.OptionalLong unfinishedMerge() {
      long moved = file.unfinishedMerge();
      return moved < 0 ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(moved);
    }

    @Override
    public void abandonMerge() throws IOException {
      if (!file.writable()) {
        throw new UnsupportedOperationException(file.path() + " was opened read-only (CuckooFilters.open): open it"
            + " with CuckooFilters.openWritable to change it");
      }
      try {
        file.endMerge();
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
    }

    /** {@inheritDoc} Its checksum, the items against the table's and the stash's fingerprints, and the table's encoding. */
    @Override
    public void verify() throws IOException {
      if (file.writable()) {
        force();
      }
      BitStringTable table = table();
      file.verify(store.size(), stash.size() + table.occupiedSlots(), table.tailIsClear());
      table.requireEncoding(file.path() + ": " + spec().variant());
    }
  }


  @Override
  protected final boolean addHash(long keyHash) {
    return changing().add(keyHash);
  }

  /** {@inheritDoc} Both buckets of every key of the block fetched first ({@link BitStringTable#fetchBuckets}), then added in order. */
  @Override
  protected final int addHashes(long[] hashes, int n, long[] scratch) {
    table.fetchBuckets(hashes, n, scratch);
    return super.addHashes(hashes, n, scratch);
  }

  @Override
  protected final boolean addIfAbsentHash(long keyHash) {
    return changing().addIfAbsent(keyHash);
  }

  /** {@inheritDoc} Through the store; see the class comment for when to override. */
  @Override
  protected boolean mightContainHash(long keyHash) {
    return store.mightContain(keyHash);
  }

  @Override
  protected final boolean removeHash(long keyHash) {
    return changing().remove(keyHash);
  }

  @Override
  protected final long countHash(long keyHash) {
    return store.count(keyHash);
  }

  @Override
  public final long size() {
    return store.size();
  }

  /** @return the table's slots and the stash's */
  @Override
  public final long slots() {
    return store.slots();
  }

  /**
   * {@inheritDoc} From the load of the table alone ({@link CuckooSizing#expectedFpp}): a lookup
   * compares the key's fingerprint with its two buckets' slots, so the stash's slots (which count
   * in {@link #slots()}) would dilute the load of a small table and understate the rate.
   */
  @Override
  public double expectedFpp() {
    CuckooTable table = table();
    double load = Math.min(1.0, (double) size() / (table.bucketCount() * table.slotsPerBucket()));
    return CuckooSizing.expectedFpp(load, table.slotsPerBucket(), spec().fingerprintBits().getAsInt());
  }

  /**
   * {@inheritDoc} In a mapped file, a merge cut short is forgotten first ({@code MergeRecord}):
   * a writer that dies in the middle leaves either the merged entries with no record of the merge
   * (merging again adds copies, never loses one) or the clear, which the next writer finishes.
   */
  @Override
  public final void clear() {
    beforeChange();
    if (file != null) {
      file.endMerge();
    }
    store.clear();
  }

  /**
   * {@inheritDoc} A table's entries mean something only at their buckets, so the two tables
   * must be of one class with as many buckets of as many slots, and the fingerprints of one
   * width, split into as many shards (the specs equal but for {@code concurrency}, and {@code
   * capacity} where it gives the same bucket count). Every entry of the other's table and stash
   * moves in at its bucket through {@link FingerprintStore#addEntry}: into a bucket of its two,
   * along a kick path, or into the stash, as an add would place it. The other filter is read
   * under {@link FingerprintStore#whileUnchanged}, so a striped one holds still (do not merge two
   * filters into each other at the same time).
   *
   * <p>Into a {@code durability=process} file, the merge keeps its {@code MergeRecord}: a writer
   * that dies in the middle leaves how far it got, and merging the same filter again moves only
   * the entries it had not (the return value counts those it had too); a merge of another filter
   * is refused until then, or until the record is abandoned.
   */
  @Override
  protected long addAllFrom(AbstractCuckooFilter other) {
    if (!(other instanceof TableFilter that)) {
      throw new IllegalArgumentException("cannot merge " + other.spec() + " into " + spec() + ": not a table filter");
    }
    CuckooTable mine = table();
    BitStringTable theirs = that.table();
    int shards = CuckooSizing.shardsOf(spec());
    if (!mine.entryEncoding().equals(theirs.entryEncoding()) || mine.bucketCount() != theirs.bucketCount()
        || mine.slotsPerBucket() != theirs.slotsPerBucket()
        || !spec().fingerprintBits().equals(that.spec().fingerprintBits())
        || shards != CuckooSizing.shardsOf(that.spec())) {
      throw new IllegalArgumentException("cannot merge " + that.spec() + " (" + shape(theirs, that.spec()) + ") into "
          + spec() + " (" + shape(mine, spec()) + "): a fingerprint only means something at its bucket, so the"
          + " tables must have one shape; create both from one config");
    }
    beforeChange();
    MergeRecord record = file == null ? null : file.mergeRecord();
    long[] moved = {0};
    try {
      that.store.whileUnchanged(() -> {
        long resume = record == null ? 0 : resume(record, MergeRecord.digest(theirs, that.stash));
        long index = 0;
        long buckets = theirs.bucketCount();
        int slots = theirs.slotsPerBucket();
        for (long b = 0; b < buckets; b++) {
          for (int s = 0; s < slots; s++) {
            long entry = theirs.entryAt(b, s);
            if (entry != 0) {
              if (index >= resume && !moveIn(record, index, b, theirs.fingerprintOf(entry), entry)) {
                return;
              }
              index++;
              moved[0]++;
            }
          }
        }
        FingerprintStash stashed = that.stash;
        for (int i = 0; i < stashed.size(); i++) {
          if (index >= resume && !moveIn(record, index, stashed.bucket(i), stashed.fingerprint(i), stashed.entry(i))) {
            return;
          }
          index++;
          moved[0]++;
        }
        if (record != null) {
          record.finish(index); // until the next force: see MergeRecord
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e); // the action does no I/O
    }
    if (record != null && !record.finished()) {
      file.endMerge(); // refused, which the return says: nothing is left to finish
    }
    return moved[0];
  }

  /**
   * @return the index of the source's first entry not yet moved: that of a merge of the same
   *     source cut short, or 0 for a merge begun now
   * @throws IllegalStateException if the file records a merge of another source
   */
  private long resume(MergeRecord record, long digest) {
    if (!record.active() || (record.finished() && (record.ours() || record.digest() != digest))) {
      // Nothing recorded, or a merge that finished: of this writer's (merging a filter again
      // merges it again), or of another filter's, which stops nothing.
      record.begin(digest);
      return 0;
    }
    if (record.digest() != digest) {
      throw new IllegalStateException("cannot merge into " + file.path() + ": it records a merge of another filter"
          + " that was cut short after moving " + record.moved() + " entries (MappedFilter.unfinishedMerge); merge"
          + " that filter again to finish it, or call MappedFilter.abandonMerge() to keep what it moved and merge"
          + " this one");
    }
    return record.moved();
  }

  /**
   * Moves one entry of a merge in, between the two stores of its record: the first says which
   * entry is being stored and how many copies of its fingerprint there were, the second that it
   * is done. An entry a merge cut short had been storing is stored only if its count shows it
   * was not.
   *
   * @return {@code false} if the table and the stash are full
   */
  private boolean moveIn(MergeRecord record, long index, long bucket, int fingerprint, long entry) {
    if (record == null) {
      return store.addEntry(bucket, fingerprint, entry);
    }
    long count = store.countEntries(bucket, fingerprint);
    if (record.pending() && record.moved() == index && count > record.countBefore()) {
      record.next(index + 1); // stored before its writer stopped
      return true;
    }
    record.storing(index, count);
    boolean stored = store.addEntry(bucket, fingerprint, entry);
    record.next(stored ? index + 1 : index);
    return stored;
  }

  /** @return a table's shape as a refused merge names it: buckets, slots, and shards where there are several */
  private static String shape(CuckooTable table, FilterSpec spec) {
    int shards = CuckooSizing.shardsOf(spec);
    String buckets = table.bucketCount() + " buckets of " + table.slotsPerBucket() + " slots";
    return shards > 1 ? buckets + " in " + shards + " shards" : buckets;
  }

  /** {@inheritDoc} With {@code concurrency=striped}, a snapshot: writers wait until it is written. */
  @Override
  public final void writeTo(OutputStream out) throws IOException {
    store.whileUnchanged(() -> super.writeTo(out));
  }

  /** {@inheritDoc} Yes: the table starts at a multiple of 4096 in the file, so that it maps as written. */
  @Override
  protected final boolean alignsPayload() {
    return true;
  }
}
