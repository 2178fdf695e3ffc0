package dev.cuckoo.spi;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The thread-safe {@link CuckooStore}: the operations of {@link FingerprintStore}, safe to call
 * from any number of threads at once, with lookups that take no lock.
 *
 * <p>The contract, for a store shared between threads: every operation is atomic (linearizable)
 * with respect to the key's two buckets and the stash; {@link #mightContain} is {@code true} for
 * every key whose add returned before the lookup began and that no remove took since; {@link
 * #addIfAbsent} checks and inserts under the locks of the key's buckets, so two threads adding
 * the same absent key store it once; a refused add loses nothing (it may have moved other
 * fingerprints to their other bucket, which no lookup can tell); {@link #size} is exact whenever
 * no writer is running; {@link #clear} and {@link #whileUnchanged} see or make one consistent
 * state. Lookups, counts and adds that need no kick allocate nothing. The table must store its
 * buckets back to back in {@code long[]} words and write a bucket by storing only to the words
 * it occupies.
 *
 * @param <T> the table type
 */
public final class StripedFingerprintStore<T extends SearchableTable> implements CuckooStore {

  /*
   * Lookups read both buckets optimistically under the version counters of their stripes
   * (StripeLocks: a seqlock per stripe [3]) and retry when a writer overlapped them; a torn read
   * can only cause a retry or a true, never a false negative (tables with isolated slot writes
   * validate a miss more cheaply, below). Writers lock the stripes of both candidate buckets,
   * lower stripe first, and make their versions odd while they change them.
   *
   * When both buckets are full, the insert follows libcuckoo [2], section 4: search first, then
   * move. The search reads buckets one at a time under their stripe's lock and changes nothing:
   * one level of breadth-first search (a resident of either bucket whose other bucket has room,
   * as KickPath does), then the random walk of Fan et al. [1] (section 3.1) of at most maxKicks
   * steps, recording each bucket and the fingerprint that would leave it. The moves then run
   * from the free end of the path backwards, each under the locks of its two buckets, and each
   * re-checks that the fingerprint is still in its bucket and that the next has room. A move
   * puts the fingerprint in its other bucket before a reader can see it gone from the first
   * (both stripes are odd until both changes are made), so every stored fingerprint is findable
   * at every moment, which the in-place walk of KickPath, with one fingerprint in hand, is not.
   * If a move finds the path changed by another writer, the search starts again; the moves made
   * so far only moved fingerprints to their other bucket. Finally the new fingerprint goes into
   * the freed slot under the locks of its two buckets (re-checking absence for addIfAbsent).
   *
   * Lookups on a table whose slot writes are isolated (SearchableTable.isolatesSlotWrites: a
   * write leaves every other slot's bits intact) need not read the stripe versions at all. On
   * such a table an add or a remove changes only the slot it writes, so the one thing that can
   * hide a stored fingerprint from a reader is a move between its two buckets (or from the
   * stash into the table). Moves are counted in one word, relocations: the high 32 bits count
   * the moves begun, the low 32 bits the moves in progress. A lookup reads the word with
   * acquire, reads both buckets, returns true at once if they match, and returns false only if
   * no move was in progress and the word is unchanged (and the stash is empty); otherwise it
   * falls back to the stripe versions. One load and compare instead of two stripes' versions
   * matters: at 10M keys a lookup waits on two cache misses, and the fewer instructions it
   * takes, the more lookups the processor keeps in flight (ConcurrentBenchmark, 16-bit classic
   * at 10M keys: 1.4x the unsynchronized lookup with stripe versions, 1.0x with the counter).
   * Writers pay one atomic add per move begun and ended; a reader that overlapped a move falls
   * back to the stripe versions, which retry only while a writer is in the key's own stripes.
   *
   * The stash has the extra stripe, locked after any table stripe. A fingerprint enters or
   * leaves it only under the locks of both its buckets as well, so a lookup that validates its
   * two stripes has seen the key's stash entries constant; it reads the stash (under the
   * stash's own version, as other keys' entries move around in it) only while its count says
   * it holds something.
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   * [2] X. Li, D. G. Andersen, M. Kaminsky, M. J. Freedman, "Algorithmic Improvements for Fast
   *     Concurrent Cuckoo Hashing", EuroSys 2014.
   * [3] H.-J. Boehm, "Can Seqlocks Get Along with Programming Language Memory Models?",
   *     MSPC 2012.
   */

  private static final VarHandle RELOCATIONS;

  static {
    try {
      RELOCATIONS = MethodHandles.lookup().findVarHandle(StripedFingerprintStore.class, "relocations", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Added to {@link #relocations} when a move begins: one more begun, one more in progress. */
  private static final long MOVE_BEGUN = (1L << 32) + 1;

  /** Searches for a path an insert makes before it falls back to the stash. */
  private static final int SEARCHES = 8;
  private static final long SEED_STEP = 0x9E3779B97F4A7C15L;

  private final T table;
  private final FingerprintStash stash;
  private final StripeLocks locks;
  private final int stashStripe;
  private final int slots;
  private final int maxKicks;
  private final LongAdder size = new LongAdder();
  /**
   * The stash's size, for lookups to test without reading the stash. Written under the stash's
   * lock and the key's stripes, so a lookup that read those stripes' versions with acquire sees
   * every change that concerns its key; a plain field is enough.
   */
  private int stashed;
  /**
   * Moves begun (high 32 bits, wrapping) and in progress (low 32 bits); read and changed only
   * through {@link #RELOCATIONS}.
   */
  @SuppressWarnings("unused")
  private long relocations;
  /** Whether lookups may validate with {@link #relocations} alone. */
  private final boolean movesOnly;
  private final AtomicLong seeds;
  private final ThreadLocal<Path> paths;

  /**
   * @param table the table, with an even bucket count, its buckets back to back in its words
   * @param stash the stash that goes with it
   * @param bucketBits the bits of one bucket in the table's words
   * @param maxKicks the most steps of a relocation path, at least 0
   * @param seed the seed of the paths' random choices
   * @param size the items the table and the stash hold now
   */
  public StripedFingerprintStore(T table, FingerprintStash stash, long bucketBits, int maxKicks, long seed, long size) {
    if (maxKicks < 0) {
      throw new IllegalArgumentException("maxKicks " + maxKicks + " is negative");
    }
    this.table = table;
    this.stash = stash;
    this.locks = new StripeLocks(table.bucketCount(), bucketBits);
    this.stashStripe = locks.extraStripe();
    this.slots = table.slotsPerBucket();
    this.maxKicks = maxKicks;
    this.size.add(size);
    this.stashed = stash.size();
    this.movesOnly = table.isolatesSlotWrites();
    this.seeds = new AtomicLong(seed);
    this.paths = ThreadLocal.withInitial(() -> new Path(maxKicks, slots, seeds.getAndAdd(SEED_STEP)));
  }

  /** @return the number of stripes the table's buckets are locked in */
  public int stripes() {
    return locks.stripes();
  }

  @Override
  public long size() {
    return size.sum();
  }

  @Override
  public long slots() {
    return table.bucketCount() * slots + stash.slots();
  }

  // ---------------------------------------------------------------- lookups: no locks

  /**
   * {@inheritDoc} A {@code true} read from a bucket is returned at once: a read torn by a
   * concurrent writer can only make a lookup true, which a filter may always answer, so only a
   * {@code false} waits for the versions to confirm it.
   */
  @Override
  public boolean mightContain(long keyHash) {
    T t = table;
    long bucket1 = t.bucketIndex(keyHash);
    int fingerprint = t.fingerprint(keyHash);
    long bucket2 = t.alternate(bucket1, fingerprint);
    if (movesOnly) {
      long moves = (long) RELOCATIONS.getAcquire(this);
      if (t.contains(bucket1, bucket2, fingerprint)) {
        return true;
      }
      VarHandle.acquireFence();
      if ((int) moves == 0 && stashed == 0 && (long) RELOCATIONS.getOpaque(this) == moves) {
        return false;
      }
    }
    return probe(bucket1, bucket2, fingerprint, false) != 0;
  }

  @Override
  public long count(long keyHash) {
    long bucket1 = table.bucketIndex(keyHash);
    int fingerprint = table.fingerprint(keyHash);
    return probe(bucket1, table.alternate(bucket1, fingerprint), fingerprint, true);
  }

  /**
   * Reads the key's buckets (and the stash, if it holds anything) under its stripes' versions.
   *
   * @return the copies of its fingerprint if {@code counting}, else non-zero if any is there
   */
  private long probe(long bucket1, long bucket2, int fingerprint, boolean counting) {
    T t = table;
    int stripe1 = locks.stripe(bucket1);
    int stripe2 = locks.stripe(bucket2);
    for (int retries = 0; ; retries++) {
      int version1 = locks.version(stripe1);
      int version2 = locks.version(stripe2);
      long n;
      if (counting) {
        // The bucket count is even, so the two buckets differ and no slot is counted twice.
        n = t.count(bucket1, bucket2, fingerprint);
      } else if (t.contains(bucket1, bucket2, fingerprint)) {
        return 1;
      } else {
        n = 0;
      }
      if (stashed != 0) {
        n += stashCount(bucket1, bucket2, fingerprint);
      }
      if (locks.unchanged(stripe1, version1, stripe2, version2)) {
        return n;
      }
      StripeLocks.backOff(retries);
    }
  }

  private int stashCount(long bucket1, long bucket2, int fingerprint) {
    for (int retries = 0; ; retries++) {
      int version = locks.version(stashStripe);
      int n = stash.count(bucket1, bucket2, fingerprint);
      if (locks.unchanged(stashStripe, version)) {
        return n;
      }
      StripeLocks.backOff(retries);
    }
  }

  // ---------------------------------------------------------------- writers

  @Override
  public boolean add(long keyHash) {
    return add(keyHash, false);
  }

  /** {@inheritDoc} Atomic: the check and the insert hold the locks of the key's buckets. */
  @Override
  public boolean addIfAbsent(long keyHash) {
    return add(keyHash, true);
  }

  private boolean add(long keyHash, boolean ifAbsent) {
    long bucket1 = table.bucketIndex(keyHash);
    int fingerprint = table.fingerprint(keyHash);
    long bucket2 = table.alternate(bucket1, fingerprint);
    int stripe1 = locks.stripe(bucket1);
    int stripe2 = locks.stripe(bucket2);
    Path path = null;
    for (int search = 0; search <= SEARCHES; search++) {
      if (search > 0) {
        // Both buckets were full: free a slot along a path, then try again.
        path = path == null ? paths.get() : path;
        int moves = search(path, bucket1, bucket2);
        if (moves < 0) {
          break;
        }
        if (!moveAlong(path, moves)) {
          continue;
        }
      }
      locks.lock(stripe1, stripe2);
      try {
        if (ifAbsent && holds(bucket1, bucket2, fingerprint)) {
          return false;
        }
        if (insert(bucket1, bucket2, fingerprint, stripe1, stripe2)) {
          return true;
        }
      } finally {
        locks.unlock(stripe1, stripe2);
      }
    }
    return addToStash(bucket1, bucket2, fingerprint, stripe1, stripe2, ifAbsent);
  }

  /** Whether the key is stored; the caller holds the locks of both its buckets. */
  private boolean holds(long bucket1, long bucket2, int fingerprint) {
    if (table.contains(bucket1, bucket2, fingerprint)) {
      return true;
    }
    if (stashed == 0) {
      return false;
    }
    locks.lock(stashStripe);
    try {
      return stash.contains(bucket1, bucket2, fingerprint);
    } finally {
      locks.unlock(stashStripe);
    }
  }

  /** Inserts into either bucket if one has room; the caller holds both buckets' locks. */
  private boolean insert(long bucket1, long bucket2, int fingerprint, int stripe1, int stripe2) {
    locks.beginWrite(stripe1, stripe2);
    try {
      if (table.insert(bucket1, fingerprint) || table.insert(bucket2, fingerprint)) {
        size.increment();
        return true;
      }
      return false;
    } finally {
      locks.endWrite(stripe1, stripe2);
    }
  }

  private boolean addToStash(long bucket1, long bucket2, int fingerprint, int stripe1, int stripe2, boolean ifAbsent) {
    locks.lockWithExtra(stripe1, stripe2);
    try {
      if (ifAbsent && (table.contains(bucket1, bucket2, fingerprint) || stash.contains(bucket1, bucket2, fingerprint))) {
        return false;
      }
      locks.beginWriteWithExtra(stripe1, stripe2);
      try {
        boolean stored = table.insert(bucket1, fingerprint) || table.insert(bucket2, fingerprint)
            || stash.add(bucket1, fingerprint);
        if (stored) {
          size.increment();
        }
        stashed = stash.size();
        return stored;
      } finally {
        locks.endWriteWithExtra(stripe1, stripe2);
      }
    } finally {
      locks.unlockWithExtra(stripe1, stripe2);
    }
  }

  @Override
  public boolean remove(long keyHash) {
    long bucket1 = table.bucketIndex(keyHash);
    int fingerprint = table.fingerprint(keyHash);
    long bucket2 = table.alternate(bucket1, fingerprint);
    int stripe1 = locks.stripe(bucket1);
    int stripe2 = locks.stripe(bucket2);
    locks.lock(stripe1, stripe2);
    try {
      locks.beginWrite(stripe1, stripe2);
      try {
        if (!table.remove(bucket1, fingerprint) && !table.remove(bucket2, fingerprint)) {
          if (stashed == 0 || !removeFromStash(bucket1, bucket2, fingerprint)) {
            return false;
          }
          size.decrement();
          return true;
        }
        size.decrement();
      } finally {
        locks.endWrite(stripe1, stripe2);
      }
    } finally {
      locks.unlock(stripe1, stripe2);
    }
    if (stashed != 0) {
      reinsertStashed();
    }
    return true;
  }

  /** Removes a stash entry of the key; the caller holds the locks of both its buckets. */
  private boolean removeFromStash(long bucket1, long bucket2, int fingerprint) {
    locks.lock(stashStripe);
    try {
      locks.beginWrite(stashStripe);
      try {
        boolean removed = stash.remove(bucket1, bucket2, fingerprint);
        stashed = stash.size();
        return removed;
      } finally {
        locks.endWrite(stashStripe);
      }
    } finally {
      locks.unlock(stashStripe);
    }
  }

  /**
   * Moves stashed fingerprints whose buckets now have room back into the table: each under the
   * locks of its two buckets, then the stash's, as every writer takes them.
   */
  private void reinsertStashed() {
    for (int i = stash.slots() - 1; i >= 0; i--) {
      long bucket;
      int fingerprint;
      locks.lock(stashStripe);
      try {
        if (i >= stash.size()) {
          continue;
        }
        bucket = stash.bucket(i);
        fingerprint = stash.fingerprint(i);
      } finally {
        locks.unlock(stashStripe);
      }
      long other = table.alternate(bucket, fingerprint);
      int stripe1 = locks.stripe(bucket);
      int stripe2 = locks.stripe(other);
      locks.lockWithExtra(stripe1, stripe2);
      try {
        if (stash.contains(bucket, other, fingerprint)) {
          // A move from the stash into the table: a lookup could read the table before and
          // the stash after it.
          beginMove();
          locks.beginWriteWithExtra(stripe1, stripe2);
          if (table.insert(bucket, fingerprint) || table.insert(other, fingerprint)) {
            stash.remove(bucket, other, fingerprint);
            stashed = stash.size();
          }
          locks.endWriteWithExtra(stripe1, stripe2);
          endMove();
        }
      } finally {
        locks.unlockWithExtra(stripe1, stripe2);
      }
    }
  }

  @Override
  public void clear() {
    locks.lockAll();
    try {
      locks.beginWriteAll();
      table.clear();
      stash.clear();
      stashed = 0;
      size.reset();
      locks.endWriteAll();
    } finally {
      locks.unlockAll();
    }
  }

  /** {@inheritDoc} Holds every stripe's lock while the action runs; lookups go on. */
  @Override
  public void whileUnchanged(Snapshot action) throws IOException {
    locks.lockAll();
    try {
      action.run();
    } finally {
      locks.unlockAll();
    }
  }

  // ---------------------------------------------------------------- relocation

  /**
   * Searches, changing nothing, for fingerprints to move so that bucket1 or bucket2 gets a free
   * slot.
   *
   * @return the number of moves, in the path's buckets and fingerprints (0: a bucket has room
   *     now), or -1 if no path was found within maxKicks steps
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
        int resident = path.row[slot];
        if (hasRoom(table.alternate(bucket, resident))) {
          path.buckets[0] = bucket;
          path.fingerprints[0] = resident;
          return 1;
        }
      }
    }
    long bucket = (path.next() & 1) == 0 ? bucket1 : bucket2;
    if (read(bucket, path.row) > 0) {
      return 0;
    }
    for (int k = 0; k < maxKicks; k++) {
      // The bucket was full when read: every slot of the row holds a fingerprint.
      int resident = path.row[(int) PartialKeyHashing.reduce(path.next(), slots)];
      path.buckets[k] = bucket;
      path.fingerprints[k] = resident;
      bucket = table.alternate(bucket, resident);
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
      if (!move(path.buckets[k], path.fingerprints[k])) {
        return false;
      }
    }
    return true;
  }

  /** Moves one copy of the fingerprint from the bucket to its other one, if both allow. */
  private boolean move(long from, int fingerprint) {
    long to = table.alternate(from, fingerprint);
    int stripeFrom = locks.stripe(from);
    int stripeTo = locks.stripe(to);
    locks.lock(stripeFrom, stripeTo);
    try {
      beginMove();
      locks.beginWrite(stripeFrom, stripeTo);
      try {
        if (!table.remove(from, fingerprint)) {
          return false;
        }
        if (table.insert(to, fingerprint)) {
          return true;
        }
        table.insert(from, fingerprint); // the slot it just left
        return false;
      } finally {
        locks.endWrite(stripeFrom, stripeTo);
        endMove();
      }
    } finally {
      locks.unlock(stripeFrom, stripeTo);
    }
  }

  /**
   * Counts a move as begun and in progress, before its first store (a volatile add is a full
   * fence): lookups that validate with {@link #relocations} alone will not trust what they read
   * until it ends.
   */
  private void beginMove() {
    RELOCATIONS.getAndAdd(this, MOVE_BEGUN);
  }

  /** Ends a move begun with {@link #beginMove}, after its last store (a volatile add releases). */
  private void endMove() {
    RELOCATIONS.getAndAdd(this, -1L);
  }

  /** Copies the bucket's fingerprints into {@code row}, under its stripe's lock; returns its empty slots. */
  private int read(long bucket, int[] row) {
    int stripe = locks.stripe(bucket);
    locks.lock(stripe);
    try {
      int empty = 0;
      for (int slot = 0; slot < slots; slot++) {
        int fingerprint = table.fingerprintAt(bucket, slot);
        row[slot] = fingerprint;
        empty += fingerprint == 0 ? 1 : 0;
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
        if (table.fingerprintAt(bucket, slot) == 0) {
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
    final int[] fingerprints;
    /** The fingerprints of the bucket read last. */
    final int[] row;
    private long random;

    Path(int maxKicks, int slots, long seed) {
      this.buckets = new long[maxKicks];
      this.fingerprints = new int[maxKicks];
      this.row = new int[slots];
      this.random = KickPath.seedState(seed);
    }

    long next() {
      random = KickPath.xorshift(random);
      return random;
    }
  }
}
