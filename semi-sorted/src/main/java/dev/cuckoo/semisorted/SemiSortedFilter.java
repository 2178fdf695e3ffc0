package dev.cuckoo.semisorted;

import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.AbstractCuckooFilter;
import dev.cuckoo.spi.CuckooSizing;
import dev.cuckoo.spi.CuckooStore;
import dev.cuckoo.spi.FingerprintStash;
import dev.cuckoo.spi.FingerprintStore;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The semi-sorted cuckoo filter: partial-key cuckoo hashing over a {@link SemiSortedTable}, two
 * candidate buckets of four fingerprints per key; see {@link SemiSortedProvider} for what it
 * promises. {@link #of} picks the class: 16-bit fingerprints without concurrency get a subclass
 * whose lookup names its table's final class.
 */
sealed class SemiSortedFilter extends AbstractCuckooFilter permits SemiSortedFilter.OfSixteenBits {

  /*
   * The cuckoo filter of Fan et al. [1], section 3, with the semi-sorted buckets of section 5.2
   * (SemiSortedTable, SemiSortCodec): a key's hash gives its first bucket and an f-bit
   * fingerprint, its second bucket is alternate(i1, fingerprint) (PartialKeyHashing).
   * FingerprintStore runs add, lookup, count and remove over the table, as for a classic filter:
   * a refused add changes nothing (KickPath undoes itself), a FingerprintStash takes the rare key
   * no arrangement holds, and only keys that were added may be removed (section 3.3).
   *
   * The table is sized by CuckooSizing (an even bucket count, no power of two), the same number
   * of buckets as a classic filter of the same capacity, each one bit per slot smaller. The file
   * payload is the table's words as they are (SemiSortedTable describes the layout):
   *
   *   int   payload layout, 1
   *   long  bucket count (must equal what the spec's capacity gives)
   *   long  items stored
   *   long  W, the table's words (must equal what the shape needs)
   *   W     longs, the table (every bucket canonical, nothing after the last)
   *   int   S, stashed fingerprints (at most the stash's slots)
   *   S     entries: long bucket, int fingerprint
   *
   * A lookup in a loop of independent lookups over a table larger than the caches costs about
   * as much per instruction as per cache miss (docs/results.md), so the headline shape skips the
   * type checks of calling its table through CuckooStore and SearchableTable, as classic's fast
   * shapes do (ClassicFilter).
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   */

  /** The payload layout this class writes. */
  static final int PAYLOAD_LAYOUT = 1;
  /** Bytes of the payload before the table's words. */
  static final int PAYLOAD_HEADER_BYTES = Integer.BYTES + 3 * Long.BYTES;

  private final CuckooStore store;
  private final SemiSortedTable table;
  private final FingerprintStash stash;

  /**
   * Creates an empty filter of the resolved spec's shape.
   *
   * @param spec the resolved spec
   * @return the filter
   */
  static SemiSortedFilter of(FilterSpec spec) {
    return of(spec, newTable(spec), new FingerprintStash(FingerprintStash.DEFAULT_SLOTS), 0);
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
    CuckooStore store = CuckooStore.create(spec, table, stash, table.bucketBits, size);
    if (store instanceof FingerprintStore<?> plain && table instanceof SixteenBitTable sixteen) {
      return new OfSixteenBits(spec, sixteen, stash, plain);
    }
    return new SemiSortedFilter(spec, table, stash, store);
  }

  private SemiSortedFilter(FilterSpec spec, SemiSortedTable table, FingerprintStash stash, CuckooStore store) {
    super(spec);
    this.table = table;
    this.stash = stash;
    this.store = store;
  }

  private static SemiSortedTable newTable(FilterSpec spec) {
    int bits = spec.fingerprintBits().getAsInt();
    return SemiSortedTable.create(CuckooSizing.bucketCount(spec.capacity().getAsLong(), SemiSortedTable.SLOTS, bits), bits);
  }

  /** @return the table, for tests */
  SemiSortedTable table() {
    return table;
  }

  /** @return the stash, for tests */
  FingerprintStash stash() {
    return stash;
  }

  @Override
  protected boolean addHash(long keyHash) {
    return store.add(keyHash);
  }

  @Override
  protected boolean addIfAbsentHash(long keyHash) {
    return store.addIfAbsent(keyHash);
  }

  @Override
  protected boolean mightContainHash(long keyHash) {
    return store.mightContain(keyHash);
  }

  @Override
  protected boolean removeHash(long keyHash) {
    return store.remove(keyHash);
  }

  @Override
  protected long countHash(long keyHash) {
    return store.count(keyHash);
  }

  @Override
  public long size() {
    return store.size();
  }

  /** @return the table's slots and the stash's */
  @Override
  public long slots() {
    return store.slots();
  }

  /**
   * @return the bytes of the table, its precomputed alternate offsets, and the stash (the codec's
   *     tables are shared by all filters)
   */
  @Override
  public long sizeInBytes() {
    return (long) table.words.length * Long.BYTES + table.extraBytes() + (long) stash.slots() * FingerprintStash.ENTRY_BYTES;
  }

  @Override
  public double expectedFpp() {
    return CuckooSizing.expectedFpp(loadFactor(), SemiSortedTable.SLOTS, table.bits);
  }

  @Override
  public void clear() {
    store.clear();
  }

  /** {@inheritDoc} With {@code concurrency=striped}, a snapshot: writers wait until it is written. */
  @Override
  public void writeTo(OutputStream out) throws IOException {
    store.whileUnchanged(() -> super.writeTo(out));
  }

  @Override
  protected long payloadLength() {
    return PAYLOAD_HEADER_BYTES + SemiSortedTable.payloadWords(table.bucketCount, table.bits) * Long.BYTES
        + stash.payloadBytes();
  }

  @Override
  protected void writePayload(PayloadOutput out) throws IOException {
    long words = SemiSortedTable.payloadWords(table.bucketCount, table.bits);
    out.writeInt(PAYLOAD_LAYOUT);
    out.writeLong(table.bucketCount);
    out.writeLong(store.size());
    out.writeLong(words);
    out.writeLongs(table.words, 0, (int) words);
    stash.writeTo(out);
  }

  /** 16-bit fingerprints ({@link SixteenBitTable}), without concurrency. */
  static final class OfSixteenBits extends SemiSortedFilter {
    private final SixteenBitTable sixteen;
    private final FingerprintStore<?> plain;

    OfSixteenBits(FilterSpec spec, SixteenBitTable table, FingerprintStash stash, FingerprintStore<?> store) {
      super(spec, table, stash, store);
      this.sixteen = table;
      this.plain = store;
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      return sixteen.containsHash(keyHash) || plain.stashMightContain(keyHash);
    }
  }
}
