package dev.cuckoo.scalable;

import dev.cuckoo.CorruptFilterException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The 38-byte header RedisBloom writes first in a {@code CF.SCANDUMP} (iterator 1) and reads
 * first in a series of {@code CF.LOADCHUNK}: packed, little-endian, in this order [1]:
 *
 * <pre>
 * offset size field
 * 0      8    numItems     (u64)  fingerprints stored
 * 8      8    numBuckets   (u64)  buckets of the first sub-filter
 * 16     8    numDeletes   (u64)  deletes since the last compaction
 * 24     8    numFilters   (u64)  sub-filters in the chain
 * 32     2    bucketSize   (u16)
 * 34     2    maxIterations(u16)
 * 36     2    expansion    (u16)  already rounded up to a power of two, or 0
 * </pre>
 *
 * <p>The filter file payload of variant {@code scalable} starts with the same 38 bytes, so that
 * both ways in are checked by {@link #decode}.
 *
 * <p>[1] https://redis.io/commands/cf.scandump/ and the header chunks ({@code dump/0000.bin}) of
 * the conformance vectors.
 */
record DumpHeader(
    long numItems,
    long numBuckets,
    long numDeletes,
    int numFilters,
    int bucketSize,
    int maxIterations,
    int expansion) {

  /** The header's exact length in bytes. */
  static final int BYTES = 38;

  /** RedisBloom refuses a first sub-filter of this many buckets or more when loading. */
  static final long BUCKETS_LIMIT = 1L << 56;

  /** @return the header of a chain as it is now */
  static DumpHeader of(SubFilterChain chain) {
    return new DumpHeader(chain.items(), chain.initialBuckets(), chain.deletes(), chain.subFilterCount(),
        chain.bucketSize(), chain.maxIterations(), chain.expansion());
  }

  /**
   * Reads and checks a header. Beyond RedisBloom's own checks (length 38; bucketSize 1..255;
   * numFilters 1..32; maxIterations 1..65535; expansion 0..32768, and 0 only with one
   * sub-filter; numBuckets a power of two below 2^56) it refuses what no RedisBloom filter can
   * hold and this one cannot represent: an expansion that is not a power of two (RedisBloom
   * rounds it up before storing it), counts above 2^63-1, and sub-filters whose sizes overflow
   * or exceed {@link SubFilterChain#MAX_SUB_FILTER_BYTES}.
   *
   * @param bytes the header chunk
   * @return the header
   * @throws CorruptFilterException naming the field and the value found
   */
  static DumpHeader decode(byte[] bytes) throws CorruptFilterException {
    if (bytes.length != BYTES) {
      throw corrupt("is " + bytes.length + " bytes long; a header is exactly " + BYTES);
    }
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    long numItems = b.getLong();
    long numBuckets = b.getLong();
    long numDeletes = b.getLong();
    long numFilters = b.getLong();
    int bucketSize = Short.toUnsignedInt(b.getShort());
    int maxIterations = Short.toUnsignedInt(b.getShort());
    int expansion = Short.toUnsignedInt(b.getShort());
    if (bucketSize < 1 || bucketSize > 255) {
      throw corrupt("has bucketSize " + bucketSize + ", out of range 1..255");
    }
    if (numFilters < 1 || numFilters > SubFilterChain.MAX_SUB_FILTERS) {
      throw corrupt("has numFilters " + Long.toUnsignedString(numFilters) + ", out of range 1.."
          + SubFilterChain.MAX_SUB_FILTERS);
    }
    if (maxIterations < 1) {
      throw corrupt("has maxIterations 0, out of range 1..65535");
    }
    if (expansion > 32768) {
      throw corrupt("has expansion " + expansion + ", out of range 0..32768");
    }
    if (expansion == 0 && numFilters > 1) {
      throw corrupt("has expansion 0 (never grows) but " + numFilters + " sub-filters");
    }
    if (expansion != 0 && Integer.bitCount(expansion) != 1) {
      throw corrupt("has expansion " + expansion + ", not a power of two (RedisBloom stores it rounded up)");
    }
    if (numBuckets == 0 || Long.bitCount(numBuckets) != 1 || Long.compareUnsigned(numBuckets, BUCKETS_LIMIT) >= 0) {
      throw corrupt("has numBuckets " + Long.toUnsignedString(numBuckets)
          + ", not a power of two in 1..2^55");
    }
    if (numItems < 0) {
      throw corrupt("has numItems " + Long.toUnsignedString(numItems) + ", above 2^63-1");
    }
    if (numDeletes < 0) {
      throw corrupt("has numDeletes " + Long.toUnsignedString(numDeletes) + ", above 2^63-1");
    }
    DumpHeader header = new DumpHeader(numItems, numBuckets, numDeletes, (int) numFilters, bucketSize,
        maxIterations, expansion);
    long slots = header.dataBytes();
    if (numItems > slots) {
      throw corrupt("has numItems " + numItems + ", more than its " + slots + " slots");
    }
    return header;
  }

  /** @return the 38 bytes */
  byte[] encode() {
    return ByteBuffer.allocate(BYTES)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putLong(numItems)
        .putLong(numBuckets)
        .putLong(numDeletes)
        .putLong(numFilters)
        .putShort((short) bucketSize)
        .putShort((short) maxIterations)
        .putShort((short) expansion)
        .array();
  }

  /**
   * @param index a sub-filter's position in the chain, oldest 0
   * @return its size in bytes
   * @throws CorruptFilterException if it overflows or exceeds the largest sub-filter allowed
   */
  long subFilterBytes(int index) throws CorruptFilterException {
    long buckets = SubFilterChain.bucketsOf(numBuckets, expansion, bucketSize, index);
    if (buckets < 0) {
      throw corrupt("declares sub-filter " + index + " of " + Long.toUnsignedString(numBuckets) + " * "
          + expansion + "^" + index + " buckets of " + bucketSize + " bytes, more than the "
          + SubFilterChain.MAX_SUB_FILTER_BYTES + " bytes a sub-filter may have");
    }
    return buckets * bucketSize;
  }

  /**
   * @return the bytes of all sub-filters together
   * @throws CorruptFilterException if a sub-filter is too large
   */
  long dataBytes() throws CorruptFilterException {
    long total = 0;
    for (int i = 0; i < numFilters; i++) {
      total += subFilterBytes(i); // at most 32 * 2^46: no overflow
    }
    return total;
  }

  private static CorruptFilterException corrupt(String what) {
    return new CorruptFilterException("RedisBloom cuckoo filter header " + what);
  }
}
