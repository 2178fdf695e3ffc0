package dev.cuckoo.classic;

import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.AbstractCuckooFilter;
import dev.cuckoo.spi.CuckooSizing;
import dev.cuckoo.spi.CuckooStore;
import dev.cuckoo.spi.FingerprintStash;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The classic cuckoo filter: partial-key cuckoo hashing over a {@link BucketTable} with two
 * candidate buckets per key; see {@link ClassicProvider} for what it promises.
 */
final class ClassicFilter extends AbstractCuckooFilter {

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

  /** Creates an empty filter of the resolved spec's shape. */
  ClassicFilter(FilterSpec spec) {
    this(spec, newTable(spec), new FingerprintStash(FingerprintStash.DEFAULT_SLOTS), 0);
  }

  /**
   * Wraps a table and stash read from a file.
   *
   * @param spec the resolved spec
   * @param table a table of the spec's shape
   * @param stash the fingerprints kept beside it
   * @param size the items the table and the stash hold
   */
  ClassicFilter(FilterSpec spec, BucketTable table, FingerprintStash stash, long size) {
    super(spec);
    this.table = table;
    this.stash = stash;
    this.store = CuckooStore.create(spec, table, stash, (long) table.slotsPerBucket() * spec.fingerprintBits().getAsInt(), size);
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
  public long capacity() {
    return store.capacity();
  }

  /** @return the bytes of the table, its precomputed alternate offsets, and the stash */
  @Override
  public long sizeInBytes() {
    return (long) table.words.length * Long.BYTES + table.extraBytes() + (long) stash.slots() * FingerprintStash.ENTRY_BYTES;
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
    out.writeLongs(table.words, 0, (int) words);
    stash.writeTo(out);
  }
}
