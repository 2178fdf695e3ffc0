package dev.cuckoo.spi;

/**
 * A {@link CuckooTable} that also places keys and searches: what a {@link FingerprintStore}
 * needs to run a partial-key cuckoo filter over it. The key methods follow {@link
 * PartialKeyHashing} for the table's bucket count and fingerprint width, so that variants that
 * share it place keys alike.
 *
 * <p>Implementations must not allocate in these methods: they are the hot path.
 */
public interface SearchableTable extends CuckooTable {

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
   * @param bucket1 a bucket
   * @param bucket2 another bucket (different from {@code bucket1})
   * @param fingerprint a non-zero fingerprint
   * @return whether either bucket holds it
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
   * @return the copies of it in the two buckets together
   */
  int count(long bucket1, long bucket2, int fingerprint);

  /**
   * Removes one copy of the fingerprint from the bucket.
   *
   * @param bucket a bucket
   * @param fingerprint a non-zero fingerprint
   * @return {@code false} if the bucket does not hold it (and is unchanged)
   */
  boolean remove(long bucket, int fingerprint);

  /** Empties every slot. */
  void clear();

  /**
   * Whether a write of one slot leaves every other slot's bits as they were in every word it
   * stores to, so that a reader racing the write reads every other slot intact (if it reads a
   * torn word, only the slot being written is torn). A table that re-encodes whole buckets
   * (semi-sorting, say) across two words cannot promise this.
   *
   * <p>{@link StripedFingerprintStore} uses it to let lookups skip the stripe versions: with it,
   * only moving a fingerprint between buckets can hide a stored key from a reader.
   *
   * @return {@code true} if slot writes are isolated from one another; {@code false} by default
   */
  default boolean isolatesSlotWrites() {
    return false;
  }
}
