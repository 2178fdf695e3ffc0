package dev.cuckoo.spi;

import dev.cuckoo.Concurrency;
import dev.cuckoo.FilterSpec;
import java.util.concurrent.locks.StampedLock;

/**
 * The lock of {@code concurrency=locked} ({@link Concurrency#LOCKED}), one per filter, and what
 * that mode means in every variant that takes it: writers run one at a time under its write
 * lock; a lookup reads without it and checks afterwards that no writer took it meanwhile,
 * looking up again under its read lock if one did; everything else that reads (counts, figures,
 * a snapshot) runs under its read lock, together. For a spec of another mode it is a lock that
 * does nothing, so one filter class may serve both.
 *
 * <p>A lookup handed to {@link #lookup} must be safe to run while a writer changes the filter:
 * whatever half-written state it reads, it returns (no exception, no endless loop) and changes
 * nothing; its answer is then thrown away. The per-key methods take the operation as a function
 * of the filter and the key's hash, so that a variant passes a method reference that captures
 * nothing and a call allocates nothing. The lock is not reentrant: a body run under it must not
 * call a method of the same filter that takes it.
 */
public final class FilterLock {
  /*
   * An optimistic read is the seqlock idiom [1] as StampedLock packages it: a stamp before the
   * read, validate() after it, which fails if a write lock was taken in between; a read that
   * fails is repeated under the read lock, so a lookup that raced a writer waits for it once and
   * never spins. Counts are
   * not read optimistically: they add up what several places hold, and no variant argues that a
   * torn sum cannot fail first.
   *
   * [1] H.-J. Boehm, "Can Seqlocks Get Along With Programming Language Memory Models?",
   *     MSPC 2012; java.util.concurrent.locks.StampedLock's "optimistic read" idiom.
   */

  private static final FilterLock NONE = new FilterLock(null);

  /** {@code null} for a spec without {@code concurrency=locked}. */
  private final StampedLock lock;

  private FilterLock(StampedLock lock) {
    this.lock = lock;
  }

  /**
   * @param spec a resolved spec
   * @return a new lock if its concurrency is {@link Concurrency#LOCKED}, else one that does nothing
   */
  public static FilterLock of(FilterSpec spec) {
    return spec.concurrency().orElse(Concurrency.NONE) == Concurrency.LOCKED ? new FilterLock(new StampedLock()) : NONE;
  }

  /**
   * An operation on one key of a filter that answers yes or no: an add, a remove, a lookup.
   *
   * @param <F> what it operates on
   */
  @FunctionalInterface
  public interface KeyTest<F> {
    /**
     * @param filter what to operate on
     * @param keyHash the key's hash
     * @return the answer
     */
    boolean test(F filter, long keyHash);
  }

  /**
   * An operation on one key of a filter that answers a number: a count.
   *
   * @param <F> what it operates on
   */
  @FunctionalInterface
  public interface KeyCount<F> {
    /**
     * @param filter what to operate on
     * @param keyHash the key's hash
     * @return the answer
     */
    long count(F filter, long keyHash);
  }

  /**
   * Work on the whole filter run under the lock: a figure, a clear, a merge, a snapshot.
   *
   * @param <R> what it answers
   * @param <E> what it may throw
   */
  @FunctionalInterface
  public interface Section<R, E extends Exception> {
    /**
     * @return the answer
     * @throws E if the work fails
     */
    R run() throws E;
  }

  /**
   * Runs a change of one key under the write lock.
   *
   * @param <F> what it changes
   * @param filter what it changes
   * @param keyHash the key's hash
   * @param change the change
   * @return its answer
   */
  public <F> boolean write(F filter, long keyHash, KeyTest<? super F> change) {
    return test(true, filter, keyHash, change);
  }

  /**
   * Runs a lookup of one key without the lock, and again under the read lock if a writer took
   * the write lock meanwhile.
   *
   * @param <F> what it reads
   * @param filter what it reads
   * @param keyHash the key's hash
   * @param lookup a lookup that is safe to run beside a writer (see the class comment)
   * @return its answer
   */
  public <F> boolean lookup(F filter, long keyHash, KeyTest<? super F> lookup) {
    StampedLock l = lock;
    if (l == null) {
      return lookup.test(filter, keyHash);
    }
    long stamp = l.tryOptimisticRead();
    if (stamp != 0) {
      boolean found = lookup.test(filter, keyHash);
      if (l.validate(stamp)) {
        return found;
      }
    }
    return test(false, filter, keyHash, lookup);
  }

  /**
   * Runs a count of one key under the read lock.
   *
   * @param <F> what it reads
   * @param filter what it reads
   * @param keyHash the key's hash
   * @param count the count
   * @return its answer
   */
  public <F> long count(F filter, long keyHash, KeyCount<? super F> count) {
    long stamp = enter(false);
    try {
      return count.count(filter, keyHash);
    } finally {
      exit(false, stamp);
    }
  }

  /**
   * Runs a read of the whole filter under the read lock, together with other reads: a figure a
   * caller asks for now and then (this takes a lambda; the per-key methods allocate nothing),
   * or a snapshot, which writers then wait for.
   *
   * @param <R> what it answers
   * @param <E> what it may throw
   * @param read the read
   * @return its answer
   * @throws E if the read fails
   */
  public <R, E extends Exception> R read(Section<R, E> read) throws E {
    return run(false, read);
  }

  /**
   * Runs a change of the whole filter under the write lock: a clear, a merge, a compaction.
   *
   * @param <R> what it answers
   * @param <E> what it may throw
   * @param change the change
   * @return its answer
   * @throws E if the change fails
   */
  public <R, E extends Exception> R change(Section<R, E> change) throws E {
    return run(true, change);
  }

  /**
   * Runs a change of the whole filter that answers nothing under the write lock: a clear, a
   * compaction.
   *
   * @param change the change
   */
  public void change(Runnable change) {
    run(true, () -> {
      change.run();
      return null;
    });
  }

  private <F> boolean test(boolean exclusive, F filter, long keyHash, KeyTest<? super F> op) {
    long stamp = enter(exclusive);
    try {
      return op.test(filter, keyHash);
    } finally {
      exit(exclusive, stamp);
    }
  }

  private <R, E extends Exception> R run(boolean exclusive, Section<R, E> section) throws E {
    long stamp = enter(exclusive);
    try {
      return section.run();
    } finally {
      exit(exclusive, stamp);
    }
  }

  /** @return the stamp of the write or read lock, or 0 (never a stamp StampedLock gives) for no lock */
  private long enter(boolean exclusive) {
    StampedLock l = lock;
    return l == null ? 0 : exclusive ? l.writeLock() : l.readLock();
  }

  private void exit(boolean exclusive, long stamp) {
    if (stamp == 0) {
      return;
    }
    if (exclusive) {
      lock.unlockWrite(stamp);
    } else {
      lock.unlockRead(stamp);
    }
  }
}
