package dev.cuckoo.jcstress;

import dev.cuckoo.spi.HashStrategy;

/**
 * A key's hash is the key: a {@code long} key, as its 8 little-endian bytes, hashes to itself,
 * so that a test picks the hash (and with it the buckets and fingerprint) a key gets.
 */
final class IdentityHash implements HashStrategy {

  static final IdentityHash INSTANCE = new IdentityHash();

  private IdentityHash() {}

  @Override
  public String name() {
    return "jcstress-identity";
  }

  /** The first 8 bytes, little-endian; a shorter key is padded with zeros. */
  @Override
  public long hashBytes(byte[] bytes, int offset, int length) {
    long h = 0;
    for (int i = Math.min(length, Long.BYTES) - 1; i >= 0; i--) {
      h = h << 8 | bytes[offset + i] & 0xFF;
    }
    return h;
  }

  /** The same as {@link #hashBytes} of the key's 8 little-endian bytes, without them. */
  @Override
  public long hashLong(long key) {
    return key;
  }
}
