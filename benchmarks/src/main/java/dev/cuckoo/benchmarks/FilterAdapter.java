package dev.cuckoo.benchmarks;

/**
 * One filter instance behind the harness's small adapter, so that our variants and the peers run
 * exactly the same benchmark code. Keys follow cuckoo's encoding rule: a {@code long} is its 8
 * little-endian bytes.
 */
public interface FilterAdapter {

  /**
   * @param key the key
   * @return {@code false} if the filter refused it (for some peers, a refusal loses an item)
   */
  boolean add(long key);

  /**
   * @param key the key
   * @return whether the key may be present
   */
  boolean mightContain(long key);

  /**
   * @param key a key that was added
   * @return whether a copy was removed
   * @throws UnsupportedOperationException if {@link #supportsRemove()} is false
   */
  boolean remove(long key);

  /**
   * @param key the key's bytes
   * @return {@code false} if refused
   * @throws UnsupportedOperationException if {@link #supportsBytes()} is false
   */
  boolean add(byte[] key);

  /**
   * @param key the key's bytes
   * @return whether the key may be present
   * @throws UnsupportedOperationException if {@link #supportsBytes()} is false
   */
  boolean mightContain(byte[] key);

  /**
   * @param key the bytes of a key that was added
   * @return whether a copy was removed
   * @throws UnsupportedOperationException if removal or byte keys are unsupported
   */
  boolean remove(byte[] key);

  /** @return whether {@code remove} works */
  boolean supportsRemove();

  /** @return whether {@code byte[]} keys work */
  boolean supportsBytes();

  /** @return the bytes of memory the filter's table holds */
  long sizeInBytes();

  /**
   * @return the bits of memory the filter holds: {@link #sizeInBytes()} in bits, unless the
   *     filter counts bits of its own (a {@link GrowingContender})
   */
  default long sizeInBits() {
    return 8 * sizeInBytes();
  }

  /** @return the filter's fingerprint slots, or 0 for a filter that has none (a Bloom filter) */
  long slots();
}
