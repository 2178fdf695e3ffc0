package dev.cuckoo.engine;

import dev.cuckoo.CorruptFilterException;
import java.io.DataOutput;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * A few fingerprints kept beside the table, for the rare insert whose kick path fails while the
 * table still has room: each is kept with one of its two candidate buckets, so a lookup, count
 * or remove of a key matches when the fingerprint is the key's and the bucket is either of the
 * key's buckets. Each also keeps its whole table entry ({@link CuckooTable}: the fingerprint and
 * any value beside it), which goes back into the table with it.
 *
 * <p>Lookups cost one comparison while the stash is empty, which is nearly always; {@link
 * #reinsert} moves entries back into the table when removals free room. No method allocates but
 * {@link #read}. Not thread-safe.
 *
 * <p>In a variant's payload a stash is {@link #payloadBytes()} bytes: an {@code int} count, then
 * per entry a {@code long} bucket and an {@code int} fingerprint ({@link #writeTo}, {@link
 * #read}); a variant whose entries carry values writes its entries itself and rebuilds a stash
 * from them with {@link #add(long, int, long)}.
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
   * Once the stash is full, a failed insert is refused (KickPath wrote nothing for it: its walk
   * is played out on a record before anything is moved).
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   */

  /** The stash size that {@link CuckooSizing} assumes. */
  public static final int DEFAULT_SLOTS = 8;
  /** Bytes of one entry in a payload: its bucket and its fingerprint. */
  public static final int ENTRY_BYTES = Long.BYTES + Integer.BYTES;
  /** Bytes of one slot in memory: its bucket, its fingerprint and its whole table entry. */
  private static final int SLOT_MEMORY_BYTES = Long.BYTES + Integer.BYTES + Long.BYTES;

  private final long[] buckets;
  private final int[] fingerprints;
  private final long[] entries;
  private int size;
  /** Told of every change, or {@code null}. */
  private Consumer<FingerprintStash> keeper;


  /**
   * Has {@code keeper} told of every change to this stash once it is made: a mapped filter's file
   * keeps its stash in its first page at every moment, so that a writer that dies loses no
   * stashed fingerprint. The engine's file storage calls it; a variant has no need to.
   *
   * @param keeper told of every change from now on, after it is made; {@code null} for none
   */
  public void keepIn(Consumer<FingerprintStash> keeper) {
    this.keeper = keeper;
  }

  private void changed() {
    if (keeper != null) {
      keeper.accept(this);
    }
  }

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
    this.entries = new long[slots];
  }

  /** @return how many fingerprints it can hold */
  public int slots() {
    return buckets.length;
  }

  /** @return the bytes its slots take in memory */
  public long memoryBytes() {
    return memoryBytes(slots());
  }

  /**
   * @param slots a stash's slots
   * @return the bytes those slots take in memory
   */
  public static long memoryBytes(int slots) {
    return (long) slots * SLOT_MEMORY_BYTES;
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
   * @param index an entry, in {@code [0, size())}
   * @return its whole table entry: the fingerprint and any value beside it
   */
  public long entry(int index) {
    java.util.Objects.checkIndex(index, size);
    return entries[index];
  }

  /**
   * Keeps a fingerprint whose entry is the fingerprint itself, if there is room.
   *
   * @param bucket either candidate bucket of the fingerprint's key
   * @param fingerprint a non-zero fingerprint
   * @return {@code false} if the stash is full (and unchanged)
   */
  public boolean add(long bucket, int fingerprint) {
    return add(bucket, fingerprint, Integer.toUnsignedLong(fingerprint));
  }

  /**
   * Keeps a table entry, if there is room.
   *
   * @param bucket either candidate bucket of the entry's key
   * @param fingerprint the entry's fingerprint, non-zero
   * @param entry the whole entry, as {@code bucket} stores it
   * @return {@code false} if the stash is full (and unchanged)
   */
  public boolean add(long bucket, int fingerprint, long entry) {
    if (size == buckets.length) {
      return false;
    }
    buckets[size] = bucket;
    fingerprints[size] = fingerprint;
    entries[size] = entry;
    size++;
    changed();
    return true;
  }

  /**
   * The stash's part of a lookup, for a filter that searched the table itself: {@code false} at
   * once while the stash is empty (nearly always), else whether an entry matches the key as the
   * table places it.
   *
   * @param table the table the stash belongs to
   * @param keyHash the key's 64-bit hash
   * @return whether the stash holds the key's fingerprint with one of its buckets
   */
  public boolean mightContain(CuckooTable table, long keyHash) {
    if (size == 0) {
      return false;
    }
    long bucket1 = table.bucketIndex(keyHash);
    int fingerprint = table.fingerprint(keyHash);
    return indexOf(bucket1, table.alternate(bucket1, fingerprint), fingerprint) >= 0;
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
   * @param bucket1 one candidate bucket of the key
   * @param bucket2 the other
   * @param entry the whole table entry
   * @return whether the stash holds that entry with one of the buckets
   */
  public boolean containsEntry(long bucket1, long bucket2, long entry) {
    return indexOfEntry(bucket1, bucket2, entry) >= 0;
  }

  /**
   * Removes one slot holding exactly this entry (fingerprint and value) with one of the buckets.
   *
   * @param bucket1 one candidate bucket of the key
   * @param bucket2 the other
   * @param entry the whole table entry
   * @return {@code false} if no slot holds it
   */
  public boolean removeEntry(long bucket1, long bucket2, long entry) {
    int i = indexOfEntry(bucket1, bucket2, entry);
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
      long entry = entries[i];
      if (table.insert(bucket, entry)
          || table.insert(table.alternate(bucket, fingerprints[i]), table.movedEntry(entry))) {
        removeAt(i);
        moved++;
      }
    }
    return moved;
  }

  /** Drops every entry. */
  public void clear() {
    size = 0;
    changed();
  }

  /** @return the bytes {@link #writeTo} writes */
  public long payloadBytes() {
    return Integer.BYTES + (long) size * ENTRY_BYTES;
  }

  /**
   * Writes the entry count, then each entry's bucket and fingerprint.
   *
   * @param out where to write {@link #payloadBytes()} bytes
   * @throws IOException if writing fails
   */
  public void writeTo(DataOutput out) throws IOException {
    java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate((int) payloadBytes());
    putTo(bytes);
    out.write(bytes.array());
  }

  /**
   * Puts what {@link #writeTo} writes into a buffer, from its position, allocating nothing: the
   * one place the layout is written.
   *
   * @param out a buffer with {@link #payloadBytes()} bytes remaining
   */
  public void putTo(java.nio.ByteBuffer out) {
    out.putInt(size);
    for (int i = 0; i < size; i++) {
      out.putLong(buckets[i]);
      out.putInt(fingerprints[i]);
    }
  }

  /**
   * Reads what {@link #writeTo} wrote into a new stash, checking every entry against the table
   * it belongs to.
   *
   * @param in the payload, positioned at the stash
   * @param slots the new stash's slots; a count above it is rejected
   * @param bucketCount the table's bucket count: every entry's bucket must be below it
   * @param fingerprintBits the fingerprint width: every entry's fingerprint must be non-zero and
   *     fit in it
   * @param variant the variant's name, for messages
   * @return the stash
   * @throws CorruptFilterException if the count or an entry is out of range, or the payload ends
   * @throws IOException if reading fails
   */
  public static FingerprintStash read(
      java.io.DataInput in, int slots, long bucketCount, int fingerprintBits, String variant) throws IOException {
    FingerprintStash stash = new FingerprintStash(slots);
    int stashed = in.readInt();
    if (stashed < 0 || stashed > slots) {
      throw new CorruptFilterException(
          variant + " payload declares " + stashed + " stashed fingerprints, out of range: 0.." + slots);
    }
    long maxFingerprint = -1L >>> (64 - fingerprintBits);
    for (int i = 0; i < stashed; i++) {
      long bucket = in.readLong();
      int fingerprint = in.readInt();
      if (bucket < 0 || bucket >= bucketCount || fingerprint == 0 || (fingerprint & 0xFFFF_FFFFL) > maxFingerprint) {
        throw new CorruptFilterException(
            variant + " payload stash entry " + i + " (bucket " + bucket + ", fingerprint "
                + Integer.toUnsignedString(fingerprint) + ") is out of range");
      }
      stash.add(bucket, fingerprint);
    }
    return stash;
  }

  private int indexOf(long bucket1, long bucket2, int fingerprint) {
    for (int i = 0; i < size; i++) {
      if (matches(i, bucket1, bucket2, fingerprint)) {
        return i;
      }
    }
    return -1;
  }

  private int indexOfEntry(long bucket1, long bucket2, long entry) {
    for (int i = 0; i < size; i++) {
      if (entries[i] == entry && (buckets[i] == bucket1 || buckets[i] == bucket2)) {
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
    entries[i] = entries[size];
    changed();
  }
}
