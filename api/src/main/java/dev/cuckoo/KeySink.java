package dev.cuckoo;

/**
 * Where a {@link KeyEncoder} writes a value's key bytes. The multi-byte forms follow the
 * library's key-encoding rule: a {@code long} is its 8 little-endian bytes and a {@link
 * CharSequence} its UTF-8 bytes, so {@code putLong(42)} writes the key {@code add(42L)} adds
 * and {@code putString("x")} the key {@code add("x")} adds. Not thread-safe: a {@link
 * TypedFilter} gives each thread its own.
 */
public interface KeySink {
  /**
   * @param b a byte
   * @return this sink
   */
  KeySink putByte(byte b);

  /**
   * @param bytes bytes, all of them
   * @return this sink
   */
  KeySink putBytes(byte[] bytes);

  /**
   * @param bytes an array
   * @param offset where the bytes to write start
   * @param length how many to write
   * @return this sink
   */
  KeySink putBytes(byte[] bytes, int offset, int length);

  /**
   * @param value an int, as its 4 little-endian bytes
   * @return this sink
   */
  KeySink putInt(int value);

  /**
   * @param value a long, as its 8 little-endian bytes
   * @return this sink
   */
  KeySink putLong(long value);

  /**
   * @param chars characters, as their UTF-8 bytes (an unpaired surrogate as {@code '?'}, as
   *     {@code String.getBytes(UTF_8)} writes it)
   * @return this sink
   */
  KeySink putString(CharSequence chars);
}
