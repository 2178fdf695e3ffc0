package dev.cuckoo.spi;

/**
 * A few fingerprints kept beside the table, for the rare insert whose kick path fails while the
 * table still has room: each entry is a fingerprint with one of its two candidate buckets, so a
 * lookup, count or remove of a key matches an entry when the fingerprint is the key's and the
 * bucket is either of the key's buckets.
 *
 * <p>Lookups cost one comparison while the stash is empty, which is nearly always; {@link
 * #reinsert} moves entries back into the table when removals free room. No method allocates.
 * Not thread-safe.
 */
public final class FingerprintStash {

  /*
   * Fan et al. [1], section 3.1, note that an insert can fail before the table is full, and
   * their reference code keeps one "victim" fingerprint aside so that the failure loses nothing.
   * Failures come from two sources. The random walk of the kick loop may give up in a table
   * that still has an arrangement with room (more likely near the load limit); and, with short
   * fingerprints, more than 2b keys can share both candidate buckets (same first bucket, same
   * fingerprint), which no arrangement holds ([1] section 4 derives the fingerprint length this
   * requires). Both are rare events at the loads a filter is sized for: a stash of a few
   * entries absorbs them, so that a filter takes its capacity without a refusal and without
   * enlarging every table for a tail risk (CuckooSizing accounts for the stash).
   *
   * Once the stash is full, a failed insert is refused (after KickPath has undone its path).
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   */

  /** The stash size that {@link CuckooSizing} assumes. */
  public static final int DEFAULT_SLOTS = 8;

  private final long[] buckets;
  private final int[] fingerprints;
  private int size;

  /**
   * @param slots how many fingerprints it can hold, at least 0
   * @throws IllegalArgumentException if {@code slots} is negative
   */
  public FingerprintStash(int slots) {
    if (slots < 0) {
      throw new IllegalArgumentException("stash slots " + slots + " is negative");
    }
    this.buckets = new long[slots];
    this.fingerprints = new int[slots];
  }

  /** @return how many fingerprints it can hold */
  public int slots() {
    return buckets.length;
  }

  /** @return how many fingerprints it holds */
  public int size() {
    return size;
  }

  /**
   * @param index an entry, in {@code [0, size())}
   * @return the candidate bucket stored with it
   */
  public long bucket(int index) {
    java.util.Objects.checkIndex(index, size);
    return buckets[index];
  }

  /**
   * @param index an entry, in {@code [0, size())}
   * @return its fingerprint
   */
  public int fingerprint(int index) {
    java.util.Objects.checkIndex(index, size);
    return fingerprints[index];
  }

  /**
   * Keeps a fingerprint, if there is room.
   *
   * @param bucket either candidate bucket of the fingerprint's key
   * @param fingerprint a non-zero fingerprint
   * @return {@code false} if the stash is full (and unchanged)
   */
  public boolean add(long bucket, int fingerprint) {
    if (size == buckets.length) {
      return false;
    }
    buckets[size] = bucket;
    fingerprints[size] = fingerprint;
    size++;
    return true;
  }

  /**
   * @param bucket1 one candidate bucket of the key
   * @param bucket2 the other
   * @param fingerprint the key's fingerprint
   * @return whether an entry matches the key
   */
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    return size != 0 && indexOf(bucket1, bucket2, fingerprint) >= 0;
  }

  /**
   * @param bucket1 one candidate bucket of the key
   * @param bucket2 the other
   * @param fingerprint the key's fingerprint
   * @return how many entries match the key
   */
  public int count(long bucket1, long bucket2, int fingerprint) {
    int n = 0;
    for (int i = 0; i < size; i++) {
      if (matches(i, bucket1, bucket2, fingerprint)) {
        n++;
      }
    }
    return n;
  }

  /**
   * Removes one entry that matches the key.
   *
   * @param bucket1 one candidate bucket of the key
   * @param bucket2 the other
   * @param fingerprint the key's fingerprint
   * @return {@code false} if no entry matches
   */
  public boolean remove(long bucket1, long bucket2, int fingerprint) {
    if (size == 0) {
      return false;
    }
    int i = indexOf(bucket1, bucket2, fingerprint);
    if (i < 0) {
      return false;
    }
    removeAt(i);
    return true;
  }

  /**
   * Moves every entry that now fits into an empty slot of either of its buckets back into the
   * table (no kicks).
   *
   * @param table the table the entries belong to
   * @return how many entries moved
   */
  public int reinsert(CuckooTable table) {
    int moved = 0;
    for (int i = size - 1; i >= 0; i--) {
      long bucket = buckets[i];
      int fingerprint = fingerprints[i];
      if (table.insert(bucket, fingerprint)
          || table.insert(table.alternate(bucket, fingerprint), fingerprint)) {
        removeAt(i);
        moved++;
      }
    }
    return moved;
  }

  /** Drops every entry. */
  public void clear() {
    size = 0;
  }

  private int indexOf(long bucket1, long bucket2, int fingerprint) {
    for (int i = 0; i < size; i++) {
      if (matches(i, bucket1, bucket2, fingerprint)) {
        return i;
      }
    }
    return -1;
  }

  private boolean matches(int i, long bucket1, long bucket2, int fingerprint) {
    return fingerprints[i] == fingerprint && (buckets[i] == bucket1 || buckets[i] == bucket2);
  }

  private void removeAt(int i) {
    size--;
    buckets[i] = buckets[size];
    fingerprints[i] = fingerprints[size];
  }
}
