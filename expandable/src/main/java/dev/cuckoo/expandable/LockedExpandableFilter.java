package dev.cuckoo.expandable;

import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.AbstractCuckooFilter;
import dev.cuckoo.spi.FilterLock;
import java.io.IOException;
import java.io.OutputStream;

/**
 * {@code concurrency=locked}: one {@link FilterLock}, as in every variant that takes that mode.
 * Writers, doublings included, take it exclusively; lookups read without it and look up again
 * under its read lock if a writer ran meanwhile; counts, figures and {@code writeTo} take its
 * read lock.
 */
final class LockedExpandableFilter extends ExpandableFilter {
  /*
   * An optimistic lookup may see the table half changed (a kick in progress, an entry on its
   * way into the stash) or the filter's next table; FilterLock throws its answer away unless no
   * writer ran, and ExpandableFilter.contains says why it cannot fail first.
   */
  private final FilterLock lock;

  LockedExpandableFilter(FilterSpec spec, LaneTable table) {
    super(spec, table);
    this.lock = FilterLock.of(spec);
  }

  @Override
  protected boolean addHash(long keyHash) {
    return lock.write(this, keyHash, ExpandableFilter::insert);
  }

  @Override
  protected boolean addIfAbsentHash(long keyHash) {
    return lock.write(this, keyHash, ExpandableFilter::insertIfAbsent);
  }

  @Override
  protected boolean removeHash(long keyHash) {
    return lock.write(this, keyHash, ExpandableFilter::delete);
  }

  /**
   * {@inheritDoc} Under this filter's write lock; the other filter must not change while it
   * runs, as without a lock.
   */
  @Override
  protected long addAllFrom(AbstractCuckooFilter other) {
    return lock.change(() -> super.addAllFrom(other));
  }

  @Override
  public void clear() {
    lock.change(super::clear);
  }

  @Override
  protected boolean mightContainHash(long keyHash) {
    return lock.lookup(this, keyHash, ExpandableFilter::contains);
  }

  @Override
  protected long countHash(long keyHash) {
    return lock.count(this, keyHash, ExpandableFilter::countOf);
  }

  @Override
  public long size() {
    return lock.read(super::size);
  }

  @Override
  public long capacity() {
    return lock.read(super::capacity);
  }

  @Override
  public long slots() {
    return lock.read(super::slots);
  }

  @Override
  public long sizeInBytes() {
    return lock.read(super::sizeInBytes);
  }

  @Override
  public double expectedFpp() {
    return lock.read(super::expectedFpp);
  }

  /** {@inheritDoc} Under the read lock: a consistent snapshot, writers waiting. */
  @Override
  public void writeTo(OutputStream out) throws IOException {
    lock.read(() -> {
      super.writeTo(out);
      return null;
    });
  }
}
