package dev.cuckoo.semisorted;

import com.google.auto.service.AutoService;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.engine.BitStringTable;
import dev.cuckoo.engine.CuckooSizing;
import dev.cuckoo.engine.TableFilter;
import dev.cuckoo.engine.TableProvider;
import dev.cuckoo.engine.TableWords;
import dev.cuckoo.spi.ConfigValues;
import dev.cuckoo.spi.FilterProvider;
import dev.cuckoo.spi.SpecSchema;
import java.util.List;

/**
 * Variant {@code semi-sorted}: the cuckoo filter of Fan et al. (CoNEXT 2014) with semi-sorted
 * buckets, which store four {@code f}-bit fingerprints in {@code 4f - 4} bits: the headline
 * shape keeps 16-bit fingerprints (a false-positive rate of at most {@code 8/2^16}) in 15 bits
 * each. Create one with {@code CuckooFilters.create("semi-sorted?capacity=1000000")}; this
 * provider is what {@link java.util.ServiceLoader} finds.
 *
 * <p>Settings: {@code fingerprintBits} 5..32 (default 16, or derived from {@code targetFpp} as
 * the smallest {@code f} with {@code 8/2^f <= targetFpp}), {@code bucketSize} 4 only (the
 * encoding is of four fingerprints; any other value is rejected), any installed {@code hash}
 * (default {@code xxh3}) with its {@code seed}, {@code maxKicks} 0..100000 (default 2000), and
 * {@code concurrency} {@code none} (default), {@code striped} or {@code threadsafe} (which is
 * {@code striped} here), and {@code shards} 1..2^20 (default 1), as for {@code classic}: a table
 * in shards built apart and joined ({@link dev.cuckoo.CuckooFilters#createShard}); and {@code
 * durability} {@code process} (default) or {@code machine} for a filter in a file, as for {@code
 * classic}.
 *
 * <p>What a filter promises beyond {@link dev.cuckoo.CuckooFilter}:
 * <ul>
 *   <li>built for capacity {@code N} (and {@code maxKicks >= 2000}), it takes {@code N} distinct
 *       keys without refusing one, in a table of about {@code N·(f - 1) / 0.965} bits and at
 *       most {@code (f - 1) / 0.95} bits per key in all from 20,000 keys up; filled on, it
 *       refuses its first key at a load of about 0.97;
 *   <li>a false-positive rate of at most {@code 8/2^f}, the same as a classic filter with the
 *       same fingerprints and buckets of 4: semi-sorting loses no information;
 *   <li>the table is not rounded to a power of two and may hold more than 2^31 slots; on the
 *       heap it is one {@code long[]}, which bounds the capacity (about 4·10^9 keys with 16-bit
 *       fingerprints). In a file ({@code CuckooFilters.createFile}, {@code open}) it may be as
 *       large as the file system allows; {@code create} and {@code read} refuse a filter larger
 *       than the heap's bound, naming them;
 *   <li>a refused add changes nothing; a few keys that no arrangement of the table can hold
 *       wait in a stash of 8 slots, which lookups, counts and removes also search; the same key
 *       can be added 8 times (both its buckets full) before the stash is needed;
 *   <li>{@code capacity()} is the configured capacity; {@code slots()} counts the table's slots
 *       and the stash's; {@code sizeInBytes()} the table, the stash and a small table of
 *       precomputed alternate-bucket offsets.
 * </ul>
 *
 * <p>Thread safety: with {@code concurrency=none} a filter is not thread-safe. With {@code
 * concurrency=striped} (written in its file, so a filter read back is striped again) every
 * operation may be called from any number of threads: lookups and counts take no lock (they
 * read under per-stripe version counters and retry when a writer changed what they read), a
 * writer locks the stripes of the key's two buckets, {@code addIfAbsent} checks and inserts
 * under those locks, {@code writeTo} writes a consistent snapshot, and {@code size()} is exact
 * whenever no writer is running. A lookup that begins after an add returned finds the key
 * (the engine's striped fingerprint store, see the guide's operations chapter).
 */
@AutoService(FilterProvider.class)
public final class SemiSortedProvider extends TableProvider {
  /** The variant's name. */
  public static final String NAME = "semi-sorted";

  /**
   * The largest capacity, that of 5-bit fingerprints in a file: what {@code
   * maxMappedCapacity(SemiSortedTable.MIN_BITS)} finds, written out (a test checks that they
   * agree) because its search over table sizes, weighing the overflow risk of short fingerprints
   * at each step, took a process's first open milliseconds in the interpreter.
   */
  static final long LARGEST_CAPACITY = 134_601_951_086_047_016L;

  /**
   * The schema, in a class of its own so that it is built at its first use, not when
   * ServiceLoader makes every installed provider to learn its name, whichever variant a process
   * uses.
   */
  private static final class Schema {
    static final SpecSchema SCHEMA = withTableKeys(SpecSchema.builder(NAME)
        .capacity(1, LARGEST_CAPACITY)
        .fingerprintBits(SemiSortedTable.MIN_BITS, SemiSortedTable.MAX_BITS, 16)
        .bucketSizes(SemiSortedTable.SLOTS, SemiSortedTable.SLOTS))
        .build();
  }

  /** Called by {@link java.util.ServiceLoader}. */
  public SemiSortedProvider() {
    super(NAME, "cuckoo filter with semi-sorted buckets of 4: f-bit fingerprints in f-1 bits each, f of 5..32");
  }

  @Override
  public SpecSchema schema() {
    return Schema.SCHEMA;
  }

  /**
   * The paper's 13-bit fingerprints (48-bit buckets) and the headline 16-bit ones (60-bit
   * buckets).
   */
  @Override
  public List<String> representativeConfigs() {
    return List.of(NAME + "?fingerprintBits=13", NAME + "?fingerprintBits=16");
  }

  /**
   * Rejects any bucket size but 4 with the reason, applies the schema, then checks that the
   * table of that capacity and width fits in a file ({@link CuckooSizing#MAX_MAPPED_WORDS}).
   * Whether it also fits on the heap, in one array, is checked where a filter is made on the
   * heap: {@link #create} and {@link #read} refuse a larger one, naming {@code
   * CuckooFilters.createFile} and {@code open}.
   *
   * @throws IllegalArgumentException naming the key, the value and what is allowed
   */
  @Override
  public FilterSpec validate(FilterSpec spec) {
    if (spec.variant().equals(NAME) && spec.bucketSize().isPresent()
        && spec.bucketSize().getAsInt() != SemiSortedTable.SLOTS) {
      throw ConfigValues.outOfRange(FilterSpec.BUCKET_SIZE, spec.bucketSize().getAsInt(), NAME,
          SemiSortedTable.SLOTS + " (semi-sorting encodes buckets of exactly four fingerprints)");
    }
    return requireMappedTable(Schema.SCHEMA.resolve(spec));
  }

  /**
   * The largest capacity of a filter with this width on the heap: its table must fit in one
   * Java array.
   *
   * @param fingerprintBits 5..32
   * @return the largest capacity allowed
   */
  static long maxCapacity(int fingerprintBits) {
    return maxCapacity(fingerprintBits, SemiSortedTable.MAX_WORDS);
  }

  /**
   * The largest capacity of a filter with this width in a file ({@code CuckooFilters.createFile}).
   *
   * @param fingerprintBits 5..32
   * @return the largest capacity allowed
   */
  static long maxMappedCapacity(int fingerprintBits) {
    return maxCapacity(fingerprintBits, CuckooSizing.MAX_MAPPED_WORDS);
  }

  private static long maxCapacity(int fingerprintBits, long maxWords) {
    return CuckooSizing.maxCapacity(SemiSortedTable.SLOTS, fingerprintBits, SemiSortedTable.bucketBits(fingerprintBits),
        maxWords);
  }

  @Override
  protected long newBucketCount(FilterSpec resolved) {
    return CuckooSizing.bucketCount(resolved.capacity().getAsLong(), SemiSortedTable.SLOTS,
        resolved.fingerprintBits().getAsInt(), CuckooSizing.shardsOf(resolved));
  }

  /** {@inheritDoc} {@link SemiSortedTable#payloadWords}: buckets of {@code 4f - 4} bits, packed. */
  @Override
  protected long payloadWords(FilterSpec resolved, long buckets) {
    return SemiSortedTable.payloadWords(buckets, resolved.fingerprintBits().getAsInt());
  }

  /** {@inheritDoc} {@code 4f - 4}: four fingerprints, semi-sorted. */
  @Override
  protected long bucketBits(FilterSpec resolved) {
    return SemiSortedTable.bucketBits(resolved.fingerprintBits().getAsInt());
  }

  @Override
  protected String shape(FilterSpec resolved) {
    return FilterSpec.FINGERPRINT_BITS + "=" + resolved.fingerprintBits().getAsInt();
  }

  @Override
  protected BitStringTable wrap(FilterSpec resolved, long buckets, TableWords words) {
    return SemiSortedTable.of(buckets, resolved.fingerprintBits().getAsInt(), words);
  }

  @Override
  protected TableFilter lookups(TableFilter.Parts parts) {
    return SemiSortedFilter.of(parts);
  }
}
