package dev.cuckoo.engine;

/**
 * The kick loop of cuckoo insertion, searched before it is made: places an entry (a fingerprint
 * and any value beside it, see {@link CuckooTable}) whose two candidate buckets are full by
 * moving other entries to their other buckets. The search (moves aside, then the random walk of
 * Fan et al.) is played out on a record of the slots it touches, writing nothing until it finds
 * a free slot within {@link #maxKicks()} steps; the path is then made from that free end
 * backwards, each entry stored in its new slot before its old slot is overwritten, so that every
 * stored entry is in one of its buckets at every instant: a process that dies between any two
 * stores loses nothing (a cut leaves at most one duplicate). A search that gives up leaves the
 * table as it was.
 *
 * <p>The same record, search and moves serve a table that one thread writes ({@link #relocate})
 * and one that other threads write at the same time ({@link #freeSlot}, through a view of the
 * table whose every read and write holds its bucket's lock). An instance holds the record of the
 * path in progress (preallocated, so neither allocates) and the state of its random choices,
 * seeded for reproducible runs. Not thread-safe: one instance per thread.
 */
public final class KickPath {

  /*
   * Insertion follows Fan et al. [1], section 3.1 (Algorithm 1): when both candidate buckets are
   * full, pick one of them at random, swap the new fingerprint with a random slot's, move the
   * evicted fingerprint to its alternate bucket (partial-key cuckoo hashing: the alternate
   * follows from the bucket and the fingerprint alone), and repeat until a fingerprint finds an
   * empty slot or maxKicks evictions were made.
   *
   * Before that walk come two levels of breadth-first search, the search libcuckoo [2] uses
   * instead of a random walk: if a fingerprint in either full bucket has room in its own other
   * bucket, it moves there and the new fingerprint takes its slot; failing that, if a
   * fingerprint in one of those 2b other buckets has room in its own other bucket, the two move
   * one step each. The 2b buckets of the first level, and the 2b·b of the second, are
   * independent reads that the processor overlaps, where the walk reads one bucket after
   * another. Filling buckets of 4 to 93% load, the first level settles nine in ten of the
   * inserts that would otherwise walk (evictions per insert fall from 0.57 to 0.17). The second
   * matters once tables are sized for 96.5% (CuckooSizing): there the walks of the last points of
   * load made a fill to capacity 1.7 times as slow.
   *
   * The reference code of [1] evicts as it walks, with one fingerprint in hand, and keeps the last
   * evicted fingerprint in a one-slot "victim" when the walk gives up. In memory that is enough;
   * a mapped file outlives its writer, whose death with an entry in hand would lose it (issue
   * 42). So the walk is played out first on a record of the slots it touches: each touched slot
   * keeps the entry it held and the entry the walk has put there, with the slot that entry came
   * from. The walk makes the same random choices, and sees the same entries, as the walk in
   * place, so it succeeds and fails exactly as that one did, cycles included (with buckets of one
   * or two slots and short fingerprints, a walk often comes back to a slot it took). A walk that
   * gives up has written nothing: the caller decides what becomes of the refused entry
   * (FingerprintStash). One that finds a free slot is made by following where each entry came
   * from, back from the free slot: the free slot takes the last entry evicted, its old slot
   * takes the one before, and so on to the slot that takes the new entry; each store puts an
   * entry in its new slot while its old slot still holds it. That is libcuckoo's order [2]
   * (section 4), which moves a path from its free end. Entries a cycle of the walk moved around
   * and back are left where they were: every one of them is in one of its buckets already. A
   * slot is rewritten by value (CuckooTable.replace), so a table that re-encodes a bucket on
   * every write (semi-sorting) moves its entries alike. Every move stores the entry as its new
   * bucket stores it (CuckooTable.movedEntry). The searches aside use the same record, one or two
   * slots long, and end the same way, in a store to the free slot.
   *
   * libcuckoo runs one search and one move over a locked or an unlocked table (its TABLE_MODE),
   * and so does this class: the striped store hands freeSlot a view of its table whose reads and
   * writes each hold the bucket's stripe lock. Only the moves differ. Alone with its table, a
   * path rewrites each touched slot once, the store that ends one move starting the next. Where
   * another writer may come between two writes, each move is a store into the new bucket and then
   * a removal from the old one, as in [2], and each checks what the search saw: a removal that
   * finds the entry gone (another writer took or moved it) takes back the copy just stored, a
   * store that finds the bucket full gives up, and either way every entry is in one of its
   * buckets, each move made having moved one entry to its other bucket. A slot the search read
   * empty means the bucket has room now, so the caller tries again. The slot the new entry takes
   * in thought is left free; the caller stores the entry under the locks of both its buckets.
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   * [2] X. Li, D. G. Andersen, M. Kaminsky, M. J. Freedman, "Algorithmic Improvements for Fast
   *     Concurrent Cuckoo Hashing", EuroSys 2014.
   */

  private final int maxKicks;
  /** The walk's touched slots, by index: bucket, slot, the entry it held, the entry the walk put there. */
  private final long[] touchedBucket;
  private final int[] touchedSlot;
  private final long[] held;
  private final long[] now;
  /** Where the entry in {@link #now} came from: a touched index, or {@link #NEW} for the entry placed. */
  private final int[] cameFrom;
  private int touched;
  /**
   * The touched slots' indexes, by {@code bucket · slots + slot + 1}, in an open-addressed table
   * of twice the walk's length, so that finding a slot costs the same however long the walk.
   */
  private final long[] indexKeys;
  private final int[] indexOf;
  /** The walk each entry of the index belongs to: a new walk empties it by moving on. */
  private final int[] indexWalk;
  private int walk;
  /** Where the search stored the entry that leaves the path's first slot, and that entry. */
  private long freeBucket;
  private long freeEntry;
  private long random;

  /** {@link #cameFrom} of the entry the walk places. */
  private static final int NEW = -1;

  /**
   * @param maxKicks the most evictions one insert may make, at least 0
   * @param seed the seed of the random choices (any value)
   * @throws IllegalArgumentException if {@code maxKicks} is negative
   */
  public KickPath(int maxKicks, long seed) {
    if (maxKicks < 0) {
      throw new IllegalArgumentException("maxKicks " + maxKicks + " is negative");
    }
    this.maxKicks = maxKicks;
    this.touchedBucket = new long[maxKicks];
    this.touchedSlot = new int[maxKicks];
    this.held = new long[maxKicks];
    this.now = new long[maxKicks];
    this.cameFrom = new int[maxKicks];
    int indexSize = Integer.highestOneBit(Math.max(1, 2 * maxKicks - 1)) << 1;
    this.indexKeys = new long[indexSize];
    this.indexOf = new int[indexSize];
    this.indexWalk = new int[indexSize];
    this.random = seedState(seed);
  }

  /** @return the most evictions one insert may make */
  public int maxKicks() {
    return maxKicks;
  }

  /**
   * Places an entry whose two candidate buckets are both full: first by moving one of their
   * entries to its other bucket, then by evicting along a random path, walked on a record first
   * and made only if it ends in a free slot. On failure nothing was written. With {@code
   * maxKicks} 0 it fails at once.
   *
   * @param table the table, which no other thread writes meanwhile
   * @param bucket1 one candidate bucket of the entry
   * @param bucket2 the other, {@code table.alternate(bucket1, table.fingerprintOf(entry))}
   * @param entry the non-zero entry to place, as {@code bucket1} stores it
   * @return {@code true} if the entry is now stored (and every entry evicted on the way found a
   *     place in its other bucket); {@code false} if the table is unchanged
   */
  public boolean relocate(CuckooTable table, long bucket1, long bucket2, long entry) {
    return kick(table, bucket1, bucket2, entry, false) == MADE;
  }

  /**
   * Frees a slot for an entry whose two candidate buckets were both full when last read, in a
   * table that other threads write at the same time: the search of {@link #relocate}, then the
   * path made one checked move at a time (a store into the new bucket, then a removal from the
   * old), leaving the slot at its end for the caller to fill. A path another writer changed stops
   * where a move finds the change, every entry then in one of its buckets.
   *
   * @param table the table, each of whose {@code entryAt}, {@code insert} and {@code remove}
   *     calls is atomic (made under the lock of the bucket's stripe, say); the kick path calls no
   *     other method that reads or writes slots
   * @param bucket1 one candidate bucket of the entry
   * @param bucket2 the other, {@code table.alternate(bucket1, table.fingerprintOf(entry))}
   * @param entry the non-zero entry to make room for, as {@code bucket1} stores it (a path may
   *     move it to its other bucket in thought, and then frees a slot there)
   * @return {@code false} if no path was found within {@link #maxKicks()} steps; {@code true}
   *     if one was made or another writer spoilt it, so that trying again may succeed
   */
  public boolean freeSlot(CuckooTable table, long bucket1, long bucket2, long entry) {
    return kick(table, bucket1, bucket2, entry, true) != NO_PATH;
  }

  /** {@link #kick}: the path was made. */
  private static final int MADE = 1;
  /** {@link #kick}: another writer changed the path (or freed a slot) before all of it was made. */
  private static final int SPOILT = 0;
  /** {@link #kick} and the searches: no path. */
  private static final int NO_PATH = -1;
  /** The searches: a slot read empty, so its bucket has room now (only where others write). */
  private static final int ROOM = -2;

  /**
   * Searches for a path and makes it: with {@code shared} as {@link #freeSlot} does, else as
   * {@link #relocate} does.
   *
   * @return {@link #MADE}, {@link #SPOILT} or {@link #NO_PATH}
   */
  private int kick(CuckooTable table, long bucket1, long bucket2, long entry, boolean shared) {
    if (maxKicks == 0) {
      return NO_PATH;
    }
    long inBucket2 = table.movedEntry(entry);
    boolean slotsStay = true; // the searches aside write no bucket twice
    int lastFrom = moveAside(table, bucket1, entry);
    if (lastFrom == NO_PATH) {
      lastFrom = moveAside(table, bucket2, inBucket2);
    }
    if (lastFrom == NO_PATH && maxKicks >= 2) {
      lastFrom = moveTwoAside(table, bucket1, entry);
      if (lastFrom == NO_PATH) {
        lastFrom = moveTwoAside(table, bucket2, inBucket2);
      }
    }
    if (lastFrom == NO_PATH) {
      lastFrom = walk(table, bucket1, bucket2, entry, inBucket2);
      slotsStay = table.isolatesSlotWrites();
    }
    if (lastFrom < 0) {
      return lastFrom == ROOM ? SPOILT : NO_PATH;
    }
    return move(table, lastFrom, shared, slotsStay);
  }

  /**
   * The random walk: evicts along a random path, played out on the record, until an evicted
   * entry finds room in its other bucket, where it is stored.
   *
   * @return the touched index the entry stored in the free slot came from, or {@link #NO_PATH}
   *     or {@link #ROOM}
   */
  private int walk(CuckooTable table, long bucket1, long bucket2, long entry, long inBucket2) {
    int slots = table.slotsPerBucket();
    boolean first = (next() & 1) == 0;
    long bucket = first ? bucket1 : bucket2;
    long homeless = first ? entry : inBucket2;
    int homelessFrom = NEW;
    startWalk();
    for (int k = 0; k < maxKicks; k++) {
      int slot = (int) PartialKeyHashing.reduce(next(), slots);
      int t = touch(table, bucket, slot, slots);
      long evicted = now[t];
      if (evicted == 0) {
        return ROOM; // another writer emptied the slot since its bucket was found full
      }
      int evictedFrom = cameFrom[t];
      now[t] = homeless;
      cameFrom[t] = homelessFrom;
      bucket = table.alternate(bucket, table.fingerprintOf(evicted));
      homeless = table.movedEntry(evicted);
      homelessFrom = evictedFrom;
      // A slot the walk touched is never free, so a bucket with room in the table has room in
      // the walk too: storing there is the walk's first move.
      if (table.insert(bucket, homeless)) {
        freeEnd(bucket, homeless);
        return homelessFrom;
      }
    }
    return NO_PATH; // nothing was written
  }

  private void startWalk() {
    touched = 0;
    if (++walk == 0) {
      java.util.Arrays.fill(indexWalk, 0); // after 2^32 walks, the stamps start again
      walk = 1;
    }
  }

  /** Walks of up to this many slots find a slot by a scan of their record; longer ones through the index. */
  private static final int SCANNED = 8;

  /** @return the touched index of a slot, recording it (as it is in the table) at its first touch */
  private int touch(CuckooTable table, long bucket, int slot, int slots) {
    if (touched < SCANNED) {
      for (int t = 0; t < touched; t++) {
        if (touchedBucket[t] == bucket && touchedSlot[t] == slot) {
          return t;
        }
      }
    } else {
      if (touched == SCANNED) {
        for (int t = 0; t < SCANNED; t++) {
          indexed(touchedBucket[t] * slots + touchedSlot[t] + 1, t);
        }
      }
      int t = indexed(bucket * slots + slot + 1, touched);
      if (t < touched) {
        return t;
      }
    }
    int t = touched++;
    touchedBucket[t] = bucket;
    touchedSlot[t] = slot;
    held[t] = table.entryAt(bucket, slot);
    now[t] = held[t];
    cameFrom[t] = t;
    return t;
  }

  /**
   * @return the touched index the index holds for a slot's key, after putting {@code t} there if
   *     it holds none
   */
  private int indexed(long key, int t) {
    int mask = indexKeys.length - 1;
    for (int i = (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & mask; ; i = (i + 1) & mask) {
      if (indexWalk[i] != walk) {
        indexWalk[i] = walk;
        indexKeys[i] = key;
        indexOf[i] = t;
        return t;
      }
      if (indexKeys[i] == key) {
        return indexOf[i];
      }
    }
  }

  /** Records where the search stored the entry that leaves the path's first slot. */
  private void freeEnd(long bucket, long entry) {
    freeBucket = bucket;
    freeEntry = entry;
  }

  /** @return whether an entry of the bucket was stored in its other bucket, the path's free end */
  private boolean storedInOther(CuckooTable table, long bucket, long resident) {
    long other = table.alternate(bucket, table.fingerprintOf(resident));
    long moved = table.movedEntry(resident);
    if (table.insert(other, moved)) {
      freeEnd(other, moved);
      return true;
    }
    return false;
  }

  /** Records the search's touch of a slot it found full: its entry goes, {@code entry} comes from {@code from}. */
  private void record(int t, long bucket, int slot, long resident, long entry, int from) {
    touchedBucket[t] = bucket;
    touchedSlot[t] = slot;
    held[t] = resident;
    now[t] = entry;
    cameFrom[t] = from;
  }

  /**
   * Makes a path, the rest after its first store, back from the free end along where each entry
   * came from. Alone ({@code shared} false), each touched slot is overwritten by its new entry, a
   * store that finishes one move and starts the next. Shared, each touched slot's entry, whose
   * copy was just stored further on, is taken out, and then the slot's bucket takes its new
   * entry, short of the new entry itself: two checked writes, between which another writer may
   * come.
   *
   * @param slotsStay alone, whether every slot still holds what the search read (no bucket of
   *     the path was written twice, or the table writes slots in place): then a slot is written
   *     by its number, else by value, as the bucket may have re-sorted its slots
   * @return {@link #MADE} or {@link #SPOILT}
   */
  private int move(CuckooTable table, int lastFrom, boolean shared, boolean slotsStay) {
    java.lang.invoke.VarHandle.storeStoreFence(); // stored before it leaves its old slot
    long storedBucket = freeBucket;
    long stored = freeEntry;
    for (int t = lastFrom, steps = 0; t != NEW; t = cameFrom[t]) {
      if (++steps > touched) {
        throw new IllegalStateException("a kick path's moves do not lead back to the entry it placed");
      }
      long bucket = touchedBucket[t];
      if (!shared) {
        if (slotsStay) {
          table.evict(bucket, touchedSlot[t], now[t]);
        } else {
          table.replace(bucket, held[t], now[t]);
        }
      } else if (!table.remove(bucket, held[t])) {
        table.remove(storedBucket, stored); // another writer took or moved it first: the copy just made goes
        return SPOILT;
      } else if (cameFrom[t] == NEW) {
        return MADE; // the slot the new entry takes in thought is free, for the caller
      } else if (table.insert(bucket, now[t])) {
        storedBucket = bucket;
        stored = now[t];
      } else {
        return SPOILT; // another writer took the slot just freed; every entry is in one of its buckets
      }
      java.lang.invoke.VarHandle.storeStoreFence();
    }
    return MADE;
  }

  /**
   * The first level of the search: an entry of the full bucket whose other bucket has room
   * moves there, and {@code entry} takes its slot. The store into the other bucket is made
   * here, the rest by the caller.
   *
   * @return the touched index of the entry's slot, or {@link #NO_PATH} or {@link #ROOM}
   */
  private int moveAside(CuckooTable table, long bucket, long entry) {
    int slots = table.slotsPerBucket();
    for (int slot = 0; slot < slots; slot++) {
      long resident = table.entryAt(bucket, slot);
      if (resident == 0) {
        return ROOM; // another writer emptied the slot since the bucket was found full
      }
      if (storedInOther(table, bucket, resident)) {
        touched = 1;
        record(0, bucket, slot, resident, entry, NEW);
        return 0;
      }
    }
    return NO_PATH;
  }

  /**
   * The second level of the search: for each entry of the full bucket, whose other bucket is
   * full too ({@link #moveAside} found no room), an entry of that other bucket whose own other
   * bucket has room moves there, the first entry into the slot freed, and {@code entry} into the
   * first one's slot. The first store is made here, the rest by the caller.
   *
   * @return the touched index of the second entry's slot, or {@link #NO_PATH} or {@link #ROOM}
   */
  private int moveTwoAside(CuckooTable table, long bucket, long entry) {
    int slots = table.slotsPerBucket();
    for (int slot = 0; slot < slots; slot++) {
      long resident = table.entryAt(bucket, slot);
      if (resident == 0) {
        return ROOM;
      }
      long next = table.alternate(bucket, table.fingerprintOf(resident));
      if (next == bucket) {
        continue; // a fixed point of the alternate (odd bucket counts): no second bucket
      }
      for (int nextSlot = 0; nextSlot < slots; nextSlot++) {
        long second = table.entryAt(next, nextSlot);
        if (second == 0) {
          return ROOM;
        }
        if (storedInOther(table, next, second)) {
          touched = 2;
          record(0, bucket, slot, resident, entry, NEW);
          record(1, next, nextSlot, second, table.movedEntry(resident), 0);
          return 1;
        }
      }
    }
    return NO_PATH;
  }

  private long next() {
    random = xorshift(random);
    return random;
  }

  /** @return the first state of {@link #xorshift} for a seed: non-zero, small seeds spread */
  private static long seedState(long seed) {
    return (seed ^ 0x9E3779B97F4A7C15L) * 0xBF58476D1CE4E5B9L | 1;
  }

  /** Marsaglia's xorshift64: enough for picking slots, and a handful of instructions. */
  private static long xorshift(long x) {
    x ^= x << 13;
    x ^= x >>> 7;
    x ^= x << 17;
    return x;
  }
}
