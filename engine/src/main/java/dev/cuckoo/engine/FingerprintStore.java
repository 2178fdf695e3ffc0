package dev.cuckoo.engine;

import java.io.IOException;

/**
 * The operations of a partial-key cuckoo filter on key hashes, over a {@link CuckooTable} and its
 * {@link FingerprintStash}: what a variant delegates its writes (and, where it has no faster
 * path, its lookups) to, whichever {@code concurrency} its spec asks for. {@link
 * PlainFingerprintStore} is the single-threaded one, and the engine's striped store the
 * thread-safe one; {@link TableFilter#compose} picks between them, so that a variant only builds
 * its table.
 *
 * <p>The contract: {@link #add} stores one copy of the key's fingerprint or returns {@code false}
 * leaving every stored item findable; {@link #mightContain} is {@code true} for every key added
 * and not removed; {@link #remove} takes one copy of the key's fingerprint from either bucket or
 * the stash, so only keys that were added may be removed; {@link #count} counts its copies in
 * both buckets and the stash. The table's bucket count must be even, so that a key's two buckets
 * differ.
 */
public interface FingerprintStore {

  /**
   * Stores one copy of the key's fingerprint.
   *
   * @param keyHash the key's 64-bit hash
   * @return {@code true} if stored; {@code false} if refused, losing nothing
   */
  boolean add(long keyHash);

  /**
   * Stores an entry the table already encodes, in one of its two buckets, by the kick path, or
   * in the stash: what a merge uses to move another filter's entries in at their buckets.
   *
   * @param bucket1 either of the entry's buckets
   * @param fingerprint its fingerprint, {@code table.fingerprintOf(entry)}
   * @param entry the non-zero entry
   * @return {@code true} if stored; {@code false} if refused, losing nothing
   */
  boolean addEntry(long bucket1, int fingerprint, long entry);

  /**
   * Stores one copy of the key's fingerprint unless {@link #mightContain} is true for it.
   *
   * @param keyHash the key's 64-bit hash
   * @return {@code true} if stored
   */
  default boolean addIfAbsent(long keyHash) {
    return !mightContain(keyHash) && add(keyHash);
  }

  /**
   * @param keyHash the key's 64-bit hash
   * @return whether either of its buckets or the stash holds its fingerprint
   */
  boolean mightContain(long keyHash);

  /**
   * Removes one copy of the key's fingerprint.
   *
   * @param keyHash the key's 64-bit hash
   * @return {@code false} if neither bucket nor the stash holds it
   */
  boolean remove(long keyHash);

  /**
   * @param keyHash the key's 64-bit hash
   * @return the copies of its fingerprint in its two buckets and the stash
   */
  long count(long keyHash);

  /**
   * Counts an entry's fingerprint where a lookup finds it: what a merge records before it stores
   * an entry, to tell afterwards whether it was stored ({@code MergeRecord}).
   *
   * @param bucket1 either of the entry's buckets
   * @param fingerprint its fingerprint
   * @return the copies of the fingerprint in its two buckets and the stash
   */
  long countEntries(long bucket1, int fingerprint);

  /** @return the items stored, in the table and the stash */
  long size();

  /** @return the slots of the table and of the stash */
  long slots();

  /** Empties the table and the stash. */
  void clear();

  /**
   * Runs an action that reads the table, the stash and {@link #size()} (writing a file, say)
   * while no writer changes them, so that it sees one consistent state.
   *
   * @param action the action
   * @throws IOException if the action throws it
   */
  void whileUnchanged(Snapshot action) throws IOException;

  /** An action run by {@link #whileUnchanged}. */
  @FunctionalInterface
  interface Snapshot {
    /**
     * Reads the store.
     *
     * @throws IOException if writing what it read fails
     */
    void run() throws IOException;
  }
}
