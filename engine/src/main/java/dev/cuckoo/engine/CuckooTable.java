package dev.cuckoo.engine;

/**
 * A table of {@link #bucketCount()} buckets of {@link #slotsPerBucket()} slots, placing keys by
 * partial-key cuckoo hashing: what {@link KickPath}, {@link FingerprintStash} and the {@link
 * FingerprintStore}s run a cuckoo filter over, whatever the table's encoding.
 *
 * <p>A slot holds an <b>entry</b>: a non-zero fingerprint, and optionally a value the variant
 * keeps beside it (a record's offset, say), which moves with the fingerprint on every kick and
 * into and out of the stash. An entry is a {@code long} whose fingerprint {@link
 * #fingerprintOf} reads; a table without values stores entries that are their fingerprint, read
 * as an unsigned int, and the default {@code fingerprintOf} is {@code (int) entry}. A bucket is a
 * multiset of entries (0 means an empty slot); a slot number names one of its places in whatever
 * order the encoding keeps.
 *
 * <p>Keys are placed as {@link PartialKeyHashing} places them for the table's bucket count and
 * fingerprint width, so that tables that share it place keys alike: a key's first bucket is
 * {@link #bucketIndex}, its fingerprint {@link #fingerprint}, its second bucket {@link
 * #alternate} of the two. Implementations must not allocate in any of these methods: they are
 * the hot paths.
 */
public interface CuckooTable {

  /** @return the number of buckets, at least 1 */
  long bucketCount();

  /** @return the slots in each bucket, at least 1 */
  int slotsPerBucket();

  // ---------------------------------------------------------------- keys to buckets

  /**
   * @param keyHash a key's 64-bit hash
   * @return the key's first candidate bucket, in {@code [0, bucketCount())}
   */
  long bucketIndex(long keyHash);

  /**
   * @param keyHash a key's 64-bit hash
   * @return the key's fingerprint, non-zero
   */
  int fingerprint(long keyHash);

  /**
   * The other candidate bucket of a fingerprint stored in {@code bucket}. The default is {@link
   * PartialKeyHashing#alternateBucket}; a table may compute the same value faster (from
   * precomputed offsets, say), never a different one.
   *
   * @param bucket a bucket index in {@code [0, bucketCount())}
   * @param fingerprint a non-zero fingerprint
   * @return the other candidate bucket
   */
  default long alternate(long bucket, int fingerprint) {
    return PartialKeyHashing.alternateBucket(bucket, fingerprint, bucketCount());
  }

  /**
   * The entry as the other of its two candidate buckets stores it: if {@code entry} sits in
   * bucket {@code b}, a move to {@code alternate(b, fingerprintOf(entry))} stores {@code
   * movedEntry(entry)} there. Most tables store an entry the same way in either bucket, which is
   * the default (the entry itself); a table whose entries record something about the bucket
   * they sit in (which of the two it is, say, or bits of its address) changes that record.
   * {@link KickPath}, {@link FingerprintStash#reinsert} and the striped store call it on every
   * move.
   *
   * <p>It must be an involution that keeps what {@link #alternate} needs: {@code
   * movedEntry(movedEntry(e)) == e}, and {@code alternate(alternate(b, fingerprintOf(e)),
   * fingerprintOf(movedEntry(e))) == b}.
   *
   * @param entry a non-zero entry as one of its buckets stores it
   * @return the entry as its other bucket stores it, non-zero
   */
  default long movedEntry(long entry) {
    return entry;
  }

  // ---------------------------------------------------------------- lookups, by fingerprint

  /**
   * @param bucket1 a bucket
   * @param bucket2 another bucket (different from {@code bucket1})
   * @param fingerprint a non-zero fingerprint
   * @return whether either bucket holds an entry with it
   */
  boolean contains(long bucket1, long bucket2, int fingerprint);

  /**
   * Whether either candidate bucket of the key holds its fingerprint: {@code contains(b,
   * alternate(b, fp), fp)} for the key's bucket {@code b} and fingerprint {@code fp}. A table may
   * compute the same answer faster, never a different one.
   *
   * @param keyHash a key's 64-bit hash
   * @return whether the table may hold the key
   */
  default boolean containsHash(long keyHash) {
    long bucket1 = bucketIndex(keyHash);
    int fingerprint = fingerprint(keyHash);
    return contains(bucket1, alternate(bucket1, fingerprint), fingerprint);
  }

  /**
   * @param bucket1 a bucket
   * @param bucket2 another bucket (different from {@code bucket1})
   * @param fingerprint a non-zero fingerprint
   * @return the entries with it in the two buckets together
   */
  int count(long bucket1, long bucket2, int fingerprint);

  // ---------------------------------------------------------------- entries

  /**
   * @param entry a non-zero entry
   * @return its fingerprint; by default {@code (int) entry}, for tables whose entries are their
   *     fingerprints
   */
  default int fingerprintOf(long entry) {
    return (int) entry;
  }

  /**
   * @param bucket a bucket index in {@code [0, bucketCount())}
   * @param slot a slot, in {@code [0, slotsPerBucket())}
   * @return the entry in that slot, 0 if it is empty
   */
  long entryAt(long bucket, int slot);

  /**
   * What an entry of this table means: tables that return equal values store the same entry for
   * the same fingerprint in the same bucket, whatever holds their words (an array, a mapped
   * file), so entries read from one may be stored in the other (a merge). The default is the
   * table's class; a variant whose tables differ only in storage returns one value for all.
   *
   * @return a value that equals the encoding of every table whose entries mean the same
   */
  default Object entryEncoding() {
    return getClass();
  }

  /**
   * Stores the entry in an empty slot of the bucket, if it has one.
   *
   * @param bucket a bucket index in {@code [0, bucketCount())}
   * @param entry a non-zero entry
   * @return {@code true} if stored, {@code false} if the bucket was full (and is unchanged)
   */
  boolean insert(long bucket, long entry);

  /**
   * Replaces the entry in one slot of a full bucket and returns the one it held.
   *
   * @param bucket a bucket index in {@code [0, bucketCount())}, whose slots are all occupied
   * @param slot the slot to take, in {@code [0, slotsPerBucket())}
   * @param entry the non-zero entry to store there
   * @return the entry that was there (non-zero)
   */
  long evict(long bucket, int slot, long entry);

  /**
   * Replaces one copy of {@code entry} in the bucket by {@code replacement}: the inverse of an
   * {@link #evict}, whatever slot the encoding has moved the entry to since.
   *
   * @param bucket a bucket index in {@code [0, bucketCount())} that holds {@code entry}
   * @param entry the non-zero entry to take out
   * @param replacement the non-zero entry to put in its place
   * @throws IllegalStateException if the bucket does not hold {@code entry}
   */
  void replace(long bucket, long entry, long replacement);

  /**
   * Removes one copy of the entry from the bucket.
   *
   * @param bucket a bucket
   * @param entry a non-zero entry
   * @return {@code false} if the bucket does not hold it (and is unchanged)
   */
  boolean remove(long bucket, long entry);

  /** Empties every slot. */
  void clear();

  /**
   * Whether a write of one slot leaves every other slot's bits as they were in every word it
   * stores to, so that a reader racing the write reads every other slot intact (if it reads a
   * torn word, only the slot being written is torn). A table that re-encodes whole buckets
   * (semi-sorting, say) across two words cannot promise this.
   *
   * <p>{@code StripedFingerprintStore} uses it to let lookups skip the stripe versions: with it,
   * only moving a fingerprint between buckets can hide a stored key from a reader.
   *
   * @return {@code true} if slot writes are isolated from one another; {@code false} by default
   */
  default boolean isolatesSlotWrites() {
    return false;
  }
}
