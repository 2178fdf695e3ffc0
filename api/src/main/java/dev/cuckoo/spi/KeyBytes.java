package dev.cuckoo.spi;

import dev.cuckoo.text.Utf8;
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

  /*
   * A process's first lookup of a string key comes here (zero-allocation-hashing's hashes take
   * the default hashChars), so this class makes nothing at its loading that the JDK builds at run
   * time: no lambda for the scratch arrays, and the VarHandle that only hashLittleEndian uses in
   * a class of its own, made at its first use.
   */
  private static final ThreadLocal<byte[][]> SCRATCH = new ThreadLocal<>() {
    @Override
    protected byte[][] initialValue() {
      return new byte[1][64];
    }
  };

  private static final class LittleEndian {
    static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  }

  private KeyBytes() {}

  static long hashLittleEndian(HashStrategy strategy, long key) {
    byte[] buf = scratch(Long.BYTES);
    LittleEndian.LONG_LE.set(buf, 0, key);
    return strategy.hashBytes(buf, 0, Long.BYTES);
  }

  static long hashUtf8(HashStrategy strategy, CharSequence chars) {
    int n = chars.length();
    // A UTF-16 char takes at most 3 UTF-8 bytes (a surrogate pair takes 4 for 2 chars).
    long worst = 3L * n;
    byte[] buf = worst <= MAX_SCRATCH ? scratch((int) worst) : new byte[Utf8.length(chars)];
    int len = Utf8.encode(chars, buf, 0);
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
}
