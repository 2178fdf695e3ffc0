package dev.cuckoo.engine.striped;

import dev.cuckoo.engine.CuckooTable;
import dev.cuckoo.engine.FingerprintStash;
import dev.cuckoo.engine.FingerprintStore;
import dev.cuckoo.engine.KickPath;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The thread-safe {@link FingerprintStore}: the operations of {@link PlainFingerprintStore}, safe
 * to call from any number of threads at once, with lookups that take no lock.
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
 * it occupies. Entries move whole (fingerprint and value, see {@link CuckooTable}).
 */
public final class StripedFingerprintStore implements FingerprintStore {

  /*
   * Lookups read both buckets optimistically under the version counters of their stripes
   * (StripeLocks: a seqlock per stripe [3]) and retry when a writer overlapped them; a torn read
   * can only cause a retry or a true, never a false negative (tables with isolated slot writes
   * validate a miss more cheaply, below). Writers lock the stripes of both candidate buckets,
   * lower stripe first, and make their versions odd while they change them.
   *
   * When both buckets are full, the insert frees a slot along a path that the thread's KickPath
   * searches and then moves (libcuckoo [2], section 4: search first, then move) through
   * LockedTable, which reads and writes each bucket under its stripe's lock, and puts the new
   * fingerprint into the freed slot under the locks of its two buckets (re-checking absence for
   * addIfAbsent). Each move stores the entry in its other bucket and then takes it from this
   * one, two writes under one stripe's lock each: a reader whose read overlaps either sees its
   * stripe's version (or the relocation counter) change and retries, and one that reads between
   * them finds the entry in both buckets. After SEARCHES paths that other writers spoilt or that
   * found no room, the fingerprint goes to the stash.
   *
   * Lookups on a table whose slot writes are isolated (CuckooTable.isolatesSlotWrites: a
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
  private static final VarHandle COPIES;

  static {
    try {
      RELOCATIONS = MethodHandles.lookup().findVarHandle(StripedFingerprintStore.class, "relocations", long.class);
      COPIES = MethodHandles.lookup().findVarHandle(StripedFingerprintStore.class, "copies", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Added to {@link #relocations} when a move begins: one more begun, one more in progress. */
  private static final long MOVE_BEGUN = (1L << 32) + 1;

  /** Searches for a path an insert makes before it falls back to the stash. */
  private static final int SEARCHES = 8;
  /** Spreads the seeds of the threads' kick paths. */
  private static final long SEED_STEP = 0x9E3779B97F4A7C15L;

  private final CuckooTable table;
  private final FingerprintStash stash;
  private final StripeLocks locks;
  private final int stashStripe;
  private final int slots;
  /**
   * Each thread's kick path, preallocated so that a kick allocates nothing after the thread's
   * first. It refers to nothing of the store: a thread-local value that did would keep the store
   * (and its table) alive as long as the thread.
   */
  private final ThreadLocal<KickPath> kicks;
  private final LockedTable lockedTable = new LockedTable();
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
  /**
   * Entries a kick path has stored in their other bucket and not yet taken from their old one
   * (KickPath.move: the copy first, then the original goes); read and changed only through
   * {@link #COPIES}. Between the two writes no lock is held, so a snapshot that took every
   * stripe's lock there would see the entry twice: {@link #whileUnchanged} waits for none.
   */
  @SuppressWarnings("unused")
  private long copies;
  /** Whether lookups may validate with {@link #relocations} alone. */
  private final boolean movesOnly;

  /**
   * @param table the table, with an even bucket count, its buckets back to back in its words
   * @param stash the stash that goes with it
   * @param bucketBits the bits of one bucket in the table's words
   * @param maxKicks the most steps of a relocation path, at least 0
   * @param seed the seed of the paths' random choices
   * @param size the items the table and the stash hold now
   */
  public StripedFingerprintStore(CuckooTable table, FingerprintStash stash, long bucketBits, int maxKicks, long seed, long size) {
    if (maxKicks < 0) {
      throw new IllegalArgumentException("maxKicks " + maxKicks + " is negative");
    }
    this.table = table;
    this.stash = stash;
    this.locks = new StripeLocks(table.bucketCount(), bucketBits);
    this.stashStripe = locks.extraStripe();
    this.slots = table.slotsPerBucket();
    AtomicLong seeds = new AtomicLong(seed);
    this.kicks = ThreadLocal.withInitial(() -> new KickPath(maxKicks, seeds.getAndAdd(SEED_STEP)));
    this.size.add(size);
    this.stashed = stash.size();
    this.movesOnly = table.isolatesSlotWrites();
  }

  /** @return the number of stripes the table's buckets are locked in */
  int stripes() {
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
    CuckooTable t = table;
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

  @Override
  public long countEntries(long bucket1, int fingerprint) {
    return probe(bucket1, table.alternate(bucket1, fingerprint), fingerprint, true);
  }

  /**
   * Has {@code guard} run before every change, under the locks of the stripes it changes: a
   * mapped file marks itself as being changed there ({@link TableFile#beforeChange}), so that a
   * writer that got past its filter's own check while another thread forced the file cannot
   * store into it after the force.
   *
   * @param guard what runs
   */
  public void guardWrites(Runnable guard) {
    locks.guardWrites(guard);
  }

  /**
   * Reads the key's buckets (and the stash, if it holds anything) under its stripes' versions.
   *
   * @return the copies of its fingerprint if {@code counting}, else non-zero if any is there
   */
  private long probe(long bucket1, long bucket2, int fingerprint, boolean counting) {
    CuckooTable t = table;
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
    int fingerprint = table.fingerprint(keyHash);
    return addEntry(table.bucketIndex(keyHash), fingerprint, Integer.toUnsignedLong(fingerprint), ifAbsent);
  }

  /** {@inheritDoc} Under the locks of the entry's two buckets, as {@link #add} does. */
  @Override
  public boolean addEntry(long bucket1, int fingerprint, long entry) {
    return addEntry(bucket1, fingerprint, entry, false);
  }

  private boolean addEntry(long bucket1, int fingerprint, long entry, boolean ifAbsent) {
    long bucket2 = table.alternate(bucket1, fingerprint);
    int stripe1 = locks.stripe(bucket1);
    int stripe2 = locks.stripe(bucket2);
    for (int search = 0; search <= SEARCHES; search++) {
      if (search > 0 && !kicks.get().freeSlot(lockedTable, bucket1, bucket2, entry)) {
        break; // both buckets were full and no path frees a slot in either
      }
      locks.lock(stripe1, stripe2);
      try {
        if (ifAbsent && holds(bucket1, bucket2, fingerprint)) {
          return false;
        }
        if (insert(bucket1, bucket2, entry, stripe1, stripe2)) {
          return true;
        }
      } finally {
        locks.unlock(stripe1, stripe2);
      }
    }
    return addToStash(bucket1, bucket2, fingerprint, entry, stripe1, stripe2, ifAbsent);
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
  private boolean insert(long bucket1, long bucket2, long entry, int stripe1, int stripe2) {
    locks.beginWrite(stripe1, stripe2);
    try {
      if (table.insert(bucket1, entry) || table.insert(bucket2, table.movedEntry(entry))) {
        size.increment();
        return true;
      }
      return false;
    } finally {
      locks.endWrite(stripe1, stripe2);
    }
  }

  private boolean addToStash(long bucket1, long bucket2, int fingerprint, long entry, int stripe1, int stripe2,
      boolean ifAbsent) {
    locks.lockWithExtra(stripe1, stripe2);
    try {
      if (ifAbsent && (table.contains(bucket1, bucket2, fingerprint) || stash.contains(bucket1, bucket2, fingerprint))) {
        return false;
      }
      locks.beginWriteWithExtra(stripe1, stripe2);
      try {
        boolean stored = table.insert(bucket1, entry) || table.insert(bucket2, table.movedEntry(entry))
            || stash.add(bucket1, fingerprint, entry);
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
    long entry = Integer.toUnsignedLong(fingerprint);
    locks.lock(stripe1, stripe2);
    try {
      locks.beginWrite(stripe1, stripe2);
      try {
        if (!table.remove(bucket1, entry) && !table.remove(bucket2, table.movedEntry(entry))) {
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
      long entry;
      locks.lock(stashStripe);
      try {
        if (i >= stash.size()) {
          continue;
        }
        bucket = stash.bucket(i);
        fingerprint = stash.fingerprint(i);
        entry = stash.entry(i);
      } finally {
        locks.unlock(stashStripe);
      }
      long other = table.alternate(bucket, fingerprint);
      int stripe1 = locks.stripe(bucket);
      int stripe2 = locks.stripe(other);
      locks.lockWithExtra(stripe1, stripe2);
      try {
        // The entry read under the stash's lock alone may have left since: move it only if the
        // stash still holds that very entry (fingerprint and value) now that both buckets are
        // locked too.
        if (stash.containsEntry(bucket, other, entry)) {
          // A move from the stash into the table: a lookup could read the table before and
          // the stash after it.
          beginMove();
          locks.beginWriteWithExtra(stripe1, stripe2);
          if (table.insert(bucket, entry) || table.insert(other, table.movedEntry(entry))) {
            stash.removeEntry(bucket, other, entry);
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
    // Every write of a kick path is made under its stripe's lock, so with all of them held the
    // count of copies cannot change; a path between its two writes needs a lock to finish.
    while ((long) COPIES.getVolatile(this) != 0) {
      locks.unlockAll();
      Thread.onSpinWait();
      locks.lockAll();
    }
    try {
      action.run();
    } finally {
      locks.unlockAll();
    }
  }

  // ---------------------------------------------------------------- moves

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

  /**
   * The table as a kick path sees it: each read under the lock of its bucket's stripe, each
   * write under that lock too, with the stripe's version odd and counted as a move. Only what
   * {@link KickPath#freeSlot} calls; the rest is refused.
   */
  private final class LockedTable implements CuckooTable {

    @Override
    public long entryAt(long bucket, int slot) {
      int stripe = locks.stripe(bucket);
      locks.lock(stripe);
      try {
        return table.entryAt(bucket, slot);
      } finally {
        locks.unlock(stripe);
      }
    }

    @Override
    public boolean insert(long bucket, long entry) {
      return write(bucket, entry, true);
    }

    @Override
    public boolean remove(long bucket, long entry) {
      return write(bucket, entry, false);
    }

    private boolean write(long bucket, long entry, boolean insert) {
      int stripe = locks.stripe(bucket);
      locks.lock(stripe);
      try {
        if (insert && !hasRoom(bucket)) {
          return false; // no write: lookups need not retry
        }
        beginMove();
        locks.beginWrite(stripe);
        try {
          boolean written = insert ? table.insert(bucket, entry) : table.remove(bucket, entry);
          if (written) {
            COPIES.getAndAdd(StripedFingerprintStore.this, insert ? 1L : -1L);
          }
          return written;
        } finally {
          locks.endWrite(stripe);
          endMove();
        }
      } finally {
        locks.unlock(stripe);
      }
    }

    private boolean hasRoom(long bucket) {
      for (int slot = 0; slot < slots; slot++) {
        if (table.entryAt(bucket, slot) == 0) {
          return true;
        }
      }
      return false;
    }

    @Override
    public long bucketCount() {
      return table.bucketCount();
    }

    @Override
    public int slotsPerBucket() {
      return slots;
    }

    @Override
    public long alternate(long bucket, int fingerprint) {
      return table.alternate(bucket, fingerprint);
    }

    @Override
    public long movedEntry(long entry) {
      return table.movedEntry(entry);
    }

    @Override
    public int fingerprintOf(long entry) {
      return table.fingerprintOf(entry);
    }

    @Override
    public long bucketIndex(long keyHash) {
      return table.bucketIndex(keyHash);
    }

    @Override
    public int fingerprint(long keyHash) {
      return table.fingerprint(keyHash);
    }

    @Override
    public boolean contains(long bucket1, long bucket2, int fingerprint) {
      throw new UnsupportedOperationException("a kick path reads slots one at a time");
    }

    @Override
    public int count(long bucket1, long bucket2, int fingerprint) {
      throw new UnsupportedOperationException("a kick path reads slots one at a time");
    }

    @Override
    public long evict(long bucket, int slot, long entry) {
      throw new UnsupportedOperationException("a shared kick path moves by insert and remove");
    }

    @Override
    public void replace(long bucket, long entry, long replacement) {
      throw new UnsupportedOperationException("a shared kick path moves by insert and remove");
    }

    @Override
    public void clear() {
      throw new UnsupportedOperationException("a kick path clears nothing");
    }
  }
}
