package dev.cuckoo.engine;

import java.util.Locale;

/**
 * How large a table of two-choice buckets must be for a capacity, and the false-positive rate a
 * load predicts. Shared by the variants that size their table freely, so that a given capacity
 * means the same memory and the same guarantee in each.
 *
 * <p>The contract: a table of {@link #bucketCount bucketCount(n, b, f)} buckets of {@code b}
 * slots, with a {@link KickPath} of at least {@link #MIN_KICKS} kicks and a {@link
 * FingerprintStash} of {@link FingerprintStash#DEFAULT_SLOTS} slots, takes {@code n} distinct
 * keys without refusing one (but for a chance sized to stay below 10^-6). Its table takes about
 * {@code n·f / designLoad(b)} bits (with buckets of 4, {@code n·f / 0.965}) whenever the
 * fingerprints are long enough for {@code n} keys (about {@code f >= log2(n)/b}; shorter ones
 * get a larger table, as the notes explain). Bucket sizes 1, 2, 4 and 8 are supported.
 */
public final class CuckooSizing {

  /*
   * Fan et al. [1], section 5.1, measure the load a table of b-slot buckets reaches with two
   * candidate buckets before inserts start failing: about 50%, 84%, 95% and 98% for b = 1, 2, 4
   * and 8 (maxLoad). A table sized for exactly that load would refuse its capacity-th key about
   * half the time, so it is sized for a design load 2 points lower, the spread of the load at
   * the first refusal between tables of thousands to tens of millions of slots.
   *
   * Buckets of 4 are the exception, sized for 96.5%: with the stash and a walk of up to 2000
   * kicks they reach more than [1]'s 95% (whose walk stops at 500). Measured here with 12-bit
   * fingerprints, the lowest load at the first refusal was 97.3% over 500 tables of 10^4 keys
   * and 200 of 10^5, 97.4% at 10^6, 97.4% at 10^7 and 97.2% at 10^8, falling slowly with the
   * table's size (the limit for two choices and buckets of 4 is 97.7%). With the walk cut at
   * 500 kicks the same tables refused from 95.9% at 10^8, so the promise needs the longer walk.
   * Files written before this (payload layout 1) were sized for 93%: legacyBucketCount gives
   * their tables.
   *
   * Short fingerprints need more. A key is stored as a fingerprint in one of a pair of buckets
   * that the first bucket and the fingerprint decide, so the table holds at most 2b keys with
   * the same pair, whatever the kick loop does ([1], section 4, derives from this the minimum
   * fingerprint length). There are P = m(2^f - 1)/2 bucket pairs; n keys put Poisson(n/P) keys
   * on each, and the pairs given more than 2b overflow. Four times that expected number, a
   * factor that covers larger overflowing structures (two pairs sharing a bucket, and so on),
   * matched the stash occupancy measured at capacity for every bucket size with fingerprints of
   * 4 to 8 bits. With b = 1 two more effects dominate near the load of 1/2, where the random
   * graph of buckets (vertices) and keys (edges) approaches its giant component: a component
   * with two cycles cannot be placed, which happens about 1/(m·ε^3) times with ε = 1 - 2·load
   * ([2]; 0.5 covers its constant), and pairs holding two keys close a cycle each, of which a
   * share of about 4.5/(m·ε^2) end up in such a component (fitted to measurements). Each
   * overflow costs one stash slot, so the refusal risk is the chance that a Poisson variable of
   * that mean exceeds the stash; the bucket count grows until the risk is below 10^-6. Usual
   * shapes (f >= 8 with b >= 4, f >= 12 with b = 2, f >= 16 with b = 1, up to 10^9 keys) never
   * grow; 4-bit fingerprints in single-slot buckets grow superlinearly, as they must.
   *
   * The bucket count is rounded up to an even number, never to a power of two: with an even
   * count, PartialKeyHashing.alternateBucket never maps a bucket to itself.
   *
   * A lookup of a key never added compares its fingerprint with the 2b slots of its two buckets,
   * each occupied with probability α (the load), and each stored fingerprint matches with
   * probability q = PartialKeyHashing.matchProbability(f) = 1/(2^f - 1); so the false-positive
   * probability is 1 - (1 - q)^(2bα), at most about 2b/2^f ([1], section 5.1).
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   * [2] R. Kutzelnigg, "Bipartite Random Graphs and Cuckoo Hashing", Fourth Colloquium on
   *     Mathematics and Computer Science, 2006.
   */

  /** The loads of [1] for buckets of 1, 2, 4 and 8 slots, and the loads tables are sized for. */
  private static final double[] MAX_LOADS = {0.50, 0.84, 0.95, 0.98};
  private static final double[] DESIGN_LOADS = {0.48, 0.82, 0.965, 0.96};
  /** The design loads of payload layout 1. */
  private static final double[] LEGACY_DESIGN_LOADS = {0.48, 0.82, 0.93, 0.96};
  /** The longest walk the design loads assume: with buckets of 4, a shorter one may refuse sooner. */
  public static final int MIN_KICKS = 2000;
  /** The most buckets a table may have. */
  private static final long MAX_BUCKETS = 1L << 62;
  /** How many times the bits per key of the cheapest wider fingerprint a new table may take. */
  private static final double MAX_WASTE = 2.0;
  /** The refusal risk a table is sized to stay below, for its capacity in distinct keys. */
  private static final double MAX_OVERFLOW_RISK = 1e-6;
  /** Overflowing structures per overflowing bucket pair (see the notes). */
  private static final double OVERFLOW_STRUCTURES = 4.0;
  /** With b = 1: overflows per pair holding two keys, times m·ε² (see the notes). */
  private static final double DOUBLE_EDGE_OVERFLOWS = 4.5;
  /** With b = 1: overflows of plain cuckoo hashing, times m·ε³ (see the notes). */
  private static final double BICYCLE_OVERFLOWS = 0.5;

  /** The most longs a table on the heap may take: one Java array, which stops a little below 2^31 elements. */
  public static final long MAX_HEAP_WORDS = Integer.MAX_VALUE - 8;
  /**
   * The most longs a table mapped from a file may take: 2^56, so that its
   * bit offsets and its length in bytes fit a long with room to spare. File systems stop well
   * below it; creating a file larger than one allows fails with its {@code IOException}.
   */
  public static final long MAX_MAPPED_WORDS = 1L << 56;

  private CuckooSizing() {}

  /**
   * The load factor at which, by [1], inserts into a table of such buckets start to fail.
   *
   * @param bucketSize slots per bucket: 1, 2, 4 or 8
   * @return about 0.5, 0.84, 0.95 or 0.98
   * @throws IllegalArgumentException for any other bucket size
   */
  public static double maxLoad(int bucketSize) {
    return MAX_LOADS[sizeIndex(bucketSize)];
  }

  /**
   * The load factor a table is sized for: a little below {@link #maxLoad}, so that a table
   * holds its capacity without a refusal.
   *
   * @param bucketSize slots per bucket: 1, 2, 4 or 8
   * @return the design load, below {@code maxLoad(bucketSize)}
   * @throws IllegalArgumentException for any other bucket size
   */
  public static double designLoad(int bucketSize) {
    return DESIGN_LOADS[sizeIndex(bucketSize)];
  }

  /**
   * The design load of payload layout 1 (93% for buckets of 4, the others as {@link
   * #designLoad}), for structures whose files or growth steps were fixed by it.
   *
   * @param bucketSize slots per bucket: 1, 2, 4 or 8
   * @return the design load of layout 1
   * @throws IllegalArgumentException for any other bucket size
   */
  public static double legacyDesignLoad(int bucketSize) {
    return LEGACY_DESIGN_LOADS[sizeIndex(bucketSize)];
  }

  /**
   * The number of buckets a table needs to hold {@code capacity} items with fingerprints of
   * {@code fingerprintBits} bits: {@code capacity / (b · designLoad(b))}, rounded up to an even
   * number (at least 2), and more when fingerprints are too short for that many items (see
   * {@link #overflowRisk}).
   *
   * @param capacity the items the table must hold, at least 1
   * @param bucketSize slots per bucket: 1, 2, 4 or 8
   * @param fingerprintBits the fingerprint width, 1..32
   * @return an even bucket count, at least 2
   * @throws IllegalArgumentException if the capacity is below 1, the bucket size unsupported,
   *     or the table would need more than 2^62 buckets
   */
  public static long bucketCount(long capacity, int bucketSize, int fingerprintBits) {
    return bucketCount(capacity, bucketSize, fingerprintBits, designLoad(bucketSize));
  }

  /**
   * {@link #bucketCount} for a new table, refusing a shape that wastes memory: fingerprints so
   * short for the capacity that the table must grow (see the notes: with 4-bit fingerprints in
   * buckets of 1, a million keys take 109 million slots, 438 bits per key) to more than {@link
   * #MAX_WASTE} times the bits of the cheapest wider fingerprint, which also gives fewer false
   * positives. Such a shape is worse on both counts, so no one wants it, and a library has no
   * channel to warn on: it is refused with the cost and the width to use instead. Short
   * fingerprints that cost a little more (4 bits in buckets of 1 for a few thousand keys) are
   * left alone. Tables already written are read with {@link #bucketCount}, whatever their shape.
   *
   * @param capacity the items the table must hold, at least 1
   * @param bucketSize slots per bucket: 1, 2, 4 or 8
   * @param fingerprintBits the fingerprint width
   * @param maxFingerprintBits the widest fingerprint the variant supports, at most 32
   * @return an even bucket count, at least 2
   * @throws IllegalArgumentException as {@link #bucketCount} does, or for a shape that wastes
   *     memory, naming its bits per key and the fingerprint width to use instead
   */
  public static long bucketCountForNewTable(long capacity, int bucketSize, int fingerprintBits, int maxFingerprintBits) {
    long buckets = bucketCount(capacity, bucketSize, fingerprintBits);
    if (buckets <= bucketsAtLoad(capacity, bucketSize, designLoad(bucketSize))) {
      return buckets; // fingerprints long enough: the table did not grow
    }
    double bitsPerKey = bitsPerKey(buckets, capacity, bucketSize, fingerprintBits);
    int best = fingerprintBits;
    double bestBits = bitsPerKey;
    for (int f = fingerprintBits + 1; f <= maxFingerprintBits; f++) {
      double b = bitsPerKey(bucketCount(capacity, bucketSize, f), capacity, bucketSize, f);
      if (b < bestBits) {
        best = f;
        bestBits = b;
      }
    }
    if (bitsPerKey > MAX_WASTE * bestBits) {
      throw new IllegalArgumentException(String.format(Locale.ROOT,
          "fingerprintBits=%d with bucketSize=%d takes %d slots for capacity=%d, %.1f bits per key, where"
              + " fingerprintBits=%d takes %.1f and gives fewer false positives: fingerprints this short repeat"
              + " too often among that many keys (two buckets hold at most %d keys of one fingerprint, so the"
              + " table must spread the keys thin); use fingerprintBits=%d, or a smaller capacity",
          fingerprintBits, bucketSize, buckets * bucketSize, capacity, bitsPerKey, best, bestBits,
          2 * bucketSize, best));
    }
    return buckets;
  }

  /** @return the even bucket count that holds {@code capacity} items at this load */
  private static long bucketsAtLoad(long capacity, int bucketSize, double load) {
    return even(Math.ceil(capacity / (bucketSize * load)));
  }

  private static double bitsPerKey(long buckets, long capacity, int bucketSize, int fingerprintBits) {
    return (double) buckets * bucketSize * fingerprintBits / capacity;
  }

  /**
   * @param resolved a resolved spec
   * @return its {@code shards} option, 1 where it has none
   */
  public static int shardsOf(dev.cuckoo.FilterSpec resolved) {
    // No method reference: this runs on the way to a process's first lookup (TablePayload.open)
    java.util.Optional<String> shards = resolved.option(dev.cuckoo.FilterSpec.SHARDS);
    return shards.isPresent() ? Integer.parseInt(shards.get()) : 1;
  }

  /** The most shards a table may be split into ({@code shards}, 1..2^20). */
  public static final int MAX_SHARDS = 1 << 20;
  /** A shard's bucket count is a multiple of this, so that every shard's table is whole longs. */
  public static final int SHARD_BUCKET_MULTIPLE = 64;
  /** The standard deviations of a shard's binomial load its table is sized above the mean for. */
  private static final double SHARD_LOAD_DEVIATIONS = 7.0;

  /*
   * A sharded table is S tables of m_s buckets side by side, and a key lies in the shard its hash
   * names (PartialKeyHashing). Of n random keys a shard gets a binomial share, mean n/S and
   * standard deviation below sqrt(n/S); sizing each shard for n/S + 7·sqrt(n/S) keys makes the
   * chance that any of up to 2^20 shards gets more than that below 2^20 · 10^-11. The shard's
   * count is then rounded up to a multiple of 64 buckets, so that with any slot width a shard's
   * table is a whole number of longs and shards can be built apart and joined word by word.
   * The cost: (1 + 7/sqrt(n/S)) times the bits per key, and the rounding: +2.2% at 100,000 keys
   * per shard, +7% at 10,000, +22% at 1,000.
   */

  /**
   * The buckets of each shard of a table of {@code shards} shards sized for {@code capacity}
   * keys in all: {@link #bucketCount} for one shard's share and its slack, rounded up to a
   * multiple of {@link #SHARD_BUCKET_MULTIPLE}; for one shard, {@link #bucketCount} itself.
   *
   * @param capacity the keys of the whole table, at least 1
   * @param bucketSize slots per bucket: 1, 2, 4 or 8
   * @param fingerprintBits the fingerprint width, 1..32
   * @param shards the shards, 1..{@link #MAX_SHARDS}
   * @return the buckets of one shard
   * @throws IllegalArgumentException as {@link #bucketCount} does, or for a shard count out of
   *     range
   */
  public static long shardBucketCount(long capacity, int bucketSize, int fingerprintBits, int shards) {
    return shardBucketCount(capacity, bucketSize, fingerprintBits, shards, 0);
  }

  /**
   * The buckets of a whole sharded table: {@code shards · shardBucketCount(...)}; for one shard,
   * {@link #bucketCount}, so that a table of one shard is the table of old.
   *
   * @param capacity the keys of the whole table, at least 1
   * @param bucketSize slots per bucket: 1, 2, 4 or 8
   * @param fingerprintBits the fingerprint width, 1..32
   * @param shards the shards, 1..{@link #MAX_SHARDS}
   * @return an even bucket count, a multiple of {@code shards}
   * @throws IllegalArgumentException as {@link #shardBucketCount} does, or if the table would
   *     need more than 2^62 buckets
   */
  public static long bucketCount(long capacity, int bucketSize, int fingerprintBits, int shards) {
    return wholeTable(shardBucketCount(capacity, bucketSize, fingerprintBits, shards), shards, capacity);
  }

  /**
   * {@link #bucketCount(long, int, int, int)} for a new table, refusing a shape that wastes
   * memory as {@link #bucketCountForNewTable(long, int, int, int)} does (judged per shard).
   *
   * @param capacity the keys of the whole table, at least 1
   * @param bucketSize slots per bucket: 1, 2, 4 or 8
   * @param fingerprintBits the fingerprint width
   * @param maxFingerprintBits the widest fingerprint the variant supports, at most 32
   * @param shards the shards, 1..{@link #MAX_SHARDS}
   * @return the table's bucket count
   * @throws IllegalArgumentException as the two methods named do
   */
  public static long bucketCountForNewTable(long capacity, int bucketSize, int fingerprintBits,
      int maxFingerprintBits, int shards) {
    return wholeTable(shardBucketCount(capacity, bucketSize, fingerprintBits, shards, maxFingerprintBits), shards,
        capacity);
  }

  /** @param maxFingerprintBits 0 to size an existing table, else the new table's widest width */
  private static long shardBucketCount(long capacity, int bucketSize, int fingerprintBits, int shards,
      int maxFingerprintBits) {
    if (shards < 1 || shards > MAX_SHARDS) {
      throw new IllegalArgumentException("shards=" + shards + " is out of range: 1.." + MAX_SHARDS);
    }
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity " + capacity + " is below 1");
    }
    double share = (double) capacity / shards;
    long keys = shards == 1 ? capacity : (long) Math.ceil(share + SHARD_LOAD_DEVIATIONS * Math.sqrt(share));
    long buckets = maxFingerprintBits == 0 ? bucketCount(keys, bucketSize, fingerprintBits)
        : bucketCountForNewTable(keys, bucketSize, fingerprintBits, maxFingerprintBits);
    if (shards == 1) {
      return buckets;
    }
    return (buckets + SHARD_BUCKET_MULTIPLE - 1) / SHARD_BUCKET_MULTIPLE * SHARD_BUCKET_MULTIPLE;
  }

  private static long wholeTable(long shardBuckets, int shards, long capacity) {
    if (shardBuckets > (MAX_BUCKETS - 1) / shards) {
      throw tooLarge(capacity);
    }
    return shardBuckets * shards;
  }

  /**
   * The bucket count {@link #bucketCount} gave before buckets of 4 were sized for 96.5% (93%
   * then; other bucket sizes are unchanged): the tables of files of payload layout 1.
   *
   * @param capacity the items the table must hold, at least 1
   * @param bucketSize slots per bucket: 1, 2, 4 or 8
   * @param fingerprintBits the fingerprint width, 1..32
   * @return an even bucket count, at least 2
   * @throws IllegalArgumentException as {@link #bucketCount} does
   */
  public static long legacyBucketCount(long capacity, int bucketSize, int fingerprintBits) {
    return bucketCount(capacity, bucketSize, fingerprintBits, legacyDesignLoad(bucketSize));
  }

  private static long bucketCount(long capacity, int bucketSize, int fingerprintBits, double designLoad) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity " + capacity + " is below 1");
    }
    long buckets = bucketsAtLoad(capacity, bucketSize, designLoad);
    if (overflowRisk(capacity, buckets, bucketSize, fingerprintBits) <= MAX_OVERFLOW_RISK) {
      return buckets;
    }
    // Short fingerprints: double until the risk is low enough, then bisect (the risk falls as
    // the table grows).
    long low = buckets;
    long high = buckets;
    do {
      low = high;
      if (high > MAX_BUCKETS / 2) {
        throw tooLarge(capacity);
      }
      high *= 2;
    } while (overflowRisk(capacity, high, bucketSize, fingerprintBits) > MAX_OVERFLOW_RISK);
    while (high - low > Math.max(2, low >>> 10)) {
      long mid = even(low + (high - low) / 2.0);
      if (overflowRisk(capacity, mid, bucketSize, fingerprintBits) <= MAX_OVERFLOW_RISK) {
        high = mid;
      } else {
        low = mid;
      }
    }
    return high;
  }

  /**
   * The largest capacity whose table, by {@link #bucketCount}, has at most {@code maxBuckets}
   * buckets: how a variant whose table must fit in one array turns the array's limit into a
   * limit on the capacity.
   *
   * @param bucketSize slots per bucket: 1, 2, 4 or 8
   * @param fingerprintBits the fingerprint width, 1..32
   * @param maxBuckets the most buckets allowed
   * @return the largest such capacity, or 0 if not even a capacity of 1 fits
   * @throws IllegalArgumentException if the bucket size is unsupported
   */
  public static long maxCapacity(int bucketSize, int fingerprintBits, long maxBuckets) {
    sizeIndex(bucketSize);
    // bucketCount grows with the capacity and exceeds capacity / bucketSize: search below that.
    long lo = 0;
    long hi = Math.min(Math.max(maxBuckets, 0), MAX_BUCKETS / 8) * bucketSize;
    while (lo < hi) {
      long mid = lo + (hi - lo + 1) / 2;
      if (fits(mid, bucketSize, fingerprintBits, maxBuckets)) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /**
   * The largest capacity whose table, its buckets of {@code bucketBits} bits packed back to back,
   * takes at most {@code maxWords} longs with the heap's padding word: {@link #maxCapacity(int,
   * int, long)} of the buckets that many words hold.
   *
   * @param bucketSize slots per bucket: 1, 2, 4 or 8
   * @param fingerprintBits the fingerprint width, 1..32
   * @param bucketBits the bits of one bucket
   * @param maxWords the most longs allowed ({@link #MAX_HEAP_WORDS} for one array on the heap,
   *     {@link #MAX_MAPPED_WORDS} in a file)
   * @return the largest such capacity, or 0 if not even a capacity of 1 fits
   * @throws IllegalArgumentException if the bucket size is unsupported
   */
  public static long maxCapacity(int bucketSize, int fingerprintBits, long bucketBits, long maxWords) {
    // allocatedWords = ceil(buckets · bucketBits / 64) + 1 (the heap's padding word) <= maxWords
    return maxCapacity(bucketSize, fingerprintBits, (maxWords - 1) * Long.SIZE / bucketBits);
  }

  private static boolean fits(long capacity, int bucketSize, int fingerprintBits, long maxBuckets) {
    try {
      return bucketCount(capacity, bucketSize, fingerprintBits) <= maxBuckets;
    } catch (IllegalArgumentException tooManyBuckets) {
      return false;
    }
  }

  /**
   * The chance that a table of this shape refuses one of {@code capacity} distinct keys for
   * lack of an arrangement, whatever the kick loop does: that more than {@link
   * FingerprintStash#DEFAULT_SLOTS} keys are left over. An estimate from the model in this
   * class's notes.
   *
   * @param capacity the keys
   * @param bucketCount the table's buckets
   * @param bucketSize slots per bucket
   * @param fingerprintBits the fingerprint width, 1..32
   * @return the risk, between 0 and 1
   */
  public static double overflowRisk(long capacity, long bucketCount, int bucketSize, int fingerprintBits) {
    double pairs = bucketCount * (Math.scalb(1.0, fingerprintBits) - 1.0) / 2.0;
    double perPair = capacity / pairs;
    double overflows = OVERFLOW_STRUCTURES * pairs * poissonTail(perPair, 2 * bucketSize + 1);
    if (bucketSize == 1) {
      double slack = 1.0 - 2.0 * capacity / (double) bucketCount;
      if (slack <= 0) {
        return 1.0;
      }
      double doubleEdges = pairs * poissonTail(perPair, 2);
      overflows += (DOUBLE_EDGE_OVERFLOWS * doubleEdges + BICYCLE_OVERFLOWS / slack) / (bucketCount * slack * slack);
    }
    return poissonTail(overflows, FingerprintStash.DEFAULT_SLOTS + 1);
  }

  /** P(X >= k) for X ~ Poisson(mean). */
  private static double poissonTail(double mean, int k) {
    if (mean <= 0) {
      return 0.0;
    }
    if (mean >= k) {
      // The tail is large: 1 - P(X < k), summed from the bottom without loss.
      double term = Math.exp(-mean);
      double below = 0;
      for (int j = 0; j < k; j++) {
        below += term;
        term *= mean / (j + 1);
      }
      return Math.max(0.0, 1.0 - below);
    }
    // The tail is small: sum its terms from P(X = k) up; they fall at least geometrically.
    double logFactorial = 0;
    for (int j = 2; j <= k; j++) {
      logFactorial += Math.log(j);
    }
    double term = Math.exp(-mean + k * Math.log(mean) - logFactorial);
    double tail = 0;
    for (int j = k; term > tail * 1e-17 && j < k + 1000; j++) {
      tail += term;
      term *= mean / (j + 1);
    }
    return Math.min(1.0, tail);
  }

  private static long even(double buckets) {
    if (!(buckets < MAX_BUCKETS)) {
      throw new IllegalArgumentException("a table of " + buckets + " buckets is too large");
    }
    return Math.max(2, ((long) Math.ceil(buckets) + 1) & ~1L);
  }

  private static IllegalArgumentException tooLarge(long capacity) {
    return new IllegalArgumentException("capacity " + capacity + " needs more than 2^62 buckets");
  }

  /**
   * The false-positive probability of a lookup at this load: {@code 1 - (1 - q)^(2·b·load)},
   * where {@code q} is {@link PartialKeyHashing#matchProbability(int)}.
   *
   * @param load the fraction of slots occupied, 0..1
   * @param bucketSize slots per bucket, at least 1
   * @param fingerprintBits the fingerprint width, 1..32
   * @return the expected false-positive probability, 0 for an empty table
   */
  public static double expectedFpp(double load, int bucketSize, int fingerprintBits) {
    double q = PartialKeyHashing.matchProbability(fingerprintBits);
    // -expm1(k·log1p(-q)) keeps precision when q is tiny (32-bit fingerprints).
    return -Math.expm1(2.0 * bucketSize * load * Math.log1p(-q));
  }

  /** @return the index of a supported bucket size in the load tables */
  private static int sizeIndex(int bucketSize) {
    if (bucketSize != 1 && bucketSize != 2 && bucketSize != 4 && bucketSize != 8) {
      throw new IllegalArgumentException("bucket size " + bucketSize + " is not supported: 1, 2, 4 or 8");
    }
    return Integer.numberOfTrailingZeros(bucketSize);
  }
}
