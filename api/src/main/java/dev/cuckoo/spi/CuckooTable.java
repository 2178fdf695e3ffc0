package dev.cuckoo.spi;

/**
 * The bucket operations that {@link KickPath} relocates fingerprints with: a table of {@link
 * #bucketCount()} buckets of {@link #slotsPerBucket()} fingerprints each, whatever its encoding.
 *
 * <p>A bucket is a multiset of non-zero fingerprints (0 means an empty slot); a slot number
 * names one of its places in whatever order the encoding keeps. Fingerprints are ints read as
 * unsigned. Implementations must not allocate in these methods: they are on the insert path.
 */
public interface CuckooTable {

  /** @return the number of buckets, at least 1 */
  long bucketCount();

  /** @return the slots in each bucket, at least 1 */
  int slotsPerBucket();

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
   * @param bucket a bucket index in {@code [0, bucketCount())}
   * @param slot a slot, in {@code [0, slotsPerBucket())}
   * @return the fingerprint in that slot, 0 if it is empty
   */
  int fingerprintAt(long bucket, int slot);

  /**
   * Stores the fingerprint in an empty slot of the bucket, if it has one.
   *
   * @param bucket a bucket index in {@code [0, bucketCount())}
   * @param fingerprint a non-zero fingerprint
   * @return {@code true} if stored, {@code false} if the bucket was full (and is unchanged)
   */
  boolean insert(long bucket, int fingerprint);

  /**
   * Replaces the fingerprint in one slot of a full bucket and returns the one it held.
   *
   * @param bucket a bucket index in {@code [0, bucketCount())}, whose slots are all occupied
   * @param slot the slot to take, in {@code [0, slotsPerBucket())}
   * @param fingerprint the non-zero fingerprint to store there
   * @return the fingerprint that was there (non-zero)
   */
  int evict(long bucket, int slot, int fingerprint);

  /**
   * Replaces one copy of {@code fingerprint} in the bucket by {@code replacement}: the inverse
   * of an {@link #evict}, whatever slot the encoding has moved the fingerprint to since.
   *
   * @param bucket a bucket index in {@code [0, bucketCount())} that holds {@code fingerprint}
   * @param fingerprint the non-zero fingerprint to take out
   * @param replacement the non-zero fingerprint to put in its place
   * @throws IllegalStateException if the bucket does not hold {@code fingerprint}
   */
  void replace(long bucket, int fingerprint, int replacement);
}
