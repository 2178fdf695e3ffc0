package dev.cuckoo.semisorted;

import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.AbstractCuckooFilter;
import dev.cuckoo.spi.CuckooSizing;
import dev.cuckoo.spi.FingerprintStash;
import dev.cuckoo.spi.KickPath;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;

/**
 * The semi-sorted cuckoo filter: partial-key cuckoo hashing over a {@link SemiSortedTable}, two
 * candidate buckets of four fingerprints per key; see {@link SemiSortedProvider} for what it
 * promises.
 */
final class SemiSortedFilter extends AbstractCuckooFilter {

  /*
   * The cuckoo filter of Fan et al. [1], section 3, with the semi-sorted buckets of section 5.2
   * (SemiSortedTable, SemiSortCodec): a key's hash gives its first bucket and an f-bit
   * fingerprint, its second bucket is alternate(i1, fingerprint) (PartialKeyHashing). Add stores
   * the fingerprint in either bucket or relocates along a KickPath, which undoes itself when it
   * fails, so a refused add changes nothing; a FingerprintStash takes the rare key no
   * arrangement holds. Only keys that were added may be removed (section 3.3).
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
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   */

  /** The payload layout this class writes. */
  static final int PAYLOAD_LAYOUT = 1;
  /** Bytes of the payload before the table's words. */
  static final int PAYLOAD_HEADER_BYTES = Integer.BYTES + 3 * Long.BYTES;

  private final SemiSortedTable table;
  private final FingerprintStash stash;
  private final KickPath kicks;
  private long size;
  /** Whether the stash holds anything: one field for lookups to test. */
  private boolean stashInUse;

  /** Creates an empty filter of the resolved spec's shape. */
  SemiSortedFilter(FilterSpec spec) {
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
  SemiSortedFilter(FilterSpec spec, SemiSortedTable table, FingerprintStash stash, long size) {
    super(spec);
    this.table = table;
    this.stash = stash;
    this.kicks = new KickPath(spec.maxKicks().getAsInt(), spec.seed().getAsLong());
    this.size = size;
    this.stashInUse = stash.size() != 0;
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
    long bucket1 = table.bucketIndex(keyHash);
    int fingerprint = table.fingerprint(keyHash);
    if (!table.insert(bucket1, fingerprint)) {
      long bucket2 = table.alternate(bucket1, fingerprint);
      if (!table.insert(bucket2, fingerprint)
          && !kicks.relocate(table, bucket1, bucket2, fingerprint)
          && !stash.add(bucket1, fingerprint)) {
        return false;
      }
      stashInUse = stash.size() != 0;
    }
    size++;
    return true;
  }

  @Override
  protected boolean mightContainHash(long keyHash) {
    return table.containsHash(keyHash) || (stashInUse && stashContains(keyHash));
  }

  private boolean stashContains(long keyHash) {
    long bucket1 = table.bucketIndex(keyHash);
    int fingerprint = table.fingerprint(keyHash);
    return stash.contains(bucket1, table.alternate(bucket1, fingerprint), fingerprint);
  }

  @Override
  protected boolean removeHash(long keyHash) {
    long bucket1 = table.bucketIndex(keyHash);
    int fingerprint = table.fingerprint(keyHash);
    long bucket2 = table.alternate(bucket1, fingerprint);
    if (table.remove(bucket1, fingerprint) || table.remove(bucket2, fingerprint)) {
      if (stashInUse) {
        stash.reinsert(table);
      }
    } else if (!stash.remove(bucket1, bucket2, fingerprint)) {
      return false;
    }
    stashInUse = stash.size() != 0;
    size--;
    return true;
  }

  @Override
  protected long countHash(long keyHash) {
    long bucket1 = table.bucketIndex(keyHash);
    int fingerprint = table.fingerprint(keyHash);
    long bucket2 = table.alternate(bucket1, fingerprint);
    // The bucket count is even, so the two buckets differ and no slot is counted twice.
    return table.count(bucket1, bucket2, fingerprint) + stash.count(bucket1, bucket2, fingerprint);
  }

  @Override
  public long size() {
    return size;
  }

  /** @return the table's slots and the stash's */
  @Override
  public long capacity() {
    return table.bucketCount * SemiSortedTable.SLOTS + stash.slots();
  }

  /** @return the bytes of the table and the stash (the codec's tables are shared by all filters) */
  @Override
  public long sizeInBytes() {
    return (long) table.words.length * Long.BYTES + (long) stash.slots() * FingerprintStash.ENTRY_BYTES;
  }

  @Override
  public double expectedFpp() {
    return CuckooSizing.expectedFpp(loadFactor(), SemiSortedTable.SLOTS, table.bits);
  }

  @Override
  public void clear() {
    table.clear();
    stash.clear();
    stashInUse = false;
    size = 0;
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
    out.writeLong(size);
    out.writeLong(words);
    out.writeLongs(table.words, 0, (int) words);
    stash.writeTo(out);
  }
}
