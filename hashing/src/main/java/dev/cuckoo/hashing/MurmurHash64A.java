package dev.cuckoo.hashing;

import dev.cuckoo.spi.HashStrategy;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * MurmurHash64A (Austin Appleby, MurmurHash2 family, 64-bit version for 64-bit platforms), the
 * item hash of RedisBloom's cuckoo filter, which uses seed 0: 8-byte blocks read
 * little-endian, the 1..7 tail bytes folded in little-endian order. Vectors (seed 0):
 * {@code ""} → 0, {@code "a"} → 0x071717d2d36b6b11, {@code "foo"} → 0xcdde38358fd25b01.
 */
final class MurmurHash64A implements HashStrategy {
  static final String NAME = "murmur64a";
  private static final long M = 0xc6a4a7935bd1e995L;
  private static final int R = 47;
  /**
   * The seed mix of an 8-byte key, {@code len * m}: MurmurHash64A multiplies modulo 2^64 by
   * design, so the overflow Error Prone sees in this constant is the algorithm.
   */
  @SuppressWarnings("ConstantOverflow")
  private static final long LONG_KEY_MIX = 8 * M;
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final long seed;

  MurmurHash64A(long seed) {
    this.seed = seed;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public long hashBytes(byte[] data, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, data.length);
    long h = seed ^ (length * M);
    int end = offset + (length & ~7);
    for (int i = offset; i < end; i += 8) {
      h = mixBlock(h, (long) LONG_LE.get(data, i));
    }
    int tail = length & 7;
    if (tail != 0) {
      long t = 0;
      for (int i = tail - 1; i >= 0; i--) {
        t = (t << 8) | (data[end + i] & 0xFFL);
      }
      h ^= t;
      h *= M;
    }
    return finish(h);
  }

  @Override
  public long hashLong(long key) {
    return finish(mixBlock(seed ^ LONG_KEY_MIX, key));
  }

  private static long mixBlock(long h, long k) {
    k *= M;
    k ^= k >>> R;
    k *= M;
    h ^= k;
    return h * M;
  }

  private static long finish(long h) {
    h ^= h >>> R;
    h *= M;
    h ^= h >>> R;
    return h;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MurmurHash64A other && other.seed == seed;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(seed) ^ 0x64a;
  }

  @Override
  public String toString() {
    return NAME + "(seed=" + seed + ")";
  }
}
