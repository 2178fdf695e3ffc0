package dev.cuckoo.scalable;

import java.util.Arrays;

/**
 * RedisBloom's cuckoo filter: a chain of up to 32 {@link SubFilter}s, oldest first, with
 * RedisBloom's counters ({@code numItems}, {@code numDeletes}) and its order of work for every
 * command, so that each operation leaves exactly the bytes RedisBloom's would. Merging another
 * chain in is {@link ChainMerge}'s; the chain as bytes, in a dump or a file, {@link ChainDump}'s.
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

  /**
   * A chain of the sub-filters a checked header describes, oldest first, with the header's
   * counters: what {@link ChainDump} reads or shapes for a load.
   *
   * @param header the header, decoded and checked
   * @param subFilters as many sub-filters as the header declares, oldest first
   * @param maxPageBytes the largest array a sub-filter may use
   */
  SubFilterChain(DumpHeader header, SubFilter[] subFilters, int maxPageBytes) {
    this(subFilters[0], header.numBuckets(), header.bucketSize(), header.maxIterations(), header.expansion(),
        maxPageBytes);
    System.arraycopy(subFilters, 1, filters, 1, header.numFilters() - 1);
    count = header.numFilters();
    items = header.numItems();
    deletes = header.numDeletes();
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

  /**
   * Inserts a fingerprint as CF.ADD does once the chain's length is checked ("Insert" above).
   *
   * @param hash the key's hash, or a bucket index that reduces as the hash would in every
   *     sub-filter (one of another chain whose sub-filters have this one's single size, as a
   *     merge moves it in)
   * @return whether it found a place
   */
  boolean insertFingerprint(long hash, int fp) {
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

  /**
   * CF.EXISTS; safe to run beside a writer, as a lookup of {@code concurrency=locked} does (its
   * answer is then thrown away, but it must not fail first): the sub-filters array never changes
   * length, {@code count} never exceeds it, and a slot that a growth, compaction or clear is
   * filling or emptying may read as null. A sub-filter's tables are final fields, so it never
   * pairs a bucket index with another size's pages.
   */
  boolean contains(long hash) {
    return contains(hash, fingerprint(hash));
  }

  private boolean contains(long hash, int fp) {
    long h2 = SubFilter.alternate(hash, fp);
    byte b = (byte) fp;
    for (int i = 0; i < count; i++) {
      SubFilter s = filters[i];
      if (s != null && s.contains(hash, h2, b)) {
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

  // ------------------------------------------------------------------ for a merge

  /**
   * @param written how many of the oldest sub-filters a merge may write, at least 1
   * @return a chain like this one for a merge to work on ({@link ChainMerge}): those sub-filters
   *     copied, the others shared, and a memory limit less the copies' bytes
   */
  SubFilterChain workingCopy(int written) {
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

  /** Takes the sub-filters and the items of a {@link #workingCopy} of this chain that a merge has filled. */
  void adopt(SubFilterChain trial) {
    System.arraycopy(trial.filters, 0, filters, 0, trial.count);
    count = trial.count;
    items = trial.items;
  }

  /**
   * Inserts a fingerprint whose bucket is known only up to the size of sub-filter {@code j}, as a
   * merge with an expansion of 2 or more moves in one of another chain's sub-filter j ({@link
   * ChainMerge}): into sub-filters 0..j only.
   *
   * @return whether it found a place
   */
  boolean insertUpTo(int j, long bucket, int fp) {
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
}
