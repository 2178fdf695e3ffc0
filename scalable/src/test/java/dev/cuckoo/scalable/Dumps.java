package dev.cuckoo.scalable;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.scalable.RedisBloomDump.Chunk;
import dev.cuckoo.spi.HashStrategy;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;

/** Builds RedisBloom dumps by hand, and finds keys whose hashes have a given shape. */
final class Dumps {
  static final HashStrategy MURMUR = CuckooFilters.hash("murmur64a");

  private Dumps() {}

  /** @return a 38-byte header with these fields (little-endian, as RedisBloom packs it) */
  static byte[] header(long items, long buckets, long deletes, long filters, int bucketSize,
      int maxIterations, int expansion) {
    return ByteBuffer.allocate(DumpHeader.BYTES).order(ByteOrder.LITTLE_ENDIAN)
        .putLong(items).putLong(buckets).putLong(deletes).putLong(filters)
        .putShort((short) bucketSize).putShort((short) maxIterations).putShort((short) expansion)
        .array();
  }

  /** @return the header chunk, then one chunk per sub-filter with RedisBloom's iterators */
  static List<Chunk> chunks(byte[] header, byte[]... subFilters) {
    List<Chunk> chunks = new ArrayList<>();
    chunks.add(new Chunk(1, header));
    long end = 0;
    for (byte[] s : subFilters) {
      end += s.length;
      chunks.add(new Chunk(end + 1, s));
    }
    return chunks;
  }

  /** @return the bytes of every sub-filter of a filter, oldest first, concatenated */
  static byte[] tables(ScalableCuckooFilter f) {
    SubFilterChain chain = f.chain();
    byte[] all = new byte[(int) chain.dataBytes()];
    int at = 0;
    for (int i = 0; i < chain.subFilterCount(); i++) {
      SubFilter s = chain.subFilter(i);
      s.copyOut(0, all, at, (int) s.bytes());
      at += (int) s.bytes();
    }
    return all;
  }

  /** @return the bytes of one sub-filter */
  static byte[] table(ScalableCuckooFilter f, int index) {
    SubFilter s = f.chain().subFilter(index);
    byte[] bytes = new byte[(int) s.bytes()];
    s.copyOut(0, bytes, 0, bytes.length);
    return bytes;
  }

  /** @return the first key {@code prefix + i} whose murmur64a hash passes the test */
  static String keyWhere(String prefix, LongPredicate hashTest) {
    for (int i = 0; ; i++) {
      String key = prefix + i;
      if (hashTest.test(hash(key))) {
        return key;
      }
    }
  }

  static long hash(String key) {
    return MURMUR.hashBytes(key.getBytes(StandardCharsets.UTF_8));
  }

  static int fingerprint(String key) {
    return SubFilterChain.fingerprint(hash(key));
  }
}
