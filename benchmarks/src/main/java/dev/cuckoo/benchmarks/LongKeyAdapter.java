package dev.cuckoo.benchmarks;

/**
 * An adapter over a filter of {@code long} keys that cannot remove (FastFilter's cuckoo filters, a
 * {@code class:} contender): the byte-key and remove calls refuse, naming the filter, and the
 * harness, which asks {@link #supportsBytes} and {@link #supportsRemove} first, skips them.
 */
abstract class LongKeyAdapter implements FilterAdapter {
  /** What the adapter wraps, for the refusals. */
  private final String what;

  LongKeyAdapter(String what) {
    this.what = what;
  }

  @Override
  public final boolean remove(long key) {
    throw new UnsupportedOperationException(what + " does not remove");
  }

  @Override
  public final boolean add(byte[] key) {
    throw new UnsupportedOperationException(what + " takes long keys only");
  }

  @Override
  public final boolean mightContain(byte[] key) {
    throw new UnsupportedOperationException(what + " takes long keys only");
  }

  @Override
  public final boolean remove(byte[] key) {
    throw new UnsupportedOperationException(what + " takes long keys only");
  }

  @Override
  public final boolean supportsRemove() {
    return false;
  }

  @Override
  public final boolean supportsBytes() {
    return false;
  }
}
