package dev.cuckoo.classic;

import com.google.auto.service.AutoService;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.engine.BitStringTable;
import dev.cuckoo.engine.CuckooSizing;
import dev.cuckoo.engine.TableFilter;
import dev.cuckoo.engine.TableProvider;
import dev.cuckoo.engine.TableWords;
import dev.cuckoo.spi.FilterProvider;
import dev.cuckoo.spi.SpecSchema;

/**
 * Variant {@code classic}: the cuckoo filter of Fan et al. (CoNEXT 2014), partial-key cuckoo
 * hashing with two candidate buckets. Create one with {@code
 * CuckooFilters.create("classic?capacity=1000000")}; this provider is what {@link
 * java.util.ServiceLoader} finds.
 *
 * <p>Settings: {@code fingerprintBits} 4..32 (default 12, or derived from {@code targetFpp} as
 * the smallest {@code f} with {@code 2b/2^f <= targetFpp}), {@code bucketSize} 1, 2, 4 or 8
 * (default 4), any installed {@code hash} (default {@code xxh3}) with its {@code seed}, and
 * {@code maxKicks} 0..100000 (default 2000), and {@code concurrency} {@code none} (default),
 * {@code striped} or {@code threadsafe} (which is {@code striped} here), and {@code shards}
 * 1..2^20 (default 1): a table split into shards that keep both buckets of their keys, so that
 * shards can be built apart and joined ({@link dev.cuckoo.CuckooFilters#createShard}), each sized
 * with slack for its share of the keys (the guide's file-format chapter), and {@code durability}
 * {@code process} (default) or {@code machine} for a filter in a file (what a crash may take
 * from it: the guide's mapped-files chapter, "What force promises"). Every shape is
 * supported; 8- and 16-bit fingerprints in buckets of 4 take a faster path (a sharded table
 * takes the generic one).
 *
 * <p>What a filter promises beyond {@link dev.cuckoo.CuckooFilter}:
 * <ul>
 *   <li>built for capacity {@code N} (and {@code maxKicks >= 2000}), it takes {@code N} distinct
 *       keys without refusing one, in a table of about {@code N·f / load} bits (load 0.48,
 *       0.82, 0.965, 0.96 for {@code b} = 1, 2, 4, 8), or more where fingerprints are too
 *       short for {@code N} keys ({@link dev.cuckoo.engine.CuckooSizing}), and refused where a
 *       wider fingerprint would take less than half as many bits (4-bit fingerprints in buckets
 *       of 1 for more than about 4,000 keys, say: the message names the width to use); with buckets of 4
 *       and {@code f >= 8}, at most {@code f / 0.95} bits per key in all from 20,000 keys up;
 *   <li>the table is not rounded to a power of two and may hold more than 2^31 slots; on the
 *       heap it is one {@code long[]}, which bounds the capacity: from about 3·10^10 keys with
 *       4-bit fingerprints to about 2·10^9 with 32-bit ones. In a file ({@code
 *       CuckooFilters.createFile}, {@code open}) it may be as large as the file system allows;
 *       {@code create} and {@code read} refuse a filter larger than the heap's bound, naming them;
 *   <li>a refused add changes nothing; a few keys that no arrangement of the table can hold
 *       wait in a stash of 8 slots, which lookups, counts and removes also search;
 *   <li>{@code capacity()} is the configured capacity; {@code slots()} counts the table's slots
 *       and the stash's; {@code sizeInBytes()} the table, the stash and a small table of
 *       precomputed alternate-bucket offsets.
 * </ul>
 *
 * <p>Thread safety: with {@code concurrency=none} a filter is not thread-safe. With {@code
 * concurrency=striped} (written in its file, so a filter read back is striped again) every
 * operation may be called from any number of threads: lookups and counts take no lock (a miss
 * is checked against a counter of fingerprint moves, counts against per-stripe version counters,
 * and either retries when a writer may have changed what it read), a
 * writer locks the stripes of the key's two buckets, {@code addIfAbsent} checks and inserts
 * under those locks, {@code writeTo} writes a consistent snapshot, and {@code size()} is exact
 * whenever no writer is running. A lookup that begins after an add returned finds the key
 * (the engine's striped fingerprint store, see the guide's operations chapter).
 */
@AutoService(FilterProvider.class)
public final class ClassicProvider extends TableProvider {
  /** The variant's name. */
  public static final String NAME = "classic";

  private static final int MIN_BITS = 4;
  static final int MAX_BITS = 32;
  private static final int[] BUCKET_SIZES = {1, 2, 4, 8};

  /**
   * The largest capacity of any shape, that of 4-bit fingerprints in buckets of 8 in a file: what
   * {@link #largestCapacity} finds, written out (a test checks that they agree) because its four
   * searches over table sizes, weighing the overflow risk of short fingerprints at each step,
   * took a process's first open milliseconds in the interpreter.
   */
  static final long LARGEST_CAPACITY = 641_771_209_450_008_511L;

  /**
   * The schema, in a class of its own so that it is built at its first use, not when
   * ServiceLoader makes every installed provider to learn its name, whichever variant a process
   * uses.
   */
  private static final class Schema {
    static final SpecSchema SCHEMA = withTableKeys(SpecSchema.builder(NAME)
        .capacity(1, LARGEST_CAPACITY)
        .fingerprintBits(MIN_BITS, MAX_BITS, 12)
        .bucketSizes(4, BUCKET_SIZES))
        .build();
  }

  /** Called by {@link java.util.ServiceLoader}. */
  public ClassicProvider() {
    super(NAME, "the paper's cuckoo filter: 2 candidate buckets, fingerprints of 4..32 bits, buckets of 1/2/4/8");
  }

  @Override
  public SpecSchema schema() {
    return Schema.SCHEMA;
  }

  /**
   * Buckets of 4 with 8-, 12- and 16-bit fingerprints: about 3%, 0.2% and 0.01% false
   * positives, the two fast paths and the default width.
   */
  @Override
  public java.util.List<String> representativeConfigs() {
    return java.util.List.of(NAME + "?fingerprintBits=8", NAME + "?fingerprintBits=12", NAME + "?fingerprintBits=16");
  }

  /**
   * Applies the schema, then checks that the table of that capacity, width and bucket size fits
   * in a file ({@link CuckooSizing#MAX_MAPPED_WORDS}). Whether it also fits on the heap, in one
   * array, is checked where a filter is made on the heap: {@link #create} and {@link #read}
   * refuse a larger one, naming {@code CuckooFilters.createFile} and {@code open}.
   *
   * @throws IllegalArgumentException naming the key, the value and what is allowed
   */
  @Override
  public FilterSpec validate(FilterSpec spec) {
    return requireMappedTable(Schema.SCHEMA.resolve(spec));
  }

  /** @return the shape as a refusal names it */
  static String shape(int slots, int bits) {
    return FilterSpec.FINGERPRINT_BITS + "=" + bits + " and " + FilterSpec.BUCKET_SIZE + "=" + slots;
  }

  /**
   * The largest capacity of a filter of this shape on the heap: its table must fit in one Java
   * array.
   *
   * @param bucketSize 1, 2, 4 or 8
   * @param fingerprintBits 4..32
   * @return the largest capacity allowed
   * @throws IllegalArgumentException for a shape this variant does not support
   */
  static long maxCapacity(int bucketSize, int fingerprintBits) {
    return maxCapacity(bucketSize, fingerprintBits, BucketTable.MAX_WORDS);
  }

  /**
   * The largest capacity of a filter of this shape in a file ({@code CuckooFilters.createFile}).
   *
   * @param bucketSize 1, 2, 4 or 8
   * @param fingerprintBits 4..32
   * @return the largest capacity allowed
   * @throws IllegalArgumentException for a shape this variant does not support
   */
  static long maxMappedCapacity(int bucketSize, int fingerprintBits) {
    return maxCapacity(bucketSize, fingerprintBits, CuckooSizing.MAX_MAPPED_WORDS);
  }

  private static long maxCapacity(int bucketSize, int fingerprintBits, long maxWords) {
    if (!isShape(bucketSize, fingerprintBits)) {
      throw new IllegalArgumentException(
          "no classic filter has bucketSize=" + bucketSize + " and fingerprintBits=" + fingerprintBits);
    }
    return CuckooSizing.maxCapacity(bucketSize, fingerprintBits, (long) bucketSize * fingerprintBits, maxWords);
  }

  private static boolean isShape(int bucketSize, int bits) {
    return (bucketSize == 1 || bucketSize == 2 || bucketSize == 4 || bucketSize == 8)
        && bits >= MIN_BITS && bits <= MAX_BITS;
  }

  /** @return the largest capacity of any shape in a file, {@link #LARGEST_CAPACITY} */
  static long largestCapacity() {
    long max = 1;
    for (int slots : BUCKET_SIZES) {
      max = Math.max(max, maxMappedCapacity(slots, MIN_BITS));
    }
    return max;
  }

  @Override
  protected long newBucketCount(FilterSpec resolved) {
    return CuckooSizing.bucketCountForNewTable(resolved.capacity().getAsLong(), resolved.bucketSize().getAsInt(),
        resolved.fingerprintBits().getAsInt(), MAX_BITS, CuckooSizing.shardsOf(resolved));
  }

  /** {@inheritDoc} {@link BucketTable#payloadWords}: the slots' bits, packed. */
  @Override
  protected long payloadWords(FilterSpec resolved, long buckets) {
    return BucketTable.payloadWords(buckets, resolved.bucketSize().getAsInt(), resolved.fingerprintBits().getAsInt());
  }

  /** {@inheritDoc} The slots' bits, packed. */
  @Override
  protected long bucketBits(FilterSpec resolved) {
    return (long) resolved.bucketSize().getAsInt() * resolved.fingerprintBits().getAsInt();
  }

  @Override
  protected String shape(FilterSpec resolved) {
    return shape(resolved.bucketSize().getAsInt(), resolved.fingerprintBits().getAsInt());
  }

  @Override
  protected TableWords newHeapWords(FilterSpec resolved, long length) {
    return BucketTable.newHeapWords(resolved.bucketSize().getAsInt(), resolved.fingerprintBits().getAsInt(), length);
  }

  @Override
  protected BitStringTable wrap(FilterSpec resolved, long buckets, TableWords words) {
    return BucketTable.of(buckets, resolved.bucketSize().getAsInt(), resolved.fingerprintBits().getAsInt(), words);
  }

  @Override
  protected TableFilter lookups(TableFilter.Parts parts) {
    return ClassicFilter.of(parts);
  }
}
