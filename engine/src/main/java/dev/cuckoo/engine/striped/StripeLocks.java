package dev.cuckoo.engine.striped;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Locks and version counters for the stripes of a bucket table, plus one more stripe for
 * whatever lives beside the table (the stash): writers lock stripes and make their version odd
 * while they change them; readers take no lock, but read the versions before and after and
 * retry when one was odd or changed.
 *
 * <p>A stripe is a power-of-two fraction of the buckets, interleaved in blocks whose bits start
 * and end on word boundaries, so that buckets sharing a {@code long} word always share a stripe
 * (with {@link PackedBits#write} storing only to the words of its field, writers of different
 * stripes then never store to the same word). Locks are taken in increasing stripe order, the
 * extra stripe last, which keeps any set of writers free of deadlock.
 */
final class StripeLocks {

  /*
   * The version counters are a seqlock per stripe (Lameter [1]), in the form Boehm [2] shows
   * correct under a language memory model: the writer stores the odd version, orders it before
   * its data stores with a release fence, and publishes the even version with a release store;
   * the reader loads the version with acquire, reads the data with plain loads, and before
   * loading the version again orders those loads with an acquire fence, as StampedLock.validate
   * does. Data read while a writer worked may be anything, but it is thrown away: the version
   * then is odd or has moved on. The versions are ints in one compact array (four bytes per
   * stripe), so that the two a lookup needs are nearly always in its core's cache.
   *
   * [1] C. Lameter, "Effective Synchronization on Linux/NUMA Systems", Gelato 2005 (seqlocks).
   * [2] H.-J. Boehm, "Can Seqlocks Get Along with Programming Language Memory Models?",
   *     MSPC 2012.
   */

  /** The most stripes: enough that two writers rarely meet, few enough to stay in cache. */
  static final int MAX_STRIPES = 1024;
  private static final VarHandle VERSIONS = MethodHandles.arrayElementVarHandle(int[].class);

  private final int shift;
  private final int mask;
  private final int[] versions;
  private final ReentrantLock[] locks;

  /**
   * @param bucketCount the table's buckets, at least 1
   * @param bucketBits the bits of one bucket, buckets stored back to back from bit 0
   */
  StripeLocks(long bucketCount, long bucketBits) {
    // 2^shift buckets take a whole number of words: 64 / gcd(bucketBits, 64) buckets do.
    this.shift = 6 - Math.min(6, Long.numberOfTrailingZeros(bucketBits));
    long blocks = ((bucketCount - 1) >>> shift) + 1;
    int stripes = (int) Math.min(MAX_STRIPES, Long.highestOneBit(blocks));
    this.mask = stripes - 1;
    this.versions = new int[stripes + 1];
    this.locks = new ReentrantLock[stripes + 1];
    for (int i = 0; i < locks.length; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  /** @return the stripes of the table (not counting the extra one) */
  int stripes() {
    return mask + 1;
  }

  /** @return the extra stripe, ordered after every table stripe */
  int extraStripe() {
    return mask + 1;
  }

  /**
   * @param bucket a bucket index
   * @return its stripe
   */
  int stripe(long bucket) {
    return (int) (bucket >>> shift) & mask;
  }

  // ---------------------------------------------------------------- readers

  /**
   * @param stripe a stripe
   * @return its version now, read with acquire: to pass to {@link #unchanged}
   */
  int version(int stripe) {
    return (int) VERSIONS.getAcquire(versions, stripe);
  }

  /**
   * Whether what was read since {@link #version} returned {@code version} is a consistent view.
   *
   * @param stripe the stripe
   * @param version what {@link #version} returned
   * @return {@code true} if no writer was in the stripe then and none has been since
   */
  boolean unchanged(int stripe, int version) {
    VarHandle.acquireFence();
    return (version & 1) == 0 && (int) VERSIONS.getOpaque(versions, stripe) == version;
  }

  /**
   * {@link #unchanged} for two stripes (which may be the same) with one fence.
   *
   * @return {@code true} if both are unchanged
   */
  boolean unchanged(int stripe1, int version1, int stripe2, int version2) {
    VarHandle.acquireFence();
    return ((version1 | version2) & 1) == 0
        && (int) VERSIONS.getOpaque(versions, stripe1) == version1
        && (int) VERSIONS.getOpaque(versions, stripe2) == version2;
  }

  /**
   * Waits a little before a reader retries: spins at first, then lets a descheduled writer run.
   *
   * @param retries how many times the reader has retried
   */
  @SuppressWarnings("ThreadPriorityCheck") // only lets a descheduled writer run sooner; correctness never waits on it
  static void backOff(int retries) {
    if (retries < 64) {
      Thread.onSpinWait();
    } else {
      Thread.yield();
    }
  }

  // ---------------------------------------------------------------- writers

  /** Locks one stripe. */
  void lock(int stripe) {
    locks[stripe].lock();
  }

  /** Unlocks one stripe. */
  void unlock(int stripe) {
    locks[stripe].unlock();
  }

  /** Locks two stripes, the lower first; one lock if they are the same. */
  void lock(int stripe1, int stripe2) {
    if (stripe1 == stripe2) {
      locks[stripe1].lock();
    } else {
      locks[Math.min(stripe1, stripe2)].lock();
      locks[Math.max(stripe1, stripe2)].lock();
    }
  }

  /** Unlocks what {@link #lock(int, int)} locked. */
  void unlock(int stripe1, int stripe2) {
    locks[stripe1].unlock();
    if (stripe2 != stripe1) {
      locks[stripe2].unlock();
    }
  }

  /** Locks two stripes as {@link #lock(int, int)} does, then the extra stripe (always last). */
  void lockWithExtra(int stripe1, int stripe2) {
    lock(stripe1, stripe2);
    locks[extraStripe()].lock();
  }

  /** Unlocks what {@link #lockWithExtra} locked. */
  void unlockWithExtra(int stripe1, int stripe2) {
    locks[extraStripe()].unlock();
    unlock(stripe1, stripe2);
  }

  /** Locks every stripe, the extra one included, in order. */
  void lockAll() {
    for (ReentrantLock lock : locks) {
      lock.lock();
    }
  }

  /** Unlocks what {@link #lockAll} locked. */
  void unlockAll() {
    for (int i = locks.length - 1; i >= 0; i--) {
      locks[i].unlock();
    }
  }

  /** Runs before every change, under the stripe's lock; {@code null} for none. */
  private Runnable guard;

  /** @param guard what runs before every change, under the lock of the stripe changed */
  void guardWrites(Runnable guard) {
    this.guard = guard;
  }

  /**
   * Starts a change of a locked stripe: readers that overlap it will retry.
   *
   * @param stripe a stripe the caller holds the lock of
   */
  void beginWrite(int stripe) {
    Runnable g = guard;
    if (g != null) {
      g.run();
    }
    VERSIONS.setOpaque(versions, stripe, versions[stripe] + 1);
    // Orders the odd version before the data stores that follow (a StoreStore barrier).
    VarHandle.releaseFence();
  }

  /**
   * Ends a change begun with {@link #beginWrite(int)}, publishing it.
   *
   * @param stripe the stripe
   */
  void endWrite(int stripe) {
    VERSIONS.setRelease(versions, stripe, versions[stripe] + 1);
  }

  /** {@link #beginWrite(int)} for two locked stripes (once if they are the same). */
  void beginWrite(int stripe1, int stripe2) {
    beginWrite(stripe1);
    if (stripe2 != stripe1) {
      beginWrite(stripe2);
    }
  }

  /** {@link #endWrite(int)} for two stripes (once if they are the same). */
  void endWrite(int stripe1, int stripe2) {
    endWrite(stripe1);
    if (stripe2 != stripe1) {
      endWrite(stripe2);
    }
  }

  /** {@link #beginWrite(int, int)} and {@link #beginWrite(int)} of the extra stripe. */
  void beginWriteWithExtra(int stripe1, int stripe2) {
    beginWrite(stripe1, stripe2);
    beginWrite(extraStripe());
  }

  /** Ends what {@link #beginWriteWithExtra} began. */
  void endWriteWithExtra(int stripe1, int stripe2) {
    endWrite(extraStripe());
    endWrite(stripe1, stripe2);
  }

  /** {@link #beginWrite(int)} for every stripe; the caller holds {@link #lockAll}. */
  void beginWriteAll() {
    for (int i = 0; i < versions.length; i++) {
      beginWrite(i);
    }
  }

  /** {@link #endWrite(int)} for every stripe. */
  void endWriteAll() {
    for (int i = 0; i < versions.length; i++) {
      endWrite(i);
    }
  }
}
