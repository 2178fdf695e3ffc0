package dev.cuckoo.hashing;

import dev.cuckoo.spi.HashStrategy;
import java.nio.ByteOrder;
import java.util.Objects;
import net.openhft.hashing.LongHashFunction;

/** A {@link HashStrategy} backed by a zero-allocation-hashing function. */
class ZeroAllocationHash implements HashStrategy {
  private static final boolean NATIVE_LITTLE_ENDIAN =
      ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

  private final ZeroAllocationFunction kind;
  private final long seed;
  private final LongHashFunction function;

  ZeroAllocationHash(ZeroAllocationFunction kind, long seed) {
    this.kind = kind;
    this.seed = seed;
    this.function = kind.function(seed);
  }

  /** @return the strategy for this function and seed, with a faster {@code hashLong} where one exists */
  static ZeroAllocationHash create(ZeroAllocationFunction kind, long seed) {
    return kind == ZeroAllocationFunction.XXH3 ? new Xxh3Hash(seed) : new ZeroAllocationHash(kind, seed);
  }

  @Override
  public String name() {
    return kind.hashName;
  }

  @Override
  public long hashBytes(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    return function.hashBytes(bytes, offset, length);
  }

  @Override
  public long hashLong(long key) {
    // The library hashes a long as its bytes in native order; the key rule says little-endian.
    return function.hashLong(NATIVE_LITTLE_ENDIAN ? key : Long.reverseBytes(key));
  }

  @Override
  public final boolean equals(Object o) {
    return o instanceof ZeroAllocationHash other && other.kind == kind && other.seed == seed;
  }

  @Override
  public final int hashCode() {
    return kind.hashCode() * 31 + Long.hashCode(seed);
  }

  @Override
  public String toString() {
    return kind.hashName + "(seed=" + seed + ")";
  }
}
