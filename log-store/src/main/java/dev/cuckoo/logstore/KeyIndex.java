package dev.cuckoo.logstore;

import dev.cuckoo.engine.FingerprintStash;
import dev.cuckoo.engine.KickPath;
import dev.cuckoo.engine.PlainFingerprintStore;
import dev.cuckoo.spi.HashStrategy;
import java.io.IOException;

/**
 * The log store's index of its keys: an {@link IndexTable} of a 12-bit tag and a record offset
 * per key, the stash beside it, and the engine's store that runs kicks and the stash over both.
 * A lookup knows entries, never records: where a tag matches, the caller reads the record to
 * learn whether it is the key's ({@link #find}). Only growth reads the log, to rebuild the index
 * a size larger ({@link #grown}). Not thread-safe: {@link LogStore} guards it, and reads only
 * {@link #mayHold} without its lock.
 */
final class KeyIndex {
  /*
   * Growth. When an insert finds no room, the index grows by a fifth, not twice: the new table is
   * rebuilt from the log, which holds every key (an entry alone does not say which of its two
   * buckets is its first, nor the hash bits a new table size needs). One sequential read of the
   * log decides each record's fate by the old index: a record whose entry the old index holds
   * is live. Growing by a fifth keeps the index at or below about 8 bytes a key at every size;
   * it costs about five reads of the log over a doubling of the keys, all sequential.
   */

  /** Buckets of a new store's index: 64 slots, so that a small store holds a small index. */
  static final long FIRST_BUCKETS = 16;
  /** How much the index grows when it is full: by a fifth. */
  static final double GROWTH = 1.2;
  private static final int MAX_KICKS = 500;

  private final IndexTable table;
  private final FingerprintStash stash = new FingerprintStash(FingerprintStash.DEFAULT_SLOTS);
  private final PlainFingerprintStore store;

  /**
   * @param buckets the table's bucket count, even
   * @param seed the seed of the kick path's random choices
   */
  KeyIndex(long buckets, long seed) {
    this.table = new IndexTable(buckets);
    this.store = new PlainFingerprintStore(table, stash, new KickPath(MAX_KICKS, seed), 0);
  }

  /**
   * @return buckets for an index that holds this many keys at 90% load: buckets of four take
   *     about 95% before an insert fails (Fan et al., CoNEXT 2014, section 5.1)
   */
  static long bucketsFor(long keys) {
    long buckets = ((long) Math.ceil(keys / (IndexTable.SLOTS * 0.9)) + 1) & ~1L;
    return Math.max(FIRST_BUCKETS, buckets);
  }

  /** @return the keys it holds */
  long size() {
    return store.size();
  }

  /** @return the table's bucket count */
  long bucketCount() {
    return table.bucketCount();
  }

  /** @return the bytes of memory it holds */
  long bytes() {
    return table.tableBytes() + stash.memoryBytes();
  }

  /**
   * Safe to call while a writer changes the index, if the caller validates afterwards that none
   * did (the answer is then thrown away): it reads two buckets and the stash's size.
   *
   * @return whether the index may hold the key: a tag of it in either bucket, or a stash that
   *     is not empty (the stash is not searched)
   */
  boolean mayHold(long keyHash) {
    long bucket1 = table.bucketIndex(keyHash);
    int tag = table.fingerprint(keyHash);
    return table.contains(bucket1, table.alternate(bucket1, tag), tag) || stash.size() != 0;
  }

  /** Reads the record an entry points at, to learn whether it is the key sought. */
  @FunctionalInterface
  interface EntryReader<T> {
    /**
     * @param bucket the entry's bucket, or -1 for the stash
     * @param entry the entry: its tag and the record's offset ({@link IndexTable#offsetOf})
     * @return what the record says of the key, or {@code null} if it is another key's
     * @throws IOException if reading fails
     */
    T read(long bucket, long entry) throws IOException;
  }

  /**
   * Offers the reader each entry whose tag matches the key's, in the key's first bucket, its
   * second, then the stash, until the reader accepts one.
   *
   * @return what the reader returned for the entry it accepted, or {@code null} if none
   */
  <T> T find(long keyHash, EntryReader<T> reader) throws IOException {
    long bucket1 = table.bucketIndex(keyHash);
    int tag = table.fingerprint(keyHash);
    T found = findIn(bucket1, tag, reader);
    if (found != null) {
      return found;
    }
    long bucket2 = table.alternate(bucket1, tag);
    found = findIn(bucket2, tag, reader);
    if (found != null) {
      return found;
    }
    for (int i = 0; i < stash.size(); i++) {
      long b = stash.bucket(i);
      if (stash.fingerprint(i) == tag && (b == bucket1 || b == bucket2)) {
        found = reader.read(-1, stash.entry(i));
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  private <T> T findIn(long bucket, int tag, EntryReader<T> reader) throws IOException {
    for (long m = table.matches(bucket, tag); m != 0; m = IndexTable.nextMatches(m)) {
      T found = reader.read(bucket, table.entryAt(bucket, IndexTable.firstSlot(m)));
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  /**
   * Inserts the entry of a key's record.
   *
   * @return {@code false} if the index has no room (nothing it held is lost)
   */
  boolean insert(long keyHash, long offset) {
    int tag = table.fingerprint(keyHash);
    return store.addEntry(table.bucketIndex(keyHash), tag, IndexTable.entry(tag, offset));
  }

  /**
   * Points a key's entry, found in a bucket of the table, at a new record of the key.
   *
   * @param bucket the bucket {@link #find} found it in, not the stash
   */
  void repoint(long bucket, long entry, long offset) {
    table.replace(bucket, entry, IndexTable.entry(table.fingerprintOf(entry), offset));
  }

  /**
   * Removes an entry that {@link #find} found.
   *
   * @param bucket its bucket, or -1 where it is in the stash
   */
  void remove(long bucket, long entry) {
    int tag = table.fingerprintOf(entry);
    long bucket1 = bucket;
    if (bucket1 < 0) {
      // Where a stashed entry sits, the stash knows; either of its buckets serves removeEntry.
      for (int i = 0; i < stash.size(); i++) {
        if (stash.entry(i) == entry) {
          bucket1 = stash.bucket(i);
          break;
        }
      }
    }
    if (!store.removeEntry(bucket1, tag, entry)) {
      throw new IllegalStateException("the index lost the entry " + Long.toHexString(entry));
    }
  }

  /** @return whether it holds exactly the entry of a record of this key at this offset */
  boolean holds(long keyHash, long offset) {
    long bucket1 = table.bucketIndex(keyHash);
    int tag = table.fingerprint(keyHash);
    long bucket2 = table.alternate(bucket1, tag);
    long entry = IndexTable.entry(tag, offset);
    return slotOf(bucket1, entry) >= 0 || slotOf(bucket2, entry) >= 0 || stash.containsEntry(bucket1, bucket2, entry);
  }

  /** @return the slot of the bucket holding exactly this entry, or -1 */
  private int slotOf(long bucket, long entry) {
    for (long m = table.matches(bucket, table.fingerprintOf(entry)); m != 0; m = IndexTable.nextMatches(m)) {
      int slot = IndexTable.firstSlot(m);
      if (table.entryAt(bucket, slot) == entry) {
        return slot;
      }
    }
    return -1;
  }

  /**
   * Returns an index a fifth larger than this full one (or larger, where that holds too few),
   * rebuilt from the records before {@code logEnd} that this one holds.
   *
   * @param log the store's log
   * @param hash the hash of the store's keys
   * @param logEnd where the records this index holds end
   * @param fileBytes while the store is opened and its log scanned, the log's length, to size the
   *     index it grows to; else 0
   * @return the index, or {@code null} if it needs more buckets than one index addresses
   * @throws IOException if reading the log fails
   */
  KeyIndex grown(RecordLog log, HashStrategy hash, long logEnd, long fileBytes) throws IOException {
    long buckets = Math.max(bucketCount() + 2, (long) (bucketCount() * GROWTH)) & ~1L;
    if (fileBytes > logEnd) {
      // Reopening: each growth reads the log scanned so far again, so growing by a fifth at a
      // time would read it about six times. The keys the whole log holds are about the keys so
      // far in the proportion of the log scanned so far: growing to that at once reads it
      // about twice.
      long expected = (long) (size() * (fileBytes / (double) logEnd));
      buckets = Math.max(buckets, Math.min(IndexTable.MAX_BUCKETS, bucketsFor(expected)));
    }
    while (true) {
      if (buckets > IndexTable.MAX_BUCKETS) {
        return null;
      }
      KeyIndex fresh = new KeyIndex(buckets, buckets);
      boolean[] fits = {true};
      log.scan(logEnd, false, (offset, kind, key, bytes) -> {
        long keyHash = hash.hashBytes(key, 0, key.length);
        if (fits[0] && kind == RecordLog.PUT && holds(keyHash, offset)) {
          fits[0] = fresh.insert(keyHash, offset);
        }
      });
      if (fits[0]) {
        return fresh;
      }
      buckets = (long) (buckets * GROWTH) & ~1L;
    }
  }
}
