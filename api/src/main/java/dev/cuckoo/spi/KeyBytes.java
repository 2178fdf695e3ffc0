package dev.cuckoo.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The key-encoding rule (a {@code CharSequence} is its UTF-8 bytes, a {@code long} its 8
 * little-endian bytes) for hash strategies that only hash bytes. Encodes into a per-thread
 * scratch array so that hashing a key allocates nothing once the thread has hashed a key of that
 * length.
 */
final class KeyBytes {
  /** Longest scratch array kept per thread; longer keys get a temporary array. */
  private static final int MAX_SCRATCH = 1 << 16;

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static final ThreadLocal<byte[][]> SCRATCH = ThreadLocal.withInitial(() -> new byte[1][64]);

  private KeyBytes() {}

  static long hashLittleEndian(HashStrategy strategy, long key) {
    byte[] buf = scratch(Long.BYTES);
    LONG_LE.set(buf, 0, key);
    return strategy.hashBytes(buf, 0, Long.BYTES);
  }

  static long hashUtf8(HashStrategy strategy, CharSequence chars) {
    int n = chars.length();
    // A UTF-16 char takes at most 3 UTF-8 bytes (a surrogate pair takes 4 for 2 chars).
    long worst = 3L * n;
    byte[] buf = worst <= MAX_SCRATCH ? scratch((int) worst) : new byte[exactLength(chars)];
    int len = encodeUtf8(chars, buf);
    return strategy.hashBytes(buf, 0, len);
  }

  private static byte[] scratch(int size) {
    byte[][] holder = SCRATCH.get();
    byte[] buf = holder[0];
    if (buf.length < size) {
      buf = new byte[Math.max(size, Math.min(MAX_SCRATCH, buf.length * 2))];
      holder[0] = buf;
    }
    return buf;
  }

  private static int exactLength(CharSequence s) {
    long len = 0;
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        len += 1;
      } else if (c < 0x800) {
        len += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        len += 4;
        i++;
      } else {
        len += Character.isSurrogate(c) ? 1 : 3;
      }
    }
    if (len > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "key of " + n + " chars takes " + len + " UTF-8 bytes: more than a Java array holds");
    }
    return (int) len;
  }

  /**
   * Encodes like {@code String.getBytes(UTF_8)}: an unpaired surrogate becomes {@code '?'}.
   *
   * @return the number of bytes written
   */
  static int encodeUtf8(CharSequence s, byte[] out) {
    int n = s.length();
    int j = 0;
    int i = 0;
    while (i < n) {
      char c = s.charAt(i++);
      if (c < 0x80) {
        out[j++] = (byte) c;
      } else if (c < 0x800) {
        out[j++] = (byte) (0xC0 | (c >> 6));
        out[j++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        char d;
        if (Character.isHighSurrogate(c) && i < n && Character.isLowSurrogate(d = s.charAt(i))) {
          i++;
          int cp = Character.toCodePoint(c, d);
          out[j++] = (byte) (0xF0 | (cp >> 18));
          out[j++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
          out[j++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
          out[j++] = (byte) (0x80 | (cp & 0x3F));
        } else {
          out[j++] = (byte) '?';
        }
      } else {
        out[j++] = (byte) (0xE0 | (c >> 12));
        out[j++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        out[j++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return j;
  }
}
