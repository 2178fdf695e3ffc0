package dev.cuckoo.engine.striped;

import dev.cuckoo.engine.CuckooTable;
import dev.cuckoo.engine.KickPath;
import dev.cuckoo.engine.PartialKeyHashing;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The relocations of {@link StripedFingerprintStore}: frees a slot in one of a key's two full
 * buckets by finding a path of entries that can each move to their other bucket, without
 * changing anything, and then making the moves from the free end backwards, each under the
 * locks of its two buckets. Thread-safe: every thread has its own path.
 */
final class StripedKickPath {

  /*
   * libcuckoo [2], section 4: search first, then move. The search reads buckets one at a time
   * under their stripe's lock and changes nothing: one level of breadth-first search (a resident
   * of either bucket whose other bucket has room, as KickPath does), then the random walk of Fan
   * et al. [1] (section 3.1) of at most maxKicks steps, recording each bucket and the entry that
   * would leave it. The moves then run from the free end of the path backwards, each under the
   * locks of its two buckets, and each re-checks that the next bucket has room and the entry is
   * still in its bucket, storing it in the next before taking it from the first. A reader cannot
   * see it gone from the first (both stripes are odd until both changes are made), so every
   * stored entry is findable at every moment; and a process that dies between the two stores
   * leaves a duplicate, never a loss, as KickPath's moves do. If a move finds the path changed by another writer, the path is spoilt and the caller
   * searches again; the moves made so far only moved entries to their other bucket. Every move
   * is counted by the store (beginMove, endMove), so that its lookups know when to distrust a
   * miss.
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   * [2] X. Li, D. G. Andersen, M. Kaminsky, M. J. Freedman, "Algorithmic Improvements for Fast
   *     Concurrent Cuckoo Hashing", EuroSys 2014.
   */

  /** {@link #freeSlot}: a bucket has room now. */
  static final int FREED = 1;
  /** {@link #freeSlot}: another writer changed the path before its moves were made. */
  static final int SPOILT = 0;
  /** {@link #freeSlot}: no path within maxKicks steps. */
  static final int NO_PATH = -1;

  private static final long SEED_STEP = 0x9E3779B97F4A7C15L;

  private final StripedFingerprintStore store;
  private final CuckooTable table;
  private final StripeLocks locks;
  private final int slots;
  private final int maxKicks;
  private final AtomicLong seeds;
  private final ThreadLocal<Path> paths;

  StripedKickPath(StripedFingerprintStore store, CuckooTable table, StripeLocks locks, int maxKicks, long seed) {
    this.store = store;
    this.table = table;
    this.locks = locks;
    this.slots = table.slotsPerBucket();
    this.maxKicks = maxKicks;
    this.seeds = new AtomicLong(seed);
    int slotsPerBucket = slots;
    this.paths = ThreadLocal.withInitial(() -> new Path(maxKicks, slotsPerBucket, seeds.getAndAdd(SEED_STEP)));
  }

  /**
   * Frees a slot in {@code bucket1} or {@code bucket2}, both full when last read, holding no lock
   * when called.
   *
   * @return {@link #FREED}, {@link #SPOILT} or {@link #NO_PATH}
   */
  int freeSlot(long bucket1, long bucket2) {
    Path path = paths.get();
    int moves = search(path, bucket1, bucket2);
    if (moves < 0) {
      return NO_PATH;
    }
    return moveAlong(path, moves) ? FREED : SPOILT;
  }

  /**
   * Searches, changing nothing, for entries to move so that bucket1 or bucket2 gets a free
   * slot.
   *
   * @return the number of moves, in the path's buckets and entries (0: a bucket has room now),
   *     or -1 if no path was found within maxKicks steps
   */
  private int search(Path path, long bucket1, long bucket2) {
    if (maxKicks == 0) {
      return -1;
    }
    for (int side = 0; side < 2; side++) {
      long bucket = side == 0 ? bucket1 : bucket2;
      if (read(bucket, path.row) > 0) {
        return 0;
      }
      for (int slot = 0; slot < slots; slot++) {
        long resident = path.row[slot];
        if (hasRoom(table.alternate(bucket, table.fingerprintOf(resident)))) {
          path.buckets[0] = bucket;
          path.entries[0] = resident;
          return 1;
        }
      }
    }
    long bucket = (path.next() & 1) == 0 ? bucket1 : bucket2;
    if (read(bucket, path.row) > 0) {
      return 0;
    }
    for (int k = 0; k < maxKicks; k++) {
      // The bucket was full when read: every slot of the row holds an entry.
      long resident = path.row[(int) PartialKeyHashing.reduce(path.next(), slots)];
      path.buckets[k] = bucket;
      path.entries[k] = resident;
      bucket = table.alternate(bucket, table.fingerprintOf(resident));
      if (read(bucket, path.row) > 0) {
        return k + 1;
      }
    }
    return -1;
  }

  /**
   * Makes the moves of a path, the last first.
   *
   * @return {@code false} if another writer changed the path first
   */
  private boolean moveAlong(Path path, int moves) {
    for (int k = moves - 1; k >= 0; k--) {
      if (!move(path.buckets[k], path.entries[k])) {
        return false;
      }
    }
    return true;
  }

  /** Moves one copy of the entry from the bucket to its other one, if both allow. */
  private boolean move(long from, long entry) {
    long to = table.alternate(from, table.fingerprintOf(entry));
    int stripeFrom = locks.stripe(from);
    int stripeTo = locks.stripe(to);
    locks.lock(stripeFrom, stripeTo);
    try {
      store.beginMove();
      locks.beginWrite(stripeFrom, stripeTo);
      try {
        // Stored in the other bucket first, then taken from this one: a process that dies between
        // the two leaves a duplicate, never a loss (KickPath's class comment).
        long moved = table.movedEntry(entry);
        if (!table.insert(to, moved)) {
          return false;
        }
        java.lang.invoke.VarHandle.storeStoreFence();
        if (table.remove(from, entry)) {
          return true;
        }
        table.remove(to, moved); // another writer took the entry first: the copy just made goes
        return false;
      } finally {
        locks.endWrite(stripeFrom, stripeTo);
        store.endMove();
      }
    } finally {
      locks.unlock(stripeFrom, stripeTo);
    }
  }

  /** Copies the bucket's entries into {@code row}, under its stripe's lock; returns its empty slots. */
  private int read(long bucket, long[] row) {
    int stripe = locks.stripe(bucket);
    locks.lock(stripe);
    try {
      int empty = 0;
      for (int slot = 0; slot < slots; slot++) {
        long entry = table.entryAt(bucket, slot);
        row[slot] = entry;
        empty += entry == 0 ? 1 : 0;
      }
      return empty;
    } finally {
      locks.unlock(stripe);
    }
  }

  private boolean hasRoom(long bucket) {
    int stripe = locks.stripe(bucket);
    locks.lock(stripe);
    try {
      for (int slot = 0; slot < slots; slot++) {
        if (table.entryAt(bucket, slot) == 0) {
          return true;
        }
      }
      return false;
    } finally {
      locks.unlock(stripe);
    }
  }

  /**
   * One thread's relocation path, preallocated so that a kick allocates nothing after the
   * thread's first. It refers to nothing of the store: a thread-local value that did would keep
   * the store (and its table) alive as long as the thread.
   */
  private static final class Path {
    final long[] buckets;
    final long[] entries;
    /** The entries of the bucket read last. */
    final long[] row;
    private long random;

    Path(int maxKicks, int slots, long seed) {
      this.buckets = new long[maxKicks];
      this.entries = new long[maxKicks];
      this.row = new long[slots];
      this.random = KickPath.seedState(seed);
    }

    long next() {
      random = KickPath.xorshift(random);
      return random;
    }
  }
}
