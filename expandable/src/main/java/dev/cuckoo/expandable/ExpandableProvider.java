package dev.cuckoo.expandable;

import com.google.auto.service.AutoService;
import dev.cuckoo.Concurrency;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.ConfigValues;
import dev.cuckoo.spi.FilterProvider;
import dev.cuckoo.spi.PayloadInput;
import dev.cuckoo.spi.SpecSchema;
import java.io.IOException;
import java.util.OptionalLong;
import java.util.List;

/**
 * Variant {@code expandable}: a cuckoo filter in one table that doubles as keys arrive, for as
 * long as the heap has room, with lookups as fast as a presized filter's. Create one with
 * {@code CuckooFilters.create("expandable?targetFpp=0.001")}; this provider is what {@link
 * java.util.ServiceLoader} finds.
 *
 * <p>Settings: {@code capacity} is where it starts (default 4096: the first table takes that
 * many keys before it doubles); {@code targetFpp} is the false-positive rate it holds at every
 * size, its lanes widening from 16 bits as it grows (buckets of 4 only), or {@code
 * fingerprintBits} fixes the lane width, 16 (the default when neither is given) or 32, with a
 * rate that rises a little with each doubling; {@code expectedKeys}, with a {@code targetFpp},
 * is how far the filter is expected to grow, if known: it spends the rate on the sizes up to
 * there, for narrower lanes, and past it widens lanes a bit a doubling to hold the rate still;
 * {@code bucketSize} 4 (default) or 8; any installed {@code
 * hash} (default {@code xxh3}) with its {@code seed}; {@code maxKicks} 0..100000 (default 500);
 * and {@code concurrency} {@code none} (default), {@code locked} or {@code threadsafe} (which is
 * {@code locked} here). 16-bit lanes in buckets of 4 take a faster lookup.
 *
 * <p>What a filter promises beyond {@link CuckooFilter}:
 * <ul>
 *   <li>it takes any number of distinct keys: its table of {@code 2^k} buckets doubles when its
 *       entries reach 93% of the slots (96% with buckets of 8), or when a key finds no room
 *       with the stash full once they are past 55% of that. An add that doubles the table
 *       holds the filter for one pass over it, and no add doubles it twice. An add is refused
 *       (returning {@code false}, losing nothing) only when the old and the doubled table
 *       together would exceed the heap's maximum or one array ({@code 2^30} buckets of 16-bit
 *       lanes in buckets of 4), or when copies of one key fill both its buckets and the stash,
 *       which no size cures;
 *   <li>no false negatives across doublings, removals and files: {@code remove} of any added
 *       key, added before or after any number of doublings, takes one copy of it, and {@code
 *       size()} stays exact;
 *   <li>a lookup reads two buckets, whatever the size (and, with a {@code targetFpp}, a lane's
 *       low bits only where its first 16 match);
 *   <li>with a {@code targetFpp}, the false-positive rate stays at or below it at every size
 *       up to {@code 2^32} keys (at most 90% of it by the bound the lanes are sized for; past
 *       {@code expectedKeys}, if given, for as long as lanes can widen, to 32 bits); with a
 *       fixed lane width it grows slowly as the filter does (each doubling's keys bring their
 *       own), about {@code 2·b·α/2^(w-1)} a doubling, {@code α} the load a doubling's keys add
 *       (about 0.46), with {@code w}-bit lanes: 0.011% a doubling with 16-bit lanes in buckets
 *       of 4 (0.148% at 16.7M keys grown from 4,096); {@link CuckooFilter#expectedFpp()} says
 *       where it is now;
 *   <li>the table is a power of two of buckets, as doubling needs, and is not rounded further;
 *       {@code capacity()} is the configured capacity while the first table is in use (which
 *       takes a few more before it doubles), then what it takes before it doubles next; {@code
 *       slots()} is its slots and the stash's, {@code sizeInBytes()} the table and the stash.
 * </ul>
 *
 * <p>Thread safety: with {@code concurrency=none} a filter is not thread-safe. With {@code
 * concurrency=locked} (written in its file, so a filter read back is locked again) every
 * operation may be called from any number of threads: writers, doublings included, hold one
 * lock in turn, and lookups take no lock: they check afterwards that no writer ran meanwhile and
 * retry under the lock if one did. {@code writeTo} writes a consistent snapshot.
 */
@AutoService(FilterProvider.class)
public final class ExpandableProvider implements FilterProvider {
  /** The variant's name. */
  public static final String NAME = "expandable";
  /** The option naming how many keys a filter is expected to reach. */
  public static final String EXPECTED_KEYS = "expectedKeys";
  /** The capacity a filter starts with when none is given. */
  static final long DEFAULT_CAPACITY = 4096;

  private static final int[] LANE_BITS = {16, 32};
  private static final int[] BUCKET_SIZES = {4, 8};

  /**
   * The schema, in a class of its own so that it is built at its first use: its capacity bound
   * loads and runs the table's classes, milliseconds in a fresh JVM, which ServiceLoader, making
   * every installed provider to learn its name, would otherwise cost whichever variant a process
   * uses.
   */
  private static final class Schema {
    static final SpecSchema SCHEMA =
        SpecSchema.builder(NAME)
            .capacity(1, largestCapacity(), DEFAULT_CAPACITY)
            .fingerprintWidths(16, LANE_BITS)
            .bucketSizes(4, BUCKET_SIZES)
            .maxKicks(0, 100_000, 500)
            .defaultHash("xxh3")
            .threadSafeMode(Concurrency.LOCKED)
            .keepsTargetFpp()
            .hintOption(EXPECTED_KEYS, 1, 1L << 40)
            .build();
  }

  /** Called by {@link java.util.ServiceLoader}. */
  public ExpandableProvider() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "one table that doubles as keys arrive, without bound: lanes that widen to hold a targetFpp at"
        + " every size, or of 16 or 32 bits with a rate that grows slowly with each doubling";
  }

  @Override
  public SpecSchema schema() {
    return Schema.SCHEMA;
  }

  /**
   * A flat 0.1%, and 16-bit lanes in buckets of 4 (the fast lookup, at about 0.02% to 0.2%
   * false positives).
   */
  @Override
  public List<String> representativeConfigs() {
    return List.of(NAME + "?targetFpp=0.001", NAME + "?fingerprintBits=16");
  }

  /**
   * Applies the schema (which takes a {@code targetFpp} to the narrowest lane wide enough), then
   * checks that the first table fits in one array.
   *
   * @throws IllegalArgumentException naming the key, the value and what is allowed
   */
  @Override
  public FilterSpec validate(FilterSpec spec) {
    FilterSpec resolved = Schema.SCHEMA.resolve(spec);
    int slots = resolved.bucketSize().getAsInt();
    long capacity = resolved.capacity().getAsLong();
    boolean flat = resolved.targetFpp().isPresent();
    if (!flat && resolved.option(EXPECTED_KEYS).isPresent()) {
      throw new IllegalArgumentException(EXPECTED_KEYS + " is a hint for the lanes of a filter that holds a "
          + FilterSpec.TARGET_FPP + ": give " + FilterSpec.TARGET_FPP + " rather than " + FilterSpec.FINGERPRINT_BITS
          + ", or leave " + EXPECTED_KEYS + " out");
    }
    if (flat && slots != 4) {
      throw ConfigValues.outOfRange(FilterSpec.BUCKET_SIZE, slots, NAME, "4 with " + FilterSpec.TARGET_FPP
          + " (lanes that widen keep their first 16 bits in one long a bucket); give " + FilterSpec.FINGERPRINT_BITS
          + "=16 or 32 for buckets of 8");
    }
    int head = ExpandableFilter.headBits(resolved);
    int startK = ExpandableFilter.startK(resolved);
    int ext = flat ? ExpandableFilter.schedule(resolved).extBits(startK) : 0; // refuses a rate it cannot hold
    long max = ExpandableFilter.growAt(slots, LaneTable.maxK(head, ext, slots));
    if (capacity > max) {
      throw ConfigValues.outOfRange(FilterSpec.CAPACITY, capacity, NAME,
          "1.." + max + (flat ? " with " + FilterSpec.TARGET_FPP + "=" + resolved.targetFpp().getAsDouble()
              : " with " + FilterSpec.FINGERPRINT_BITS + "=" + head) + " and " + FilterSpec.BUCKET_SIZE + "="
              + slots + " (the first table is one array of at most " + LaneTable.MAX_WORDS + " longs)");
    }
    return resolved;
  }

  /**
   * @param resolved a resolved spec
   * @return the keys it is expected to reach, or 0 if it does not say
   */
  static long expectedKeys(FilterSpec resolved) {
    return resolved.option(EXPECTED_KEYS).map(Long::parseLong).orElse(0L);
  }

  /** @return the largest starting capacity of a filter of this shape */
  static long maxCapacity(int laneBits, int slots) {
    return ExpandableFilter.growAt(slots, LaneTable.maxK(laneBits, slots));
  }

  private static long largestCapacity() {
    long max = 1;
    for (int bits : LANE_BITS) {
      for (int slots : BUCKET_SIZES) {
        max = Math.max(max, maxCapacity(bits, slots));
      }
    }
    return max;
  }

  /** {@inheritDoc} The words of the table {@link #create} allocates (its small stash aside). */
  @Override
  public OptionalLong memoryToCreate(FilterSpec resolved) {
    return OptionalLong.of(ExpandableFilter.tableBytes(resolved));
  }

  @Override
  public CuckooFilter create(FilterSpec resolved) {
    return ExpandableFilter.of(resolved);
  }

  /** Reads the payload {@link ExpandablePayload} describes. */
  @Override
  public CuckooFilter read(FilterSpec resolved, PayloadInput payload) throws IOException {
    return ExpandablePayload.read(resolved, payload);
  }
}
