package dev.cuckoo.expandable;

import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.AbstractCuckooFilter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.locks.StampedLock;

/**
 * {@code concurrency=locked}: one lock. Writers take it exclusively; lookups and counts read
 * without it and check afterwards that no writer took it meanwhile ({@link StampedLock}'s
 * optimistic reads), retrying under its read lock if one did.
 */
final class LockedExpandableFilter extends ExpandableFilter {
  /*
   * An optimistic read may see the table half changed (a kick in progress, an entry on its
   * way into the stash) or the filter's next table: whatever it computes is thrown away unless
   * validate() shows that no write lock was taken since the read began [1]. Nothing it reads
   * can make it fail first: a table's array and its shift are final fields of one object, so
   * a lookup never pairs an index with an array of another size, and the stash bounds its
   * loop by the arrays it reads.
   *
   * [1] H.-J. Boehm, "Can Seqlocks Get Along With Programming Language Memory Models?",
   *     MSPC 2012; java.util.concurrent.locks.StampedLock's "optimistic read" idiom.
   */
  private final StampedLock lock = new StampedLock();

  LockedExpandableFilter(FilterSpec spec, LaneTable table) {
    super(spec, table);
  }

  @Override
  protected boolean addHash(long keyHash) {
    long stamp = lock.writeLock();
    try {
      return super.addHash(keyHash);
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  @Override
  protected long addAllFrom(AbstractCuckooFilter other) {
    long stamp = lock.writeLock();
    try {
      return super.addAllFrom(other);
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  @Override
  protected boolean addIfAbsentHash(long keyHash) {
    long stamp = lock.writeLock();
    try {
      return !super.mightContainHash(keyHash) && super.addHash(keyHash);
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  @Override
  protected boolean mightContainHash(long keyHash) {
    long stamp = lock.tryOptimisticRead();
    if (stamp != 0) {
      boolean found = super.mightContainHash(keyHash);
      if (lock.validate(stamp)) {
        return found;
      }
    }
    stamp = lock.readLock();
    try {
      return super.mightContainHash(keyHash);
    } finally {
      lock.unlockRead(stamp);
    }
  }

  @Override
  protected boolean removeHash(long keyHash) {
    long stamp = lock.writeLock();
    try {
      return super.removeHash(keyHash);
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  @Override
  protected long countHash(long keyHash) {
    long stamp = lock.readLock();
    try {
      return super.countHash(keyHash);
    } finally {
      lock.unlockRead(stamp);
    }
  }

  @Override
  public long size() {
    return underReadLock(super::size);
  }

  @Override
  public long capacity() {
    return underReadLock(super::capacity);
  }

  @Override
  public long slots() {
    return underReadLock(super::slots);
  }

  @Override
  public long sizeInBytes() {
    return underReadLock(super::sizeInBytes);
  }

  @Override
  public double expectedFpp() {
    long stamp = lock.readLock();
    try {
      return super.expectedFpp();
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /** For the figures a caller asks for now and then: the lookups allocate nothing. */
  private long underReadLock(java.util.function.LongSupplier figure) {
    long stamp = lock.readLock();
    try {
      return figure.getAsLong();
    } finally {
      lock.unlockRead(stamp);
    }
  }

  @Override
  public void clear() {
    long stamp = lock.writeLock();
    try {
      super.clear();
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  /** {@inheritDoc} Under the read lock: a consistent snapshot, writers waiting. */
  @Override
  public void writeTo(OutputStream out) throws IOException {
    long stamp = lock.readLock();
    try {
      super.writeTo(out);
    } finally {
      lock.unlockRead(stamp);
    }
  }
}
