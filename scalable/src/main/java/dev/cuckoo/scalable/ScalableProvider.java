package dev.cuckoo.scalable;

import com.google.auto.service.AutoService;
import dev.cuckoo.Concurrency;
import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.ConfigValues;
import dev.cuckoo.spi.FilterProvider;
import dev.cuckoo.spi.PayloadInput;
import dev.cuckoo.spi.SpecSchema;
import java.io.IOException;

/**
 * Installs variant {@code scalable}, {@link ScalableCuckooFilter}. Its keys are those of {@code
 * CF.RESERVE key capacity BUCKETSIZE b MAXITERATIONS m EXPANSION e}, with RedisBloom's ranges
 * and defaults:
 *
 * <table>
 *   <caption>keys of variant scalable</caption>
 *   <tr><th>key</th><th>allowed</th><th>default</th></tr>
 *   <tr><td>{@code capacity}</td><td>{@code 2*bucketSize .. 2^30}</td><td>(required)</td></tr>
 *   <tr><td>{@code bucketSize}</td><td>1..255</td><td>2</td></tr>
 *   <tr><td>{@code maxKicks} (MAXITERATIONS)</td><td>1..65535</td><td>20</td></tr>
 *   <tr><td>{@code expansion}</td><td>0..32768, rounded up to a power of two; 0 never grows</td><td>1</td></tr>
 *   <tr><td>{@code fingerprintBits}</td><td>8 only (a {@code targetFpp} must map to 8)</td><td>8</td></tr>
 *   <tr><td>{@code hash}, {@code seed}</td><td>any installed hash</td><td>{@code murmur64a}, 0 (RedisBloom's)</td></tr>
 *   <tr><td>{@code concurrency}</td><td>{@code none}, {@code locked} (one read-write lock: writers one at a time, lookups together), {@code threadsafe} (the same as {@code locked})</td><td>{@code none}</td></tr>
 * </table>
 *
 * <p>The first sub-filter has {@code nextPowerOfTwo(capacity / bucketSize)} buckets. A bad value
 * is rejected with an {@link IllegalArgumentException} naming the key, the value, the variant and
 * what is allowed. The resolved spec holds the rounded expansion. {@link ScalableCuckooFilter}
 * says what {@code concurrency=locked} promises.
 */
@AutoService(FilterProvider.class)
// @AutoService is a compile-time annotation (requires static): readers of this exported class
// never need its module, which is what javac's 'exports' lint warns about.
@SuppressWarnings("exports")
public final class ScalableProvider implements FilterProvider {
  /** The variant's name. */
  public static final String NAME = "scalable";

  /** The variant option that sets the growth factor. */
  public static final String EXPANSION = "expansion";

  /** The largest capacity RedisBloom's CF.RESERVE accepts: 2^30. */
  static final long MAX_CAPACITY = 1L << 30;

  private static final SpecSchema SCHEMA =
      SpecSchema.builder(NAME)
          .capacity(2, MAX_CAPACITY)
          .fingerprintBits(8, 8, 8)
          .bucketSizeRange(1, 255, 2)
          .maxKicks(1, 65535, 20)
          .defaultHash("murmur64a")
          .wholeOption(EXPANSION, 0, 32768, 1)
          .threadSafeMode(Concurrency.LOCKED)
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public ScalableProvider() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "RedisBloom's cuckoo filter (Redis CF.*): a growing chain of 8-bit sub-filters,"
        + " byte-compatible with CF.SCANDUMP/CF.LOADCHUNK";
  }

  @Override
  public SpecSchema schema() {
    return SCHEMA;
  }

  /**
   * RedisBloom's defaults (buckets of 2, growing by 1) and buckets of 4, which pack the same
   * 8-bit fingerprints more densely.
   */
  @Override
  public java.util.List<String> representativeConfigs() {
    return java.util.List.of(NAME, NAME + "?bucketSize=4");
  }

  /**
   * Applies the schema, then the rules between keys: {@code capacity} at least {@code
   * 2*bucketSize} (RedisBloom's "Capacity must be at least (BucketSize * 2)"), and {@code
   * expansion} rounded up to a power of two (1 stays 1, 3 becomes 4, 0 stays 0), as RedisBloom
   * stores it.
   *
   * @throws IllegalArgumentException naming the key, the value, the variant and what is allowed
   */
  @Override
  public FilterSpec validate(FilterSpec spec) {
    FilterSpec resolved = SCHEMA.resolve(spec);
    int bucketSize = resolved.bucketSize().getAsInt();
    long capacity = resolved.capacity().getAsLong();
    if (capacity < 2L * bucketSize) {
      throw ConfigValues.outOfRange(FilterSpec.CAPACITY, capacity, NAME,
          2L * bucketSize + ".." + MAX_CAPACITY + " (at least 2*bucketSize, with bucketSize=" + bucketSize + ")");
    }
    int expansion = Integer.parseInt(resolved.option(EXPANSION).orElseThrow());
    int rounded = expansion <= 1 ? expansion : Integer.highestOneBit(expansion - 1) << 1;
    return rounded == expansion
        ? resolved
        : resolved.toBuilder().option(EXPANSION, Integer.toString(rounded)).build();
  }

  @Override
  public CuckooFilter create(FilterSpec resolved) {
    return new ScalableCuckooFilter(resolved, newChain(resolved, SubFilterChain.DEFAULT_MAX_PAGE_BYTES));
  }

  /**
   * Reads the payload {@link ScalableCuckooFilter} writes: RedisBloom's 38-byte header, checked
   * as {@link RedisBloomDump#load} checks it and against the spec, then the sub-filters' bytes,
   * whose length is checked against the payload before anything is allocated, and whose tables
   * grow only as their bytes arrive (the declared payload length is itself only a claim).
   */
  @Override
  public CuckooFilter read(FilterSpec resolved, PayloadInput payload) throws IOException {
    payload.requireRemaining(DumpHeader.BYTES, "a RedisBloom cuckoo filter header");
    byte[] bytes = new byte[DumpHeader.BYTES];
    payload.readFully(bytes);
    DumpHeader header = DumpHeader.decode(bytes);
    long buckets = initialBuckets(resolved);
    int expansion = Integer.parseInt(resolved.option(EXPANSION).orElseThrow());
    if (header.numBuckets() != buckets
        || header.bucketSize() != resolved.bucketSize().getAsInt()
        || header.maxIterations() != resolved.maxKicks().getAsInt()
        || header.expansion() != expansion) {
      throw new CorruptFilterException(
          "payload of variant " + NAME + " has a header (" + header + ") that does not match its spec "
              + resolved + " (" + buckets + " buckets, expansion " + expansion + ")");
    }
    long data = header.dataBytes();
    payload.requireRemaining(data, header.numFilters() + " sub-filters");
    SubFilterChain chain = ChainDump.read(header, payload, SubFilterChain.DEFAULT_MAX_PAGE_BYTES);
    ChainDump.checkItems(chain);
    return new ScalableCuckooFilter(resolved, chain);
  }

  static SubFilterChain newChain(FilterSpec resolved, int maxPageBytes) {
    return new SubFilterChain(initialBuckets(resolved), resolved.bucketSize().getAsInt(),
        resolved.maxKicks().getAsInt(), Integer.parseInt(resolved.option(EXPANSION).orElseThrow()),
        maxPageBytes);
  }

  /** @return RedisBloom's first sub-filter size: nextPowerOfTwo(capacity / bucketSize), at least 1 */
  static long initialBuckets(FilterSpec resolved) {
    return nextPowerOfTwo(resolved.capacity().getAsLong() / resolved.bucketSize().getAsInt());
  }

  /**
   * The capacity to put in the spec of a filter loaded from a dump, which records only the first
   * sub-filter's buckets: its slots, or 2^30 if that is more (which still gives the same number
   * of buckets).
   *
   * @return the capacity, or -1 if no capacity CF.RESERVE accepts gives that many buckets
   */
  static long capacityFor(long numBuckets, int bucketSize) {
    long capacity = numBuckets > MAX_CAPACITY ? MAX_CAPACITY : Math.min(numBuckets * bucketSize, MAX_CAPACITY);
    boolean fits = capacity >= 2L * bucketSize && nextPowerOfTwo(capacity / bucketSize) == numBuckets;
    return fits ? capacity : -1;
  }

  private static long nextPowerOfTwo(long n) {
    return n <= 1 ? 1 : Long.highestOneBit(n - 1) << 1;
  }
}
