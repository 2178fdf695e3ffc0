package dev.cuckoo.scalable;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.spi.PayloadInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A {@link SubFilterChain} as bytes: what RedisBloom's {@code CF.SCANDUMP} hands over and {@code
 * CF.LOADCHUNK} takes, and what a file of variant {@code scalable} holds as its payload. The
 * writer and the readers below follow one layout:
 *
 * <pre>
 * offset       size                            field
 * 0            38                              the header ({@link DumpHeader}): counters and shape
 * 38           B(0) = numBuckets * bucketSize  sub-filter 0, the oldest
 * 38 + B(0)    B(1) = B(0) * expansion         sub-filter 1
 * ...          B(i) = B(0) * expansion^i       sub-filter i, up to numFilters - 1
 * </pre>
 *
 * <p>A sub-filter is its buckets in order, each {@code bucketSize} one-byte slots, a slot its
 * fingerprint (1..255) or 0 where it is empty ({@link SubFilter}). A file's payload is all of it
 * in one piece ({@link ScalableCuckooFilter#writePayload}, {@link ScalableProvider#read}); a dump
 * is the header as its first chunk and the sub-filters' bytes cut into chunks that never cross a
 * sub-filter ({@link RedisBloomDump}).
 */
final class ChainDump {
  private ChainDump() {}

  /** Writes every sub-filter's bytes, oldest first. */
  static void write(SubFilterChain chain, DataOutput out) throws IOException {
    for (int i = 0; i < chain.subFilterCount(); i++) {
      chain.subFilter(i).writeTo(out);
    }
  }

  /**
   * Reads the chain a checked header describes from a payload: every sub-filter's bytes, oldest
   * first, each allocated only as its bytes arrive ({@link SubFilter#read}); then call {@link
   * #checkItems}.
   *
   * @param header the header, already decoded and checked
   * @param in the payload, at the first sub-filter's first byte
   * @param maxPageBytes the largest array a sub-filter may use
   * @return the chain
   * @throws IOException if the payload or the file ends first
   */
  static SubFilterChain read(DumpHeader header, PayloadInput in, int maxPageBytes) throws IOException {
    SubFilter[] subFilters = new SubFilter[header.numFilters()];
    for (int i = 0; i < subFilters.length; i++) {
      subFilters[i] = SubFilter.read(buckets(header, i), header.bucketSize(), maxPageBytes, in, i);
    }
    return new SubFilterChain(header, subFilters, maxPageBytes);
  }

  /** A chain shaped as a checked header says, every slot empty and the counters as given. */
  static SubFilterChain shapedAs(DumpHeader header, int maxPageBytes) {
    return shapedAs(header, maxPageBytes, true);
  }

  /**
   * A chain shaped as a checked header says, with the counters as given, and its tables either
   * allocated, every slot empty, or (unless {@code allocate}) left for {@link SubFilter#fill} to
   * allocate as their bytes arrive; fill those in order, then call {@link #checkItems}.
   */
  static SubFilterChain shapedAs(DumpHeader header, int maxPageBytes, boolean allocate) {
    SubFilter[] subFilters = new SubFilter[header.numFilters()];
    for (int i = 0; i < subFilters.length; i++) {
      subFilters[i] = new SubFilter(buckets(header, i), header.bucketSize(), maxPageBytes, allocate);
    }
    return new SubFilterChain(header, subFilters, maxPageBytes);
  }

  /** @return the buckets of sub-filter {@code index} of the chain a checked header describes */
  private static long buckets(DumpHeader header, int index) {
    return index == 0
        ? header.numBuckets()
        : SubFilterChain.bucketsOf(header.numBuckets(), header.expansion(), header.bucketSize(), index);
  }

  /**
   * Checks, after loading, that numItems is the number of fingerprints the bytes hold, as it is
   * in every filter RedisBloom builds.
   *
   * @throws CorruptFilterException if it is not
   */
  static void checkItems(SubFilterChain chain) throws CorruptFilterException {
    long stored = 0;
    for (int i = 0; i < chain.subFilterCount(); i++) {
      stored += chain.subFilter(i).occupied();
    }
    if (stored != chain.items()) {
      throw new CorruptFilterException(
          "RedisBloom cuckoo filter header has numItems " + chain.items() + " but its sub-filters hold "
              + stored + " fingerprints");
    }
  }
}
