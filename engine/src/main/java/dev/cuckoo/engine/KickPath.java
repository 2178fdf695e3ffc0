package dev.cuckoo.engine;

/**
 * The kick loop of cuckoo insertion, with undo: places an entry (a fingerprint and any value
 * beside it, see {@link CuckooTable}) whose two candidate buckets are full by moving other
 * entries to their other buckets, and if no free slot turns up within {@link #maxKicks()}
 * evictions, moves every evicted entry back, so that a refused insert leaves the table exactly
 * as it was.
 *
 * <p>One instance serves one table; it holds the path of the insert in progress (preallocated,
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
   * The reference code of [1] keeps the last evicted fingerprint in a one-slot "victim" when the
   * walk gives up; a filter that drops it instead has false negatives. We undo the path: step k
   * placed fingerprint p[k] in bucket B[k] and evicted v[k]. Only p[k] needs recording: walking
   * back from the homeless v[n], the bucket it was evicted from is the alternate of the bucket
   * it failed to enter (the alternate is an involution); putting it back there in place of p[k]
   * leaves p[k] homeless, and so on down to the fingerprint the insert started with. The table
   * is then exactly as before (as a multiset per bucket, which is all a bucket is), and the
   * caller decides what becomes of the refused fingerprint (FingerprintStash). Every move, out
   * and back, stores the entry as its new bucket stores it (CuckooTable.movedEntry), so a table
   * whose entries record something about their bucket stays consistent along the path and
   * after its undo.
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   * [2] X. Li, D. G. Andersen, M. Kaminsky, M. J. Freedman, "Algorithmic Improvements for Fast
   *     Concurrent Cuckoo Hashing", EuroSys 2014.
   */

  private final int maxKicks;
  private final long[] placed;
  private long random;

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
    this.placed = new long[maxKicks];
    this.random = seedState(seed);
  }

  /** @return the most evictions one insert may make */
  public int maxKicks() {
    return maxKicks;
  }

  /**
   * Places an entry whose two candidate buckets are both full: first by moving one of their
   * entries to its other bucket, then by evicting along a random path. On failure every eviction
   * is undone. With {@code maxKicks} 0 it fails at once.
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
    long slots = table.slotsPerBucket();
    boolean first = (next() & 1) == 0;
    long bucket = first ? bucket1 : bucket2;
    long homeless = first ? entry : inBucket2;
    for (int k = 0; k < maxKicks; k++) {
      int slot = (int) PartialKeyHashing.reduce(next(), slots);
      placed[k] = homeless;
      long evicted = table.evict(bucket, slot, homeless);
      bucket = table.alternate(bucket, table.fingerprintOf(evicted));
      homeless = table.movedEntry(evicted);
      if (table.insert(bucket, homeless)) {
        return true;
      }
    }
    for (int k = maxKicks - 1; k >= 0; k--) {
      bucket = table.alternate(bucket, table.fingerprintOf(homeless));
      table.replace(bucket, placed[k], table.movedEntry(homeless));
      homeless = placed[k];
    }
    return false;
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
  static long seedState(long seed) {
    return (seed ^ 0x9E3779B97F4A7C15L) * 0xBF58476D1CE4E5B9L | 1;
  }

  /** Marsaglia's xorshift64: enough for picking slots, and a handful of instructions. */
  static long xorshift(long x) {
    x ^= x << 13;
    x ^= x >>> 7;
    x ^= x << 17;
    return x;
  }
}
