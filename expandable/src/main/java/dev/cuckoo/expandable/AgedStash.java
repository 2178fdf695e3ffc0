package dev.cuckoo.expandable;

import dev.cuckoo.engine.KickPath;
import java.util.Arrays;

/**
 * The few entries a {@link LaneTable} could not place, each kept with its key's first bucket and
 * as that bucket would store it: lookups match them as the table matches its own, and when the
 * table doubles they age with it ({@link #grow}) and go back into it where they fit.
 *
 * <p>A filter stashes at most {@link #SLOTS} entries; a doubling may leave more (an exhausted
 * entry becomes two), up to {@link #MAX_ENTRIES}. The engine's {@code FingerprintStash} matches
 * fingerprints by equality and keeps them at one size; these entries change with the table.
 * Lookups may read it while a writer changes it (the locked filter validates afterwards), so a
 * read never indexes past what it sees. Not thread-safe.
 */
final class AgedStash {
  /** Entries a filter stashes; past them an add makes the table grow instead. */
  static final int SLOTS = 8;
  /** The most entries a stash holds, and a file may declare. */
  static final int MAX_ENTRIES = 1024;

  // Allocated on the first stashed entry: most filters never stash one, and a small filter's
  // bits per key would count the empty arrays.
  private long[] buckets = new long[0];
  private int[] entries = new int[0];
  private int size;

  /** @return the entries held */
  int size() {
    return size;
  }

  /** @return whether an add may stash one more entry */
  boolean hasRoom() {
    return size < SLOTS;
  }

  /** @return entry {@code i}'s first bucket */
  long bucket(int i) {
    return buckets[i];
  }

  /** @return entry {@code i}, as its first bucket would store it */
  int entry(int i) {
    return entries[i];
  }

  /**
   * Keeps an entry.
   *
   * @param bucket1 its key's first bucket
   * @param entry the entry as that bucket would store it
   * @throws IllegalStateException if the stash holds {@link #MAX_ENTRIES} already
   */
  void add(long bucket1, int entry) {
    if (size == buckets.length) {
      if (size == MAX_ENTRIES) {
        throw new IllegalStateException("the stash holds " + MAX_ENTRIES + " entries");
      }
      buckets = Arrays.copyOf(buckets, Math.min(MAX_ENTRIES, Math.max(SLOTS, 2 * size)));
      entries = Arrays.copyOf(entries, buckets.length);
    }
    buckets[size] = bucket1;
    entries[size] = entry;
    size++;
  }

  /** @return whether an entry matches the key with this first bucket and entry */
  boolean contains(LaneTable table, long bucket1, int pattern) {
    long[] b = buckets;
    int[] e = entries;
    int n = Math.min(size, Math.min(b.length, e.length));
    for (int i = 0; i < n; i++) {
      if (b[i] == bucket1 && table.matches(e[i], pattern)) {
        return true;
      }
    }
    return false;
  }

  /** @return how many entries match the key */
  int count(LaneTable table, long bucket1, int pattern) {
    int n = 0;
    for (int i = 0; i < size; i++) {
      n += buckets[i] == bucket1 && table.matches(entries[i], pattern) ? 1 : 0;
    }
    return n;
  }

  /**
   * @param ageBound only entries younger than this count
   * @return the index of the matching entry with the most fingerprint bits, or -1
   */
  int longestMatch(LaneTable table, long bucket1, int pattern, int ageBound) {
    int best = -1;
    for (int i = 0; i < size; i++) {
      if (buckets[i] == bucket1 && table.matches(entries[i], pattern) && table.age(entries[i]) < ageBound) {
        best = i;
        ageBound = table.age(entries[i]);
      }
    }
    return best;
  }

  /** @return entry {@code i}, which is taken out; the last one out takes the arrays along */
  int removeAt(int i) {
    int e = entries[i];
    size--;
    buckets[i] = buckets[size];
    entries[i] = entries[size];
    if (size == 0) {
      clear(); // so that the memory a filter reports follows from what it holds
    }
    return e;
  }

  /** Drops every entry and its arrays. */
  void clear() {
    size = 0;
    buckets = new long[0];
    entries = new int[0];
  }

  /**
   * Moves every entry that fits into the table: into either bucket directly, or, given a kick
   * path, along it.
   *
   * @param table the table
   * @param kicks the kick path, or {@code null} for none
   * @return how many entries moved
   */
  int reinsert(LaneTable table, KickPath kicks) {
    int moved = 0;
    for (int i = size - 1; i >= 0; i--) {
      long bucket1 = buckets[i];
      int e = entries[i];
      long bucket2 = table.alternate(bucket1, e);
      if (table.insert(bucket1, e) || table.insert(bucket2, table.movedEntry(e))
          || (kicks != null && kicks.relocate(table, bucket1, bucket2, e))) {
        removeAt(i);
        moved++;
      }
    }
    return moved;
  }

  /** @return the entries with no fingerprint bits left, which a doubling copies */
  int exhausted(LaneTable table) {
    int n = 0;
    for (int i = 0; i < size; i++) {
      n += table.isExhausted(entries[i]) ? 1 : 0;
    }
    return n;
  }

  /**
   * Ages every entry as {@code old} doubles: each goes to the child of its bucket its first
   * fingerprint bit names, an exhausted one to both.
   *
   * @param old the table before it doubles
   * @param widen the bits the doubled table's lanes have more
   * @return the entries added (the second copies of exhausted entries)
   */
  int grow(LaneTable old, int widen) {
    int n = size;
    int added = 0;
    for (int i = 0; i < n; i++) {
      long b = buckets[i];
      int e = entries[i];
      if (old.isExhausted(e)) {
        int copy = old.widened(e, widen);
        buckets[i] = 2 * b;
        entries[i] = copy;
        add(2 * b + 1, copy);
        added++;
      } else {
        buckets[i] = old.grownBucket(b, e);
        entries[i] = old.grownEntry(e, widen);
      }
    }
    return added;
  }

  /** @return the bytes its arrays hold */
  long bytes() {
    return (long) buckets.length * (Long.BYTES + Integer.BYTES);
  }
}
