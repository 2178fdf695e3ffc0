package dev.cuckoo;

import dev.cuckoo.text.Utf8;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * The {@link KeySink} a {@link TypedFilter} gives each thread: a growable array that keeps its
 * size between keys, so that encoding a key allocates nothing once the thread has seen a key as
 * long.
 */
final class KeyBuffer implements KeySink {
  private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  /** Longest array kept between keys; a longer key's array is let go after it. */
  private static final int MAX_KEPT = 1 << 16;

  private byte[] bytes = new byte[64];
  private int length;

  /** Starts a new key. */
  KeyBuffer reset() {
    if (bytes.length > MAX_KEPT) {
      bytes = new byte[64];
    }
    length = 0;
    return this;
  }

  byte[] array() {
    return bytes;
  }

  int length() {
    return length;
  }

  /**
   * Makes room for {@code n} more bytes and returns where they go. It may replace the array, so
   * a write calls it before it reads {@code bytes}: Java evaluates an array reference before the
   * index, and {@code bytes[room(1)] = b} would write into the array just let go of.
   */
  private int room(int n) {
    int at = length;
    if (bytes.length - at < n) {
      long wanted = Math.max((long) at + n, 2L * bytes.length);
      if ((long) at + n > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException("key of more than " + (Integer.MAX_VALUE - 8) + " bytes");
      }
      bytes = Arrays.copyOf(bytes, (int) Math.min(wanted, Integer.MAX_VALUE - 8));
    }
    length = at + n;
    return at;
  }

  @Override
  public KeySink putByte(byte b) {
    int at = room(1);
    bytes[at] = b;
    return this;
  }

  @Override
  public KeySink putBytes(byte[] b) {
    return putBytes(Objects.requireNonNull(b, "bytes must not be null"), 0, b.length);
  }

  @Override
  public KeySink putBytes(byte[] b, int offset, int n) {
    Objects.checkFromIndexSize(offset, n, b.length);
    int at = room(n);
    System.arraycopy(b, offset, bytes, at, n);
    return this;
  }

  @Override
  public KeySink putInt(int value) {
    int at = room(Integer.BYTES);
    INT_LE.set(bytes, at, value);
    return this;
  }

  @Override
  public KeySink putLong(long value) {
    int at = room(Long.BYTES);
    LONG_LE.set(bytes, at, value);
    return this;
  }

  @Override
  public KeySink putString(CharSequence chars) {
    Objects.requireNonNull(chars, "chars must not be null");
    long worst = 3L * chars.length();
    int n = worst <= MAX_KEPT ? (int) worst : Utf8.length(chars);
    int at = room(n);
    length = Utf8.encode(chars, bytes, at);
    return this;
  }
}
