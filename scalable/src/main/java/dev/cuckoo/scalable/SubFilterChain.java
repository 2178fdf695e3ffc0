package dev.cuckoo.scalable;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.spi.PayloadInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * RedisBloom's cuckoo filter: a chain of up to 32 {@link SubFilter}s, oldest first, with
 * RedisBloom's counters ({@code numItems}, {@code numDeletes}) and its order of work for every
 * command, so that each operation leaves exactly the bytes RedisBloom's would.
 */
final class SubFilterChain {
  /*
   * Hashing [1]. A key's 64-bit hash h (MurmurHash64A, seed 0, in RedisBloom) gives the
   * fingerprint fp = (h mod 255) + 1 on the unsigned value, so 1..255 and never the empty 0;
   * the first candidate is h and the second h XOR fp*0x5bd1e995, each reduced by the size of the
   * sub-filter looked at.
   *
   * Insert (CF.ADD) [1][3]. The newest sub-filter is tried first, then the older ones, each in
   * its first bucket then its second, slots in order; the first empty slot takes the
   * fingerprint. If there is none, the kick loop runs on the newest sub-filter only (see
   * SubFilter). If it fails it has undone itself; then a filter with expansion 0 answers "no
   * room", and any other grows a sub-filter of numBuckets * expansion^i buckets and inserts
   * again, which lands in that empty sub-filter's first bucket, slot 0 (if the new sub-filter
   * cannot be allocated, the insert is refused as RedisBloom refuses it). Before all of this, once
   * per command, a chain of 32 sub-filters refuses the insert ("Maximum expansions reached")
   * [2], whether or not a slot is free.
   *
   * CF.ADDNX inserts only if CF.EXISTS is false; CF.EXISTS asks every sub-filter's two buckets;
   * CF.COUNT adds up the matches of the first bucket and of the second in every sub-filter, so a
   * key whose two buckets coincide is counted twice.
   *
   * Delete (CF.DEL) [1][4]. The newest sub-filter first, first bucket then second: the first
   * matching slot is cleared; numItems drops and numDeletes grows. Then, when the chain has more
   * than one sub-filter and numDeletes > 0.1 * numItems (compared in double precision, as
   * RedisBloom does), the chain compacts, stopping at the first sub-filter it cannot empty.
   *
   * Compaction [4]. From the newest sub-filter down to the second, each fingerprint, in bucket
   * order then slot order, moves to the first free slot of an older sub-filter, oldest first,
   * trying there bucket b and then the alternate of b, where b is its bucket here (reduced by
   * the older size, which divides this one). Every fingerprint of a sub-filter is tried even
   * after one could not move. A sub-filter that ends up empty is dropped only if it is the
   * newest. numDeletes restarts at 0 whatever happened. CF.COMPACT, unlike a delete, goes on
   * past sub-filters that could not be emptied.
   *
   * [1] https://redis.io/commands/cf.reserve/ , https://redis.io/commands/cf.add/ , and the
   *     conformance vectors in src/test/resources/redisbloom, which every rule here reproduces.
   * [2] https://redis.io/commands/cf.reserve/ : "The filter can grow up to 32 times."
   * [3] RedisBloom pull request 138, https://github.com/RedisBloom/RedisBloom/pull/138
   * [4] RedisBloom issue 517, https://github.com/RedisBloom/RedisBloom/issues/517
   */

  /** The most sub-filters a chain has; an insert into a chain this long is refused. */
  static final int MAX_SUB_FILTERS = 32;

  /** The largest array a sub-filter is stored in: larger ones are paged. */
  static final int DEFAULT_MAX_PAGE_BYTES = 1 << 30;

  /**
   * The largest sub-filter, in bytes (64 TiB): growth beyond it is refused like a failed
   * allocation, and dumps or files declaring more are rejected.
   */
  static final long MAX_SUB_FILTER_BYTES = 1L << 46;

  /** The share of numItems that numDeletes must exceed before a delete compacts. */
  private static final double COMPACTION_RATIO = 0.1;

  private final long initialBuckets;
  private final int bucketSize;
  private final int maxIterations;
  private final int expansion;
  private final int maxPageBytes;
  private final SubFilter[] filters = new SubFilter[MAX_SUB_FILTERS];
  private int count;
  private long memoryLimit = Runtime.getRuntime().maxMemory();
  private long items;
  private long deletes;

  /**
   * An empty chain of one sub-filter.
   *
   * @param initialBuckets buckets of the first sub-filter, a power of two
   * @param bucketSize slots per bucket, 1..255
   * @param maxIterations kick-loop rounds, 1..65535
   * @param expansion growth factor, 0 or a power of two up to 32768
   * @param maxPageBytes the largest array a sub-filter may use
   */
  SubFilterChain(long initialBuckets, int bucketSize, int maxIterations, int expansion, int maxPageBytes) {
    this(new SubFilter(initialBuckets, bucketSize, maxPageBytes), initialBuckets, bucketSize, maxIterations,
        expansion, maxPageBytes);
  }

  private SubFilterChain(SubFilter first, long initialBuckets, int bucketSize, int maxIterations, int expansion,
      int maxPageBytes) {
    this.initialBuckets = initialBuckets;
    this.bucketSize = bucketSize;
    this.maxIterations = maxIterations;
    this.expansion = expansion;
    this.maxPageBytes = maxPageBytes;
    filters[0] = first;
    count = 1;
  }

  /** A chain shaped as a checked header says, every slot empty and the counters as given. */
  static SubFilterChain shapedAs(DumpHeader header, int maxPageBytes) {
    return shapedAs(header, maxPageBytes, true);
  }

  /**
   * A chain shaped as a checked header says, with the counters as given, and its tables either
   * allocated, every slot empty, or (unless {@code allocate}) left for {@link SubFilter#fill} to
   * allocate as their bytes arrive; fill those in order, then call {@link #checkItems()}.
   */
  static SubFilterChain shapedAs(DumpHeader header, int maxPageBytes, boolean allocate) {
    SubFilterChain chain = new SubFilterChain(
        new SubFilter(header.numBuckets(), header.bucketSize(), maxPageBytes, allocate), header.numBuckets(),
        header.bucketSize(), header.maxIterations(), header.expansion(), maxPageBytes);
    for (int i = 1; i < header.numFilters(); i++) {
      chain.filters[i] = new SubFilter(chain.bucketsOf(i), header.bucketSize(), maxPageBytes, allocate);
    }
    chain.count = header.numFilters();
    chain.items = header.numItems();
    chain.deletes = header.numDeletes();
    return chain;
  }

  /**
   * @return the buckets of sub-filter {@code index} in a chain of this shape, or -1 if it would
   *     exceed {@link #MAX_SUB_FILTER_BYTES} (or cannot exist, with expansion 0)
   */
  static long bucketsOf(long initialBuckets, int expansion, int bucketSize, int index) {
    long limit = MAX_SUB_FILTER_BYTES / bucketSize;
    if (initialBuckets > limit) {
      return -1;
    }
    long buckets = initialBuckets;
    for (int i = 0; i < index; i++) {
      if (expansion == 0 || buckets > limit / expansion) {
        return -1;
      }
      buckets *= expansion;
    }
    return buckets;
  }

  private long bucketsOf(int index) {
    return bucketsOf(initialBuckets, expansion, bucketSize, index);
  }

  /** @return the fingerprint of a key hash: (hash mod 255) + 1, unsigned */
  static int fingerprint(long hash) {
    return (int) Long.remainderUnsigned(hash, 255) + 1;
  }

  // ------------------------------------------------------------------ commands

  /** CF.ADD: {@code true} for reply 1, {@code false} for "no room" or "Maximum expansions reached". */
  boolean insert(long hash) {
    if (count >= MAX_SUB_FILTERS) {
      return false;
    }
    return insertFingerprint(hash, fingerprint(hash));
  }

  /** CF.ADDNX: {@code true} for reply 1; {@code false} for 0 (present) or a refusal. */
  boolean insertIfAbsent(long hash) {
    if (count >= MAX_SUB_FILTERS) {
      return false;
    }
    int fp = fingerprint(hash);
    return !contains(hash, fp) && insertFingerprint(hash, fp);
  }

  private boolean insertFingerprint(long hash, int fp) {
    long h2 = SubFilter.alternate(hash, fp);
    byte b = (byte) fp;
    for (int i = count - 1; i >= 0; i--) {
      if (filters[i].storeIfRoom(hash, h2, b)) {
        items++;
        return true;
      }
    }
    if (filters[count - 1].kickInsert(hash, fp, maxIterations)) {
      items++;
      return true;
    }
    if (expansion == 0 || !grow()) {
      return false;
    }
    filters[count - 1].storeIfRoom(hash, h2, b); // an empty sub-filter: its first bucket, slot 0
    items++;
    return true;
  }

  private boolean grow() {
    if (count >= MAX_SUB_FILTERS) {
      return false;
    }
    long buckets = bucketsOf(count);
    // Where RedisBloom's allocation would fail ("MemAllocFailed"), the insert is refused: a
    // chain cannot outgrow the heap. Copies of one key reach this fast: every 2*bucketSize of
    // them add a sub-filter, expansion times larger than the last.
    if (buckets < 0 || buckets * bucketSize > memoryLimit - dataBytes()) {
      return false;
    }
    SubFilter grown;
    try {
      grown = new SubFilter(buckets, bucketSize, maxPageBytes);
    } catch (OutOfMemoryError e) {
      // The heap is shared, so less than the limit may be free. Only this allocation failed,
      // before the chain changed: refusing the insert leaves the filter as it was.
      return false;
    }
    filters[count] = grown;
    count++;
    return true;
  }

  /**
   * Sets the most bytes the chain's tables may take together (by default the heap's maximum);
   * growth beyond it is refused like a failed allocation. For tests.
   */
  void memoryLimit(long bytes) {
    memoryLimit = bytes;
  }

  /** CF.EXISTS. */
  boolean contains(long hash) {
    return contains(hash, fingerprint(hash));
  }

  private boolean contains(long hash, int fp) {
    long h2 = SubFilter.alternate(hash, fp);
    byte b = (byte) fp;
    for (int i = 0; i < count; i++) {
      if (filters[i].contains(hash, h2, b)) {
        return true;
      }
    }
    return false;
  }

  /** CF.COUNT. */
  long count(long hash) {
    int fp = fingerprint(hash);
    long h2 = SubFilter.alternate(hash, fp);
    byte b = (byte) fp;
    long n = 0;
    for (int i = 0; i < count; i++) {
      n += filters[i].count(hash, h2, b);
    }
    return n;
  }

  /** CF.DEL: {@code true} for reply 1. */
  boolean delete(long hash) {
    int fp = fingerprint(hash);
    long h2 = SubFilter.alternate(hash, fp);
    byte b = (byte) fp;
    for (int i = count - 1; i >= 0; i--) {
      if (filters[i].removeOne(hash, h2, b)) {
        items--;
        deletes++;
        if (count > 1 && (double) deletes > (double) items * COMPACTION_RATIO) {
          compact(false);
        }
        return true;
      }
    }
    return false;
  }

  /**
   * Moves fingerprints from newer sub-filters into older ones and drops emptied newest ones.
   *
   * @param pastFailures go on after a sub-filter that could not be emptied (CF.COMPACT), or
   *     stop there (after a delete)
   */
  void compact(boolean pastFailures) {
    for (int i = count - 1; i > 0; i--) {
      boolean emptied = moveToOlder(i);
      if (emptied && i == count - 1) {
        filters[i] = null;
        count--;
      } else if (!emptied && !pastFailures) {
        break;
      }
    }
    deletes = 0;
  }

  /** @return whether every fingerprint of sub-filter {@code index} found room in an older one */
  private boolean moveToOlder(int index) {
    SubFilter from = filters[index];
    boolean all = true;
    for (long bucket = 0; bucket < from.numBuckets(); bucket++) {
      for (int slot = 0; slot < bucketSize; slot++) {
        int fp = from.fingerprintAt(bucket, slot);
        if (fp == 0) {
          continue;
        }
        long alternate = SubFilter.alternate(bucket, fp);
        boolean moved = false;
        for (int j = 0; j < index && !moved; j++) {
          moved = filters[j].storeIfRoom(bucket, alternate, (byte) fp);
        }
        if (moved) {
          from.clearSlot(bucket, slot);
        } else {
          all = false;
        }
      }
    }
    return all;
  }

  /**
   * Merges another chain of this shape in: a copy of every fingerprint, duplicates included.
   * A chain that grows (expansion 1 or more) takes them all or none: they go into a copy of the
   * sub-filters they may reach, which replaces this chain's only once every fingerprint found a
   * place, so a refused merge leaves this chain byte for byte as it was (and needs memory for that
   * copy while it runs). A chain that never grows (expansion 0) is one table and merges as any
   * fixed table does: in place, stopping at the first fingerprint that finds no room.
   *
   * @param other a chain of this shape, not this one
   * @param what the merge, to begin messages with ("cannot merge ... into ...")
   * @return the fingerprints moved in: all of the other's, or fewer with expansion 0 only
   * @throws IllegalArgumentException saying why, if a growing chain cannot place them all
   * @throws IllegalStateException if the heap has no room for the working copy
   */
  long mergeFrom(SubFilterChain other, String what) {
    if (expansion == 0) {
      return moveIn(other);
    }
    SubFilterChain trial;
    try {
      trial = workingCopy(other);
    } catch (OutOfMemoryError e) {
      throw new IllegalStateException(what + ": a merge works on a copy of this filter's sub-filters, and the heap "
          + "has no room for it; this filter is unchanged", e);
    }
    long moved = trial.moveIn(other);
    if (moved < other.items) {
      throw new IllegalArgumentException(what + ": only " + moved + " of its " + other.items
          + " fingerprints find a place: " + trial.whyMergeStopped(other, moved) + "; this filter is unchanged. "
          + "Chains with expansion=1 (sub-filters of one size) merge as long as the chain can grow, and variant "
          + "expandable merges filters of any sizes");
    }
    System.arraycopy(trial.filters, 0, filters, 0, trial.count);
    count = trial.count;
    items = trial.items;
    return moved;
  }

  /**
   * @return a chain like this one for a merge to work on: the sub-filters a merge of {@code
   *     other} may write copied, the others shared, and a memory limit less the copies' bytes
   */
  private SubFilterChain workingCopy(SubFilterChain other) {
    int written = expansion == 1 ? count : Math.min(count, other.count);
    SubFilterChain copy = new SubFilterChain(filters[0].copy(), initialBuckets, bucketSize, maxIterations, expansion,
        maxPageBytes);
    long copied = filters[0].bytes();
    for (int i = 1; i < count; i++) {
      copy.filters[i] = i < written ? filters[i].copy() : filters[i];
      copied += i < written ? filters[i].bytes() : 0;
    }
    copy.count = count;
    copy.items = items;
    copy.deletes = deletes;
    copy.memoryLimit = memoryLimit - copied;
    return copy;
  }

  /**
   * Moves a copy of every fingerprint of another chain of this shape in, oldest sub-filter first,
   * stopping at the first that finds no room.
   *
   * <p>A fingerprint of the other's sub-filter j sits at its key's bucket reduced by that
   * sub-filter's size, which says nothing of the key's bucket in a larger one. So it may go only
   * to sub-filters whose size divides that one: with expansion 1 (or 0) every sub-filter has one
   * size, and it goes where CF.ADD of its key would put it, the chain growing as CF.ADD grows it;
   * with a larger expansion only sub-filters 0..j qualify, and it goes there, as compaction moves
   * fingerprints only to older sub-filters [4]: the newest of them with room at either bucket,
   * else (growing this chain to j + 1 sub-filters where it is shorter) an empty new sub-filter
   * j, else the kick loop in sub-filter j. Either way the merged chain is one RedisBloom itself
   * could hold: every fingerprint where a CF.EXISTS of its key looks.
   *
   * @return the fingerprints moved in
   */
  private long moveIn(SubFilterChain other) {
    long moved = 0;
    for (int j = 0; j < other.count; j++) {
      SubFilter from = other.filters[j];
      for (long bucket = 0; bucket < from.numBuckets(); bucket++) {
        for (int slot = 0; slot < bucketSize; slot++) {
          int fp = from.fingerprintAt(bucket, slot);
          if (fp != 0) {
            if (!(expansion <= 1 ? insertFingerprint(bucket, fp) : mergeOne(j, bucket, fp))) {
              return moved;
            }
            moved++;
          }
        }
      }
    }
    return moved;
  }

  /** One fingerprint of the other's sub-filter j, with an expansion of 2 or more; see {@link #moveIn}. */
  private boolean mergeOne(int j, long bucket, int fp) {
    long alternate = SubFilter.alternate(bucket, fp);
    for (int i = Math.min(j, count - 1); i >= 0; i--) {
      if (filters[i].storeIfRoom(bucket, alternate, (byte) fp)) {
        items++;
        return true;
      }
    }
    if (count <= j) {
      while (count <= j) {
        if (!grow()) {
          return false;
        }
      }
      filters[j].storeIfRoom(bucket, alternate, (byte) fp);
      items++;
      return true;
    }
    if (filters[j].kickInsert(bucket, fp, maxIterations)) {
      items++;
      return true;
    }
    return false;
  }

  /** @return why {@link #moveIn} stopped after {@code moved} of the other's fingerprints, for messages */
  private String whyMergeStopped(SubFilterChain other, long moved) {
    int j = 0;
    for (long before = other.filters[0].occupied(); before <= moved; before += other.filters[j].occupied()) {
      j++;
    }
    if (expansion > 1 && count > j) {
      return "with expansion " + expansion + " a fingerprint of the other's sub-filter " + j + " knows its bucket "
          + "only up to that sub-filter's size, so it may go only to this chain's sub-filters 0.." + j
          + ", no larger than that one, and they have no room left";
    }
    if (count == MAX_SUB_FILTERS) {
      return "this chain would need more than " + MAX_SUB_FILTERS + " sub-filters";
    }
    return "this chain cannot grow further (its next sub-filter would outgrow the heap)";
  }

  /**
   * @param other another chain
   * @return whether its sub-filters have this chain's sizes, index for index
   */
  boolean sameShape(SubFilterChain other) {
    return initialBuckets == other.initialBuckets && bucketSize == other.bucketSize && expansion == other.expansion;
  }

  /** Empties the chain back to one empty sub-filter, as a new {@code CF.RESERVE} would. */
  void clear() {
    Arrays.fill(filters, 1, count, null);
    count = 1;
    filters[0].clear();
    items = 0;
    deletes = 0;
  }

  // ------------------------------------------------------------------ state

  long items() {
    return items;
  }

  long deletes() {
    return deletes;
  }

  int subFilterCount() {
    return count;
  }

  SubFilter subFilter(int index) {
    return filters[index];
  }

  long initialBuckets() {
    return initialBuckets;
  }

  int bucketSize() {
    return bucketSize;
  }

  int maxIterations() {
    return maxIterations;
  }

  int expansion() {
    return expansion;
  }

  /** @return the bytes (and slots) of every sub-filter together */
  long dataBytes() {
    long total = 0;
    for (int i = 0; i < count; i++) {
      total += filters[i].bytes();
    }
    return total;
  }

  // ------------------------------------------------------------------ bytes

  /** Writes every sub-filter's bytes, oldest first. */
  void writeTo(DataOutput out) throws IOException {
    for (int i = 0; i < count; i++) {
      filters[i].writeTo(out);
    }
  }

  /**
   * Reads the chain a checked header describes from a payload: every sub-filter's bytes, oldest
   * first, each allocated only as its bytes arrive ({@link SubFilter#read}); then call {@link
   * #checkItems()}.
   *
   * @param header the header, already decoded and checked
   * @param in the payload, at the first sub-filter's first byte
   * @param maxPageBytes the largest array a sub-filter may use
   * @return the chain
   * @throws IOException if the payload or the file ends first
   */
  static SubFilterChain read(DumpHeader header, PayloadInput in, int maxPageBytes) throws IOException {
    SubFilterChain chain = new SubFilterChain(
        SubFilter.read(header.numBuckets(), header.bucketSize(), maxPageBytes, in, 0),
        header.numBuckets(), header.bucketSize(), header.maxIterations(), header.expansion(), maxPageBytes);
    for (int i = 1; i < header.numFilters(); i++) {
      chain.filters[i] = SubFilter.read(chain.bucketsOf(i), header.bucketSize(), maxPageBytes, in, i);
    }
    chain.count = header.numFilters();
    chain.items = header.numItems();
    chain.deletes = header.numDeletes();
    return chain;
  }

  /**
   * Checks, after loading, that numItems is the number of fingerprints the bytes hold, as it is
   * in every filter RedisBloom builds.
   *
   * @throws CorruptFilterException if it is not
   */
  void checkItems() throws CorruptFilterException {
    long stored = 0;
    for (int i = 0; i < count; i++) {
      stored += filters[i].occupied();
    }
    if (stored != items) {
      throw new CorruptFilterException(
          "RedisBloom cuckoo filter header has numItems " + items + " but its sub-filters hold "
              + stored + " fingerprints");
    }
  }
}
