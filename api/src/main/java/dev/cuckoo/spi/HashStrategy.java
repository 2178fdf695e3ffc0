package dev.cuckoo.spi;

/**
 * A 64-bit hash of keys, the only thing a filter derives bucket indexes and fingerprints from.
 *
 * <p>Implementations must be stateless (or immutable) and thread-safe, and must follow the key
 * encoding rule: {@link #hashChars} is the hash of the UTF-8 bytes of the characters (as {@code
 * String.getBytes(UTF_8)} encodes them, an unpaired surrogate becoming {@code '?'}), and {@link
 * #hashLong} is the hash of the value's 8 little-endian bytes. The defaults do exactly that; an
 * implementation may override them to go faster, never to give a different result.
 *
 * <p>The defaults allocate nothing on the common path: they encode into a per-thread scratch
 * buffer (keys longer than 21,845 characters are encoded into a temporary array).
 */
public interface HashStrategy {

  /**
   * @return the name config strings and filter files use for this strategy, e.g. {@code xxh3}
   */
  String name();

  /**
   * Hashes {@code length} bytes of {@code bytes} starting at {@code offset}.
   *
   * @param bytes the key's bytes
   * @param offset where the key starts
   * @param length how many bytes it has
   * @return the 64-bit hash
   * @throws IndexOutOfBoundsException if the range is outside the array
   */
  long hashBytes(byte[] bytes, int offset, int length);

  /**
   * @param bytes the key's bytes
   * @return the hash of all of them
   */
  default long hashBytes(byte[] bytes) {
    return hashBytes(bytes, 0, bytes.length);
  }

  /**
   * @param chars the key
   * @return the hash of its UTF-8 bytes
   */
  default long hashChars(CharSequence chars) {
    return KeyBytes.hashUtf8(this, chars);
  }

  /**
   * @param key the key
   * @return the hash of its 8 little-endian bytes
   */
  default long hashLong(long key) {
    return KeyBytes.hashLittleEndian(this, key);
  }
}
