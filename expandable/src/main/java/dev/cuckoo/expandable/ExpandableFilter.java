package dev.cuckoo.expandable;

import dev.cuckoo.Concurrency;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.engine.CuckooSizing;
import dev.cuckoo.engine.KickPath;
import dev.cuckoo.spi.AbstractCuckooFilter;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;

/**
 * The expandable cuckoo filter: one {@link LaneTable} that doubles when it fills, and an {@link
 * AgedStash}; see {@link ExpandableProvider} for what it promises. {@link #of} picks the class
 * for the spec's concurrency. As in every variant, a subclass is named for what its lookup
 * reads ({@code OfHeads} for 16-bit heads in buckets of 4, whole 16-bit lanes or lanes that
 * widen as the table grows, and {@code OfAnyLanes} for every other shape) or for the concurrency
 * it adds ({@link LockedExpandableFilter}).
 */
abstract sealed class ExpandableFilter extends AbstractCuckooFilter
    permits ExpandableFilter.OfAnyLanes, ExpandableFilter.OfHeads, LockedExpandableFilter {

  /*
   * A cuckoo filter [1] that grows without a chain of filters. Its table has 2^k buckets and a
   * key's first bucket is the top k bits of its hash; a key's entry holds the hash bits that
   * follow as its fingerprint. To double the table, every entry gives its first fingerprint bit
   * to the bucket index, moving to bucket 2i or 2i+1, so that a lookup in the larger table
   * still finds it: the scheme of InfiniFilter [2], on a cuckoo table rather than a quotient
   * filter. An entry that has given up a bits stores a unary code of its age in their place (a
   * marker bit below its remaining bits, as InfiniFilter does and Taffy filters [4] do for their
   * tails), so entries of every age share one lane width, and a lookup compares each with the
   * key's bits over the entry's own length (LaneTable, with SwarLanes.codeMismatch).
   *
   * The second bucket of a key is its first XOR an offset fixed by a 7-bit tag that entries
   * keep forever, in the 64-bit space of hashes rather than the table's: the pair of a key's
   * buckets then splits along with the table, and every entry moves to one child of its own
   * bucket without knowing which of its key's buckets it sits in, as the vacuum filter's
   * alternate ranges [3] allow within a window. A doubling is one pass over the old table that
   * writes the new one; it never kicks and cannot fail.
   *
   * A doubling does not change the answer to any lookup, so the false-positive rate never falls:
   * each doubling's new keys add about 2·b·α/2^(w-1), b slots a bucket at load α. With one lane
   * width (fingerprintBits=16 or 32) a filter grown d times from its start is at about (d/2 + 1)
   * times the rate of its first keys (2bα over 2^(w-1), 0.023% with 16-bit lanes). With a
   * targetFpp the lanes widen as the table grows, as InfiniFilter and Aleph [5] widen new
   * entries, by the LaneSchedule that keeps the sum of the generations' shares below the target;
   * the lanes' first 16 bits stay in one word per bucket (LaneTable's split lanes), so a lookup
   * is still one SWAR test per bucket. expectedFpp() counts entries by age to say where the rate
   * is.
   *
   * An entry that has given up all its bits is its tag alone; a doubling copies it into both
   * children, as Aleph duplicates its void entries [5]. Entries of the first table run out
   * after w - 8 doublings (8 for 16-bit lanes), and their copies are about 2^-(w-8) of the
   * table for each generation of keys that has run out.
   *
   * Removal takes the matching entry with the most fingerprint bits (InfiniFilter's rule [2]): if
   * it is another key's, that key's bits extend those of the key removed, so the entry left
   * behind matches both. Inserts kick as the engine's KickPath does, rewriting the address bits
   * an entry carries when it moves (LaneTable.movedEntry); a key the kicks cannot place waits in
   * the stash, which ages with the table. The table doubles when its entries reach the load the
   * engine sizes tables for, or when an add finds no room with the stash full and the table at
   * least half full; it refuses an add only when doubling would outgrow the heap, or when it
   * just doubled and the key still finds no room (copies of one key fill its buckets at any
   * size).
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   * [2] N. Dayan, I. Bercea, P. Reviriego, R. Pagh, "InfiniFilter: Expanding Filters to
   *     Infinity and Beyond", SIGMOD 2023.
   * [3] M. Wang, M. Zhou, S. Shi, C. Qian, "Vacuum Filters: More Space-Efficient and Faster
   *     Replacement for Bloom and Cuckoo Filters", PVLDB 13(2), 2019.
   * [4] J. Apple, "Stretching Your Data with Taffy Filters", Software: Practice and Experience,
   *     2023 (code: jbapple/libfilter).
   * [5] N. Dayan, I. Bercea, R. Pagh, "Aleph Filter: To Infinity in Constant Time", PVLDB 17(11),
   *     2024.
   */

  /** The load that a refused add must have reached to make the table double. */
  private static final double REFUSAL_GROWTH_LOAD = 0.55;

  /** Bits of a lane in its bucket's word: the lane width, or 16 of a lane that widens. */
  final int headBits;
  final int slots;
  /** The lane width at each size. */
  final LaneSchedule schedule;
  /** log2 of the first table's bucket count, from the spec's capacity. */
  final int startK;
  private final KickPath kicks;
  /** The table now; replaced by a larger one when the filter grows. */
  LaneTable table;
  final AgedStash stash = new AgedStash();
  /** Whether the stash holds anything: one field for lookups to test. */
  boolean stashInUse;
  /** Keys stored. */
  private long size;
  /** Entries in the table and the stash: the keys and the copies of exhausted entries. */
  private long entries;
  /** Entries by age (index 0 to the fingerprint width, exhausted). */
  private final long[] ages;
  /** The entries at which an add doubles the table first. */
  private long growAt;
  /** The most bytes the table may take while it doubles (old and new together). */
  private long memoryLimit = Runtime.getRuntime().maxMemory();

  ExpandableFilter(FilterSpec spec, LaneTable table) {
    super(spec);
    this.headBits = table.headBits;
    this.slots = table.slots;
    this.startK = startK(spec);
    this.schedule = schedule(spec);
    this.kicks = new KickPath(spec.maxKicks().getAsInt(), spec.seed().orElse(0L));
    // Ages go up to the widest lane's fingerprint bits: a lane of 32 bits has 24.
    this.ages = new long[Integer.SIZE - LaneTable.TAG_BITS];
    use(table);
  }

  /**
   * @param spec a resolved spec
   * @return an empty filter of its shape and concurrency
   */
  static ExpandableFilter of(FilterSpec spec) {
    return of(spec, firstTable(spec));
  }

  /** @return the empty first table of a filter of the spec */
  static LaneTable firstTable(FilterSpec spec) {
    int k = startK(spec);
    return new LaneTable(headBits(spec), schedule(spec).extBits(k), spec.bucketSize().getAsInt(), k, null);
  }

  /**
   * @param spec a resolved spec
   * @return how wide its lanes are at each size: widening to hold its {@code targetFpp}, or
   *     one width
   */
  static LaneSchedule schedule(FilterSpec spec) {
    if (spec.targetFpp().isEmpty()) {
      return LaneSchedule.FIXED;
    }
    return LaneSchedule.flat(spec.targetFpp().getAsDouble(), ExpandableProvider.expectedKeys(spec),
        spec.bucketSize().getAsInt(), startK(spec));
  }

  /**
   * @param spec the resolved spec
   * @return the bytes the first table of a new filter of that spec takes
   */
  static long tableBytes(FilterSpec spec) {
    int k = startK(spec);
    return Long.BYTES * LaneTable.wordCount(headBits(spec), schedule(spec).extBits(k), spec.bucketSize().getAsInt(), k);
  }

  /** @return a filter around a table (read from a file, say); call {@link #restore} next */
  static ExpandableFilter of(FilterSpec spec, LaneTable table) {
    if (spec.concurrency().orElse(Concurrency.NONE) == Concurrency.LOCKED) {
      return new LockedExpandableFilter(spec, table);
    }
    return table.sixteenBitHeads ? new OfHeads(spec, table) : new OfAnyLanes(spec, table);
  }

  /** @return the bits of a lane in its bucket's words: 16 for lanes that widen */
  static int headBits(FilterSpec spec) {
    return spec.targetFpp().isPresent() ? LaneSchedule.HEAD_BITS : spec.fingerprintBits().getAsInt();
  }

  /**
   * @return the load at which a table of buckets of this size doubles: the 93% classic tables
   *     were sized for with buckets of 4 until they moved to 96.5% with a longer walk; whether
   *     a window-bounded alternate reaches that too is measured separately (docs/results.md,
   *     the expandable sections)
   */
  static double growLoad(int slots) {
    return CuckooSizing.legacyDesignLoad(slots);
  }

  /** @return the entries a table of 2^k buckets takes before it doubles */
  static long growAt(int slots, int k) {
    return (long) ((1L << k) * slots * growLoad(slots));
  }

  /** @return log2 of the smallest table that takes the spec's capacity before it doubles */
  static int startK(FilterSpec spec) {
    int slots = spec.bucketSize().getAsInt();
    long capacity = spec.capacity().getAsLong();
    int k = 1;
    while (growAt(slots, k) < capacity) {
      k++;
    }
    return k;
  }

  private void use(LaneTable t) {
    table = t;
    growAt = growAt(slots, t.k);
  }

  /**
   * Sets what a file declared: the keys, and the stash's entries; the ages follow from the
   * table and the stash.
   */
  void restore(long keys, AgedStash stashed) {
    for (int i = 0; i < stashed.size(); i++) {
      stash.add(stashed.bucket(i), stashed.entry(i));
    }
    stashInUse = stash.size() != 0;
    LaneTable t = table;
    for (long b = 0; b < t.buckets(); b++) {
      for (int s = 0; s < slots; s++) {
        int e = t.lane(b, s);
        if (e != t.empty) {
          ages[t.age(e)]++;
        }
      }
    }
    for (int i = 0; i < stash.size(); i++) {
      ages[t.age(stash.entry(i))]++;
    }
    long n = 0;
    for (long a : ages) {
      n += a;
    }
    entries = n;
    size = keys;
  }

  // ---------------------------------------------------------------- operations

  /** {@link #addHash} without a lock, for {@link LockedExpandableFilter} to run under one. */
  final boolean insert(long keyHash) {
    if (entries >= growAt) {
      grow(); // if it cannot, the table may still have room
    }
    if (place(keyHash)) {
      return true;
    }
    return entries >= REFUSAL_GROWTH_LOAD * growAt && grow() && place(keyHash);
  }

  @Override
  protected boolean addHash(long keyHash) {
    return insert(keyHash);
  }

  /** Stores the key's entry in the table or, if no kick path frees a slot, the stash. */
  private boolean place(long keyHash) {
    LaneTable t = table;
    if (!placeEntry(t.bucketIndex(keyHash), t.freshEntry(keyHash))) {
      return false;
    }
    size++;
    return true;
  }

  /**
   * Doubles the table, if the heap has room for the old and the new one together.
   *
   * @return whether it doubled
   */
  private boolean grow() {
    LaneTable old = table;
    int nextExt = Math.max(old.extBits, schedule.extBits(old.k + 1));
    long oldBytes = (long) old.words.length * Long.BYTES;
    long newBytes = Long.BYTES * LaneTable.wordCount(headBits, nextExt, slots, old.k + 1);
    if (old.k >= LaneTable.maxK(headBits, nextExt, slots) || newBytes > memoryLimit - oldBytes
        || stash.size() + stash.exhausted(old) > AgedStash.MAX_ENTRIES) {
      return false;
    }
    LaneTable grown;
    try {
      grown = old.grown(nextExt);
    } catch (OutOfMemoryError e) {
      // The heap is shared, so less than the limit may be free. Only this allocation failed,
      // before the filter changed: the add goes on in the table it has.
      return false;
    }
    int widen = nextExt - old.extBits;
    stash.grow(old, widen);
    int top = old.fingerprintBits;
    long exhausted = ages[top];
    // Every entry ages by one, and wider lanes pad it below its marker by the bits they add;
    // those that give up their last bit join the exhausted ones, which are now twice as many.
    long lastBit = ages[top - 1];
    System.arraycopy(ages, 0, ages, 1 + widen, top - 1);
    java.util.Arrays.fill(ages, 0, 1 + widen, 0);
    ages[grown.fingerprintBits] = 2 * exhausted + lastBit;
    entries += exhausted;
    use(grown);
    if (stash.size() != 0) {
      stash.reinsert(grown, kicks);
    }
    stashInUse = stash.size() != 0;
    return true;
  }

  // ---------------------------------------------------------------- merging

  /**
   * {@inheritDoc} Two expandable filters of one lane width and bucket size merge whatever their
   * sizes: this one first doubles until it is at least as large as the other, then each of the
   * other's entries ages as a doubling would age it (to one child bucket, or to both once it
   * has no fingerprint bits left) until it is at this table's size, and goes in as an add
   * places an entry: a bucket of its two, a kick path, the stash, or a doubling first. So the
   * merge stops only where an add would be refused, when doubling would outgrow the heap. The
   * other filter must not change while it runs.
   */
  @Override
  protected long addAllFrom(AbstractCuckooFilter other) {
    ExpandableFilter that = (ExpandableFilter) other;
    if (that.slots != slots || that.headBits != headBits) {
      throw new IllegalArgumentException("cannot merge " + that.spec() + " into " + spec()
          + ": expandable filters merge only with the same bucketSize and fingerprintBits, or both with a targetFpp");
    }
    LaneTable theirs = that.table;
    while (table.k < theirs.k) {
      if (!grow()) {
        return 0;
      }
    }
    long moved = 0;
    for (long b = 0; b < theirs.buckets(); b++) {
      for (int s = 0; s < slots; s++) {
        int e = theirs.lane(b, s);
        if (e != theirs.empty) {
          if (!mergeEntry(theirs.k, b, ours(theirs, e))) {
            size += moved;
            return moved;
          }
          moved++;
        }
      }
    }
    for (int i = 0; i < that.stash.size(); i++) {
      if (!mergeEntry(theirs.k, that.stash.bucket(i), ours(theirs, that.stash.entry(i)))) {
        size += moved;
        return moved;
      }
      moved++;
    }
    size += that.size;
    return that.size;
  }

  /**
   * @return an entry of another filter's table, in lanes as wide as this filter's table of that
   *     size has (a merge of filters whose lanes differ keeps the fewer fingerprint bits)
   */
  private int ours(LaneTable theirs, int entry) {
    return LaneTable.reshaped(entry, theirs.codeBits, codeBits(theirs.k));
  }

  /** @return the code bits of this filter's lanes in a table of {@code 2^k} buckets */
  private int codeBits(int k) {
    return headBits + schedule.extBits(k) - LaneTable.TAG_BITS;
  }

  /**
   * Places an entry of bucket {@code bucket} of a table of {@code 2^k} buckets of this filter's
   * lanes for that size, aged to this table's size (LaneTable.childBucket and agedOnce do for
   * one entry what a doubling does to all).
   */
  private boolean mergeEntry(int k, long bucket, int entry) {
    LaneTable t = table;
    if (k == t.k) {
      if (placeEntry(bucket, entry)) {
        return true;
      }
      return grow() && mergeEntry(k, bucket, entry);
    }
    int code = codeBits(k);
    int next = codeBits(k + 1);
    if (LaneTable.exhausted(entry, code)) {
      int copy = LaneTable.reshaped(entry, code, next);
      return mergeEntry(k + 1, 2 * bucket, copy) && mergeEntry(k + 1, 2 * bucket + 1, copy);
    }
    return mergeEntry(k + 1, LaneTable.childBucket(bucket, entry, code),
        LaneTable.reshaped(LaneTable.agedOnce(entry, code), code, next));
  }

  /**
   * Stores an entry as {@code bucket} stores it (a new key's, or a merged one's) in the table or,
   * if no kick path frees a slot, the stash; counts it in {@link #entries}, not in the size.
   */
  private boolean placeEntry(long bucket, int entry) {
    LaneTable t = table;
    long bucket2 = t.alternate(bucket, entry);
    if (!t.insert(bucket, entry) && !t.insert(bucket2, t.movedEntry(entry))
        && !kicks.relocate(t, bucket, bucket2, entry)) {
      if (!stash.hasRoom()) {
        return false;
      }
      stash.add(bucket, entry);
      stashInUse = true;
    }
    ages[t.age(entry)]++;
    entries++;
    return true;
  }

  /**
   * Sets the most bytes the table may take while it doubles (by default the heap's maximum);
   * growth beyond it is refused like a failed allocation. For tests.
   */
  void memoryLimit(long bytes) {
    memoryLimit = bytes;
  }

  /**
   * {@link #mightContainHash} without a lock; safe to run beside a writer, as a lookup of
   * {@code concurrency=locked} does (its answer is then thrown away, but it must not fail
   * first): a table's array and its shift are final fields of one object, so a lookup never
   * pairs an index with an array of another size, and the stash bounds its loop by the arrays
   * it reads.
   */
  final boolean contains(long keyHash) {
    LaneTable t = table;
    return t.containsHash(keyHash) || (stashInUse && stashContains(t, keyHash));
  }

  @Override
  protected boolean mightContainHash(long keyHash) {
    return contains(keyHash);
  }

  /** {@link #addIfAbsentHash} without a lock. */
  final boolean insertIfAbsent(long keyHash) {
    return !contains(keyHash) && insert(keyHash);
  }

  final boolean stashContains(LaneTable t, long keyHash) {
    return stash.contains(t, t.bucketIndex(keyHash), t.fingerprint(keyHash));
  }

  /**
   * {@link #removeHash} without a lock: removes the matching entry with the most fingerprint
   * bits, from either bucket or the stash.
   */
  final boolean delete(long keyHash) {
    LaneTable t = table;
    long bucket1 = t.bucketIndex(keyHash);
    int pattern1 = t.fingerprint(keyHash);
    long bucket2 = t.alternate(bucket1, pattern1);
    int pattern2 = (int) t.movedEntry(pattern1);
    int slot1 = t.longestMatch(bucket1, pattern1, t.fingerprintBits + 1);
    int age1 = slot1 < 0 ? t.fingerprintBits + 1 : t.age(t.lane(bucket1, slot1));
    int slot2 = t.longestMatch(bucket2, pattern2, age1);
    int age2 = slot2 < 0 ? age1 : t.age(t.lane(bucket2, slot2));
    int stashed = stashInUse ? stash.longestMatch(t, bucket1, pattern1, age2) : -1;
    int removed;
    if (stashed >= 0) {
      removed = stash.removeAt(stashed);
    } else if (slot2 >= 0) {
      removed = t.lane(bucket2, slot2);
      t.setLane(bucket2, slot2, t.empty);
    } else if (slot1 >= 0) {
      removed = t.lane(bucket1, slot1);
      t.setLane(bucket1, slot1, t.empty);
    } else {
      return false;
    }
    ages[t.age(removed)]--;
    entries--;
    if (size > 0) {
      size--; // a remove of a key never added may take a copy of an exhausted entry
    }
    if (stashInUse) {
      stash.reinsert(t, null);
      stashInUse = stash.size() != 0;
    }
    return true;
  }

  @Override
  protected boolean removeHash(long keyHash) {
    return delete(keyHash);
  }

  /** {@link #countHash} without a lock. */
  final long countOf(long keyHash) {
    LaneTable t = table;
    long bucket1 = t.bucketIndex(keyHash);
    int pattern = t.fingerprint(keyHash);
    long n = t.count(bucket1, t.alternate(bucket1, pattern), pattern);
    return stashInUse ? n + stash.count(t, bucket1, pattern) : n;
  }

  @Override
  protected long countHash(long keyHash) {
    return countOf(keyHash);
  }

  @Override
  public long size() {
    return size;
  }

  /** @return the entries in the table and the stash (keys, and copies of exhausted entries) */
  long entries() {
    return entries;
  }

  /** @return the entries of each age, 0 to the fingerprint width (exhausted) */
  long[] ages() {
    return java.util.Arrays.copyOf(ages, table.fingerprintBits + 1);
  }

  /**
   * {@inheritDoc} The configured capacity while the first table is in use (that table is the
   * smallest that takes it, so it takes a few more before it doubles: doubling earlier would
   * leave the next table half empty); after that, the items it takes before it doubles next.
   */
  @Override
  public long capacity() {
    return table.k == startK ? spec().capacity().getAsLong() : growAt;
  }

  @Override
  public long slots() {
    return table.buckets() * slots + AgedStash.SLOTS;
  }

  /** @return the bytes of the table and the stash */
  @Override
  public long sizeInBytes() {
    return (long) table.words.length * Long.BYTES + stash.bytes();
  }

  /**
   * {@inheritDoc} From the entries of each age: a lookup meets an entry in one of its two
   * buckets with probability 2/m, and it matches with {@link LaneTable#matchProbability} of its
   * age; an entry that has seen a doublings matches 2^a times as often as a new one.
   */
  @Override
  public double expectedFpp() {
    LaneTable t = table;
    double matches = 0;
    for (int a = 0; a < ages.length; a++) {
      matches += ages[a] * t.matchProbability(a);
    }
    return -Math.expm1(-2.0 * matches / t.buckets());
  }

  /** Empties the filter and goes back to its first table. */
  @Override
  public void clear() {
    use(new LaneTable(headBits, schedule.extBits(startK), slots, startK, null));
    stash.clear();
    stashInUse = false;
    java.util.Arrays.fill(ages, 0);
    entries = 0;
    size = 0;
  }

  @Override
  protected long payloadLength() {
    return ExpandablePayload.length(table, schedule, stash);
  }

  @Override
  protected void writePayload(PayloadOutput out) throws IOException {
    ExpandablePayload.write(out, table, schedule, size, entries, stash);
  }

  /** {@code concurrency=none}: no locks. */
  static final class OfAnyLanes extends ExpandableFilter {
    OfAnyLanes(FilterSpec spec, LaneTable table) {
      super(spec, table);
    }
  }

  /**
   * {@code concurrency=none} with 16-bit heads in buckets of 4: whole 16-bit lanes, or lanes that
   * widen (a {@code targetFpp}) whose first 16 bits sit in one word per bucket. A lookup goes
   * from the filter to {@link LaneTable#containsHeads} and, only while the stash holds anything,
   * to the stash (in a loop of lookups over a large table every instruction counts; see
   * classic's filter).
   */
  static final class OfHeads extends ExpandableFilter {
    OfHeads(FilterSpec spec, LaneTable table) {
      super(spec, table);
    }

    @Override
    protected boolean mightContainHash(long keyHash) {
      LaneTable t = table;
      return t.containsHeads(keyHash) || (stashInUse && stashContains(t, keyHash));
    }
  }
}
