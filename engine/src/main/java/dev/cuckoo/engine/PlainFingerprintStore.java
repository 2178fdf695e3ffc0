package dev.cuckoo.engine;

/**
 * The single-threaded {@link FingerprintStore}: a key is stored as its fingerprint in one of its
 * two candidate buckets, relocated along a {@link KickPath} when both are full, and kept in a
 * {@link FingerprintStash} when no relocation succeeds. Variants whose tables differ only in
 * encoding share it, so that they insert, find and remove alike.
 *
 * <p>Beyond {@link FingerprintStore}'s contract: a refused {@link #add} leaves every stored item
 * where it was, not only findable. No method allocates. Not thread-safe: the
 * engine's striped store is the one to share between threads. A table whose entries carry
 * values is driven through its entries directly ({@link #addEntry}).
 */
public final class PlainFingerprintStore implements FingerprintStore {

  /*
   * Fan et al. [1], section 3: a key's hash gives its first bucket i1 and an f-bit fingerprint;
   * its second bucket is alternate(i1, fingerprint) (PartialKeyHashing). Add stores the
   * fingerprint in an empty slot of i1, else of i2, else relocates along a KickPath, which
   * walks its path before it moves anything and writes nothing when the walk gives up, so a
   * refused add changes nothing; a fingerprint no relocation
   * places waits in the stash, which lookups check only while it holds something. Lookup and
   * count read both buckets; remove takes one copy of the fingerprint from either, which is why
   * only keys that were added may be removed (section 3.3). A removal may free the slot a
   * stashed fingerprint needs, so it moves what it can back.
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   */

  private final CuckooTable table;
  private final FingerprintStash stash;
  private final KickPath kicks;
  private long size;

  /**
   * @param table the table, with an even bucket count
   * @param stash the stash that goes with it
   * @param kicks the kick path for it
   * @param size the items the table and the stash hold now
   */
  public PlainFingerprintStore(CuckooTable table, FingerprintStash stash, KickPath kicks, long size) {
    this.table = table;
    this.stash = stash;
    this.kicks = kicks;
    this.size = size;
  }

  /** @return the items stored, in the table and the stash */
  @Override
  public long size() {
    return size;
  }

  /** @return the slots of the table and of the stash */
  @Override
  public long slots() {
    return table.bucketCount() * table.slotsPerBucket() + stash.slots();
  }

  /**
   * Stores one copy of the key's fingerprint.
   *
   * @param keyHash the key's 64-bit hash
   * @return {@code true} if stored; {@code false} if refused, leaving everything as it was
   */
  @Override
  public boolean add(long keyHash) {
    long bucket1 = table.bucketIndex(keyHash);
    int fingerprint = table.fingerprint(keyHash);
    return addEntry(bucket1, fingerprint, Integer.toUnsignedLong(fingerprint));
  }

  /**
   * Stores an entry (a fingerprint and the value beside it, see {@link CuckooTable}) in one of
   * its two buckets, relocating others along the kick path, or in the stash.
   *
   * @param bucket1 the entry's first bucket
   * @param fingerprint its fingerprint, {@code table.fingerprintOf(entry)}
   * @param entry the non-zero entry, as {@code bucket1} stores it ({@link CuckooTable#movedEntry})
   * @return {@code true} if stored; {@code false} if refused, leaving everything as it was
   */
  @Override
  public boolean addEntry(long bucket1, int fingerprint, long entry) {
    if (!table.insert(bucket1, entry)) {
      // The other bucket only when the first is full: most adds never need it.
      long bucket2 = table.alternate(bucket1, fingerprint);
      if (!table.insert(bucket2, table.movedEntry(entry))
          && !kicks.relocate(table, bucket1, bucket2, entry)
          && !stash.add(bucket1, fingerprint, entry)) {
        return false;
      }
    }
    size++;
    return true;
  }

  /**
   * @param keyHash the key's 64-bit hash
   * @return whether either of its buckets or the stash holds its fingerprint
   */
  @Override
  public boolean mightContain(long keyHash) {
    return table.containsHash(keyHash) || stash.mightContain(table, keyHash);
  }

  /**
   * Removes one copy of the key's fingerprint.
   *
   * @param keyHash the key's 64-bit hash
   * @return {@code false} if neither bucket nor the stash holds it
   */
  @Override
  public boolean remove(long keyHash) {
    long bucket1 = table.bucketIndex(keyHash);
    int fingerprint = table.fingerprint(keyHash);
    return removeEntry(bucket1, fingerprint, Integer.toUnsignedLong(fingerprint));
  }

  /**
   * Removes one copy of exactly this entry (fingerprint and value) from either of its buckets
   * or the stash; then moves what the freed slot lets back from the stash.
   *
   * @param bucket1 the entry's first bucket
   * @param fingerprint its fingerprint, {@code table.fingerprintOf(entry)}
   * @param entry the non-zero entry, as {@code bucket1} stores it
   * @return {@code false} if neither bucket nor the stash holds it
   */
  public boolean removeEntry(long bucket1, int fingerprint, long entry) {
    long bucket2 = table.alternate(bucket1, fingerprint);
    if (table.remove(bucket1, entry) || table.remove(bucket2, table.movedEntry(entry))) {
      if (stash.size() != 0) {
        stash.reinsert(table);
      }
    } else if (!stash.removeEntry(bucket1, bucket2, entry)) {
      return false;
    }
    size--;
    return true;
  }

  /**
   * @param keyHash the key's 64-bit hash
   * @return the copies of its fingerprint in its two buckets and the stash
   */
  @Override
  public long count(long keyHash) {
    long bucket1 = table.bucketIndex(keyHash);
    int fingerprint = table.fingerprint(keyHash);
    long bucket2 = table.alternate(bucket1, fingerprint);
    // The bucket count is even, so the two buckets differ and no slot is counted twice.
    return (long) table.count(bucket1, bucket2, fingerprint) + stash.count(bucket1, bucket2, fingerprint);
  }

  @Override
  public long countEntries(long bucket1, int fingerprint) {
    long bucket2 = table.alternate(bucket1, fingerprint);
    return (long) table.count(bucket1, bucket2, fingerprint) + stash.count(bucket1, bucket2, fingerprint);
  }

  /** Empties the table and the stash. */
  @Override
  public void clear() {
    table.clear();
    stash.clear();
    size = 0;
  }

  /** {@inheritDoc} Runs it: a store of one thread does not change while it runs. */
  @Override
  public void whileUnchanged(Snapshot action) throws java.io.IOException {
    action.run();
  }
}
