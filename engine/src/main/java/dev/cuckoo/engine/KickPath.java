package dev.cuckoo.engine;

/**
 * The kick loop of cuckoo insertion, walked before it is made: places an entry (a fingerprint
 * and any value beside it, see {@link CuckooTable}) whose two candidate buckets are full by
 * moving other entries to their other buckets. The random walk of Fan et al. is played out on
 * a record of the slots it touches, changing nothing; a walk that finds a free slot within
 * {@link #maxKicks()} steps is then made, from its free end backwards, each entry stored in its
 * new slot before its old slot is overwritten, so that every stored entry is in one of its
 * buckets at every instant: a process that dies between any two stores loses nothing (a cut
 * leaves at most one duplicate). A walk that gives up leaves the table as it was.
 *
 * <p>One instance serves one table; it holds the record of the walk in progress (preallocated,
 * so {@link #relocate} allocates nothing) and the state of its random choices, seeded for
 * reproducible runs. Not thread-safe.
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
   * bucket stores it (CuckooTable.movedEntry).
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
   * @param table the table
   * @param bucket1 one candidate bucket of the entry
   * @param bucket2 the other, {@code table.alternate(bucket1, table.fingerprintOf(entry))}
   * @param entry the non-zero entry to place, as {@code bucket1} stores it
   * @return {@code true} if the entry is now stored (and every entry evicted on the way found a
   *     place in its other bucket); {@code false} if the table is unchanged
   */
  public boolean relocate(CuckooTable table, long bucket1, long bucket2, long entry) {
    if (maxKicks == 0) {
      return false;
    }
    long inBucket2 = table.movedEntry(entry);
    if (moveAside(table, bucket1, entry) || moveAside(table, bucket2, inBucket2)) {
      return true;
    }
    if (maxKicks >= 2 && (moveTwoAside(table, bucket1, entry) || moveTwoAside(table, bucket2, inBucket2))) {
      return true;
    }
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
      int evictedFrom = cameFrom[t];
      now[t] = homeless;
      cameFrom[t] = homelessFrom;
      bucket = table.alternate(bucket, table.fingerprintOf(evicted));
      homeless = table.movedEntry(evicted);
      homelessFrom = evictedFrom;
      // A slot the walk touched is never free, so a bucket with room in the table has room in
      // the walk too: storing there is the walk's first move.
      if (table.insert(bucket, homeless)) {
        makeWalk(table, homelessFrom, table.isolatesSlotWrites());
        return true;
      }
    }
    return false; // nothing was written
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

  /**
   * Makes the rest of a walk whose last entry evicted is stored in the free slot: each slot the
   * entry now stored came from takes its own, back to the new entry's.
   */
  private void makeWalk(CuckooTable table, int lastFrom, boolean slotsStay) {
    java.lang.invoke.VarHandle.storeStoreFence(); // stored before the entry's old slot is overwritten
    for (int t = lastFrom, steps = 0; t != NEW; t = cameFrom[t]) {
      if (++steps > touched) {
        throw new IllegalStateException("a kick path's moves do not lead back to the entry it placed");
      }
      if (slotsStay) {
        table.evict(touchedBucket[t], touchedSlot[t], now[t]); // a slot write touches no other slot
      } else {
        table.replace(touchedBucket[t], held[t], now[t]); // the bucket may have re-sorted its slots
      }
      java.lang.invoke.VarHandle.storeStoreFence();
    }
  }

  /**
   * Moves an entry of the full bucket to its other bucket, if that has room, and puts {@code
   * entry} in its slot: one eviction, counted as a kick.
   */
  private static boolean moveAside(CuckooTable table, long bucket, long entry) {
    int slots = table.slotsPerBucket();
    for (int slot = 0; slot < slots; slot++) {
      long resident = table.entryAt(bucket, slot);
      if (table.insert(table.alternate(bucket, table.fingerprintOf(resident)), table.movedEntry(resident))) {
        table.evict(bucket, slot, entry);
        return true;
      }
    }
    return false;
  }

  /**
   * The second level of the search: for each entry of the full bucket, whose other bucket is
   * full too ({@link #moveAside} found no room), moves an entry of that other bucket to its own
   * other bucket if it has room, the first entry into the slot freed, and {@code entry} into the
   * first one's slot: two evictions, counted as kicks. Changes nothing when no such pair exists.
   */
  private static boolean moveTwoAside(CuckooTable table, long bucket, long entry) {
    int slots = table.slotsPerBucket();
    for (int slot = 0; slot < slots; slot++) {
      long resident = table.entryAt(bucket, slot);
      long next = table.alternate(bucket, table.fingerprintOf(resident));
      if (next == bucket) {
        continue; // a fixed point of the alternate (odd bucket counts): no second bucket
      }
      long moved = table.movedEntry(resident);
      for (int nextSlot = 0; nextSlot < slots; nextSlot++) {
        long second = table.entryAt(next, nextSlot);
        if (table.insert(table.alternate(next, table.fingerprintOf(second)), table.movedEntry(second))) {
          table.evict(next, nextSlot, moved);
          table.evict(bucket, slot, entry);
          return true;
        }
      }
    }
    return false;
  }

  private long next() {
    random = xorshift(random);
    return random;
  }

  /** @return the first state of {@link #xorshift} for a seed: non-zero, small seeds spread */
  public static long seedState(long seed) {
    return (seed ^ 0x9E3779B97F4A7C15L) * 0xBF58476D1CE4E5B9L | 1;
  }

  /** Marsaglia's xorshift64: enough for picking slots, and a handful of instructions. */
  public static long xorshift(long x) {
    x ^= x << 13;
    x ^= x >>> 7;
    x ^= x << 17;
    return x;
  }
}
