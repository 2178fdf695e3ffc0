package dev.cuckoo.spi;

/**
 * The operations of a partial-key cuckoo filter on key hashes, over any {@link
 * SearchableTable}: a key is stored as its fingerprint in one of its two candidate buckets,
 * relocated along a {@link KickPath} when both are full, and kept in a {@link FingerprintStash}
 * when no relocation succeeds. Variants whose tables differ only in encoding share it, so that
 * they insert, find and remove alike.
 *
 * <p>The contract: {@link #add} stores one copy or returns {@code false} leaving every stored
 * item where it was; {@link #mightContain} is {@code true} for every key added and not removed;
 * {@link #remove} takes one copy of the key's fingerprint from either bucket or the stash, so
 * only keys that were added may be removed; {@link #count} counts the copies of the key's
 * fingerprint in both buckets and the stash. The table's bucket count must be even, so that a
 * key's two buckets differ. No method allocates. Not thread-safe: {@link
 * StripedFingerprintStore} is the one to share between threads.
 *
 * @param <T> the table type
 */
public final class FingerprintStore<T extends SearchableTable> implements CuckooStore {

  /*
   * Fan et al. [1], section 3: a key's hash gives its first bucket i1 and an f-bit fingerprint;
   * its second bucket is alternate(i1, fingerprint) (PartialKeyHashing). Add stores the
   * fingerprint in an empty slot of i1, else of i2, else relocates along a KickPath, which
   * undoes itself when it fails, so a refused add changes nothing; a fingerprint no relocation
   * places waits in the stash, which lookups check only while it holds something. Lookup and
   * count read both buckets; remove takes one copy of the fingerprint from either, which is why
   * only keys that were added may be removed (section 3.3). A removal may free the slot a
   * stashed fingerprint needs, so it moves what it can back.
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   */

  private final T table;
  private final FingerprintStash stash;
  private final KickPath kicks;
  private long size;
  /** Whether the stash holds anything: one field for lookups to test. */
  private boolean stashInUse;

  /**
   * @param table the table, with an even bucket count
   * @param stash the stash that goes with it
   * @param kicks the kick path for it
   * @param size the items the table and the stash hold now
   */
  public FingerprintStore(T table, FingerprintStash stash, KickPath kicks, long size) {
    this.table = table;
    this.stash = stash;
    this.kicks = kicks;
    this.size = size;
    this.stashInUse = stash.size() != 0;
  }

  /** @return the table */
  public T table() {
    return table;
  }

  /** @return the stash */
  public FingerprintStash stash() {
    return stash;
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

  /**
   * @param keyHash the key's 64-bit hash
   * @return whether either of its buckets or the stash holds its fingerprint
   */
  @Override
  public boolean mightContain(long keyHash) {
    return table.containsHash(keyHash) || stashMightContain(keyHash);
  }

  /**
   * The stash's part of {@link #mightContain}, for a variant that searches the table itself
   * (through the table's own class, saving the type check of a call through {@code T}).
   *
   * @param keyHash the key's 64-bit hash
   * @return whether the stash holds its fingerprint with one of its buckets; {@code false} at
   *     once while the stash is empty
   */
  public boolean stashMightContain(long keyHash) {
    return stashInUse && stashContains(keyHash);
  }

  private boolean stashContains(long keyHash) {
    long bucket1 = table.bucketIndex(keyHash);
    int fingerprint = table.fingerprint(keyHash);
    return stash.contains(bucket1, table.alternate(bucket1, fingerprint), fingerprint);
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
    return table.count(bucket1, bucket2, fingerprint) + stash.count(bucket1, bucket2, fingerprint);
  }

  /** Empties the table and the stash. */
  @Override
  public void clear() {
    table.clear();
    stash.clear();
    stashInUse = false;
    size = 0;
  }

  /** {@inheritDoc} Runs it: a store of one thread does not change while it runs. */
  @Override
  public void whileUnchanged(Snapshot action) throws java.io.IOException {
    action.run();
  }
}
