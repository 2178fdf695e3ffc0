package dev.cuckoo.engine;

import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.AbstractCuckooFilter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * A base for filters that are one {@link CuckooTable}, its {@link FingerprintStash} and the
 * {@link FingerprintStore} the spec asks for: every write, every count and the sizes go to the
 * store, which is what such variants share, and a variant adds its table's encoding, its memory,
 * its payload and, where it has one, a faster lookup.
 *
 * <p>Lookups go through the store by default, which is right for {@code concurrency=striped}
 * (the store validates what it reads against the writers). Without concurrency a variant should
 * override {@link #mightContainHash} in a subclass per table class, looking up in the table's
 * final class and then {@code stash.mightContain(table, keyHash)}: in a loop of lookups over a
 * table larger than the caches every instruction counts, and a call through the store and the
 * table's interface costs type checks that the final class does not.
 */
public abstract class TableFilter extends AbstractCuckooFilter {
  /** Runs every write, and counts. */
  protected final FingerprintStore store;
  /** The fingerprints the table could not place. */
  protected final FingerprintStash stash;

  /**
   * @param spec the resolved spec
   * @param store the store over the table and the stash, as {@link FingerprintStore#create}
   *     makes it for the spec
   * @param stash the stash
   */
  protected TableFilter(FilterSpec spec, FingerprintStore store, FingerprintStash stash) {
    this(spec, store, stash, null);
  }

  /**
   * For a filter whose table is mapped from a file: every change first goes through {@code
   * file}, which marks the file as being changed (or refuses, for a read-only file).
   *
   * @param spec the resolved spec
   * @param store the store over the table and the stash
   * @param stash the stash
   * @param file the file's consistency keeper, from {@link TablePayload#open} or {@link
   *     TablePayload#create}; {@code null} for a table on the heap
   */
  protected TableFilter(FilterSpec spec, FingerprintStore store, FingerprintStash stash, MappedTable file) {
    super(spec);
    this.store = store;
    this.stash = stash;
    this.file = file;
  }

  /** What keeps a mapped table's file consistent; {@code null} for a table on the heap. */
  private final MappedTable file;

  /*
   * A heap filter pays one null check of a final field per write for the mapped ones: lookups,
   * the hot path, do not change.
   */
  private void beforeChange() {
    if (file != null) {
      file.beforeChange();
    }
  }

  /**
   * @return the mapped table's file keeper
   * @throws IllegalStateException if the table is on the heap
   */
  private MappedTable file() {
    if (file == null) {
      throw new IllegalStateException("the filter's table is on the heap, not mapped from a file");
    }
    return file;
  }

  /*
   * The methods of dev.cuckoo.MappedFilter, written once for every table variant: a variant's
   * mapped filter class declares that it implements MappedFilter and inherits them. On a heap
   * filter, which is no MappedFilter, they throw IllegalStateException.
   */

  /**
   * @return the file a mapped filter's table lies in
   * @throws IllegalStateException if the table is on the heap
   */
  public final java.nio.file.Path path() {
    return file().path();
  }

  /**
   * @return whether a mapped filter's file is open for writing
   * @throws IllegalStateException if the table is on the heap
   */
  public final boolean isWritable() {
    return file().writable();
  }

  /**
   * Makes a mapped filter's file hold what it holds, durably ({@link
   * dev.cuckoo.MappedFilter#force}).
   *
   * @throws IOException if writing fails
   * @throws IllegalStateException if the table is on the heap, or the file is closed
   */
  public final void force() throws IOException {
    file().force(store.size(), stash);
  }

  /**
   * Forces a mapped filter's writable file and closes it ({@link dev.cuckoo.MappedFilter#close}).
   *
   * @throws IOException if writing or closing fails
   * @throws IllegalStateException if the table is on the heap
   */
  public final void close() throws IOException {
    file().close(store.size(), stash);
  }

  /**
   * Checks a mapped filter's file: its checksum, and the items against the table's and the
   * stash's fingerprints.
   *
   * @param tailIsClear whether the bits after the table's last slot are zeros, as the table
   *     checks them (its own {@code tailIsClear}, which the read path asks too)
   * @param tableOccupied the table's slots in use, as the table counts them (its own
   *     {@code occupiedSlots}, which the read path checks the items against too)
   * @throws IOException if reading fails or anything differs
   */
  protected final void verifyFile(boolean tailIsClear, long tableOccupied) throws IOException {
    MappedTable keeper = file();
    if (keeper.writable()) {
      force();
    }
    keeper.verify(store.size(), stash.size() + tableOccupied, tailIsClear);
  }

  /** @return the table */
  protected abstract CuckooTable table();

  @Override
  protected final boolean addHash(long keyHash) {
    beforeChange();
    return store.add(keyHash);
  }

  @Override
  protected final boolean addIfAbsentHash(long keyHash) {
    beforeChange();
    return store.addIfAbsent(keyHash);
  }

  /** {@inheritDoc} Through the store; see the class comment for when to override. */
  @Override
  protected boolean mightContainHash(long keyHash) {
    return store.mightContain(keyHash);
  }

  @Override
  protected final boolean removeHash(long keyHash) {
    beforeChange();
    return store.remove(keyHash);
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

  @Override
  public final void clear() {
    beforeChange();
    store.clear();
  }

  /**
   * {@inheritDoc} A table's entries mean something only at their buckets, so the two tables
   * must be of one class with as many buckets of as many slots, and the fingerprints of one
   * width, split into as many shards (the specs equal but for {@code concurrency}, and {@code
   * capacity} where it gives the same bucket count). Every entry of the other's table and stash moves in at its bucket
   * through {@link FingerprintStore#addEntry}: into a bucket of its two, along a kick path, or
   * into the stash, as an add would place it. The other filter is read under {@link
   * FingerprintStore#whileUnchanged}, so a striped one holds still (do not merge two filters
   * into each other at the same time).
   */
  @Override
  protected long addAllFrom(AbstractCuckooFilter other) {
    if (!(other instanceof TableFilter that)) {
      throw new IllegalArgumentException("cannot merge " + other.spec() + " into " + spec() + ": not a table filter");
    }
    CuckooTable mine = table();
    CuckooTable theirs = that.table();
    int shards = ShardedTable.shardsOf(spec());
    if (!mine.entryEncoding().equals(theirs.entryEncoding()) || mine.bucketCount() != theirs.bucketCount()
        || mine.slotsPerBucket() != theirs.slotsPerBucket()
        || !spec().fingerprintBits().equals(that.spec().fingerprintBits())
        || shards != ShardedTable.shardsOf(that.spec())) {
      throw new IllegalArgumentException("cannot merge " + that.spec() + " (" + shape(theirs, that.spec()) + ") into "
          + spec() + " (" + shape(mine, spec()) + "): a fingerprint only means something at its bucket, so the"
          + " tables must have one shape; create both from one config");
    }
    beforeChange();
    long[] moved = {0};
    try {
      that.store.whileUnchanged(() -> {
        long buckets = theirs.bucketCount();
        int slots = theirs.slotsPerBucket();
        for (long b = 0; b < buckets; b++) {
          for (int s = 0; s < slots; s++) {
            long entry = theirs.entryAt(b, s);
            if (entry != 0) {
              if (!store.addEntry(b, theirs.fingerprintOf(entry), entry)) {
                return;
              }
              moved[0]++;
            }
          }
        }
        FingerprintStash stashed = that.stash;
        for (int i = 0; i < stashed.size(); i++) {
          if (!store.addEntry(stashed.bucket(i), stashed.fingerprint(i), stashed.entry(i))) {
            return;
          }
          moved[0]++;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e); // the action does no I/O
    }
    return moved[0];
  }

  /** @return a table's shape as a refused merge names it: buckets, slots, and shards where there are several */
  private static String shape(CuckooTable table, FilterSpec spec) {
    int shards = ShardedTable.shardsOf(spec);
    return table.bucketCount() + " buckets of " + table.slotsPerBucket() + " slots"
        + (shards > 1 ? " in " + shards + " shards" : "");
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
