package dev.cuckoo.classic;

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
 * The classic cuckoo filter: partial-key cuckoo hashing over a {@link BucketTable} with two
 * candidate buckets per key; see {@link ClassicProvider} for what it promises. {@link #of} picks
 * the class: the fast shapes without concurrency get a subclass whose lookup names its table's
 * final class.
 */
sealed class ClassicFilter extends AbstractCuckooFilter
    permits ClassicFilter.OfByteBuckets, ClassicFilter.OfShortBuckets {

  /*
   * Fan et al. [1], section 3: a key's hash gives its first bucket i1 and an f-bit fingerprint;
   * its second bucket is alternate(i1, fingerprint) (PartialKeyHashing). FingerprintStore runs
   * add, lookup, count and remove over the table: a refused add changes nothing (KickPath undoes
   * itself), and only keys that were added may be removed (section 3.3).
   *
   * The table is sized by CuckooSizing (an even bucket count, no power of two) and the file
   * payload is the table's words as they are (BucketTable describes the layout):
   *
   *   int   payload layout, 1
   *   long  bucket count (must equal what the spec's capacity and bucket size give)
   *   long  items stored
   *   long  W, the table's words (must equal what the shape needs)
   *   W     longs, the table
   *   int   S, stashed fingerprints (at most the stash's slots)
   *   S     entries: long bucket, int fingerprint
   *
   * A lookup in a loop of independent lookups over a table larger than the caches costs about
   * as much per instruction as per cache miss: the processor overlaps the misses of as many
   * lookups as its reorder window holds instructions for (docs/results.md, "Repeated JMH
   * lookups"). Every type check on the way to the table counts. Calling the table through
   * CuckooStore and SearchableTable costs two of them (a class compare each, as several
   * implementations are loaded), so the two fast shapes without concurrency have a subclass
   * whose lookup calls its table's final class directly: the only type check left is the one
   * the caller makes on the filter itself.
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   */

  /** The payload layout this class writes. */
  static final int PAYLOAD_LAYOUT = 1;
  /** Bytes of the payload before the table's words. */
  static final int PAYLOAD_HEADER_BYTES = Integer.BYTES + 3 * Long.BYTES;

  private final CuckooStore store;
  private final BucketTable table;
  private final FingerprintStash stash;
  private final long buckets;
  private final int bits;

  /**
   * Creates an empty filter of the resolved spec's shape.
   *
   * @param spec the resolved spec
   * @return the filter
   */
  static ClassicFilter of(FilterSpec spec) {
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
  static ClassicFilter of(FilterSpec spec, BucketTable table, FingerprintStash stash, long size) {
    long bucketBits = (long) table.slotsPerBucket() * spec.fingerprintBits().getAsInt();
    CuckooStore store = CuckooStore.create(spec, table, stash, bucketBits, size);
    if (store instanceof FingerprintStore<?> plain) {
      if (table instanceof ShortBucketTable shorts) {
        return new OfShortBuckets(spec, shorts, stash, plain);
      }
      if (table instanceof ByteBucketTable bytes) {
        return new OfByteBuckets(spec, bytes, stash, plain);
      }
    }
    return new ClassicFilter(spec, table, stash, store);
  }

  private ClassicFilter(FilterSpec spec, BucketTable table, FingerprintStash stash, CuckooStore store) {
    super(spec);
    this.table = table;
    this.stash = stash;
    this.store = store;
    this.buckets = table.bucketCount();
    this.bits = spec.fingerprintBits().getAsInt();
  }

  private static BucketTable newTable(FilterSpec spec) {
    int slots = spec.bucketSize().getAsInt();
    int bits = spec.fingerprintBits().getAsInt();
    return BucketTable.create(CuckooSizing.bucketCount(spec.capacity().getAsLong(), slots, bits), slots, bits);
  }

  /** @return the table, for tests */
  BucketTable table() {
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

  /** @return the bytes of the table, its precomputed alternate offsets, and the stash */
  @Override
  public long sizeInBytes() {
    return table.tableBytes() + table.extraBytes() + (long) stash.slots() * FingerprintStash.ENTRY_BYTES;
  }

  @Override
  public double expectedFpp() {
    return CuckooSizing.expectedFpp(loadFactor(), table.slotsPerBucket(), bits);
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
    return PAYLOAD_HEADER_BYTES + BucketTable.payloadWords(buckets, table.slots, bits) * Long.BYTES
        + stash.payloadBytes();
  }

  @Override
  protected void writePayload(PayloadOutput out) throws IOException {
    long words = BucketTable.payloadWords(buckets, table.slots, bits);
    out.writeInt(PAYLOAD_LAYOUT);
    out.writeLong(buckets);
    out.writeLong(store.size());
    out.writeLong(words);
    table.writePayloadWords(out);
    stash.writeTo(out);
  }

  /** 16-bit fingerprints in buckets of 4 ({@link ShortBucketTable}), without concurrency. */
  static final class OfShortBuckets extends ClassicFilter {
    private final ShortBucketTable shorts;
    private final FingerprintStore<?> plain;

    OfShortBuckets(FilterSpec spec, ShortBucketTable table, FingerprintStash stash, FingerprintStore<?> store) {
      super(spec, table, stash, store);
      this.shorts = table;
      this.plain = store;
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      return shorts.containsHash(keyHash) || plain.stashMightContain(keyHash);
    }
  }

  /** 8-bit fingerprints in buckets of 4 ({@link ByteBucketTable}), without concurrency. */
  static final class OfByteBuckets extends ClassicFilter {
    private final ByteBucketTable bytes;
    private final FingerprintStore<?> plain;

    OfByteBuckets(FilterSpec spec, ByteBucketTable table, FingerprintStash stash, FingerprintStore<?> store) {
      super(spec, table, stash, store);
      this.bytes = table;
      this.plain = store;
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      return bytes.containsHash(keyHash) || plain.stashMightContain(keyHash);
    }
  }
}
