package dev.cuckoo.scalable;

import dev.cuckoo.spi.PayloadInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * One table of a {@link SubFilterChain}: {@code numBuckets} buckets (a power of two) of {@code
 * bucketSize} one-byte slots, bucket {@code b} being bytes {@code b*bucketSize ..
 * b*bucketSize+bucketSize-1} of the table, as RedisBloom lays out and dumps a sub-filter [1].
 * A slot holds a fingerprint 1..255, or 0 when empty.
 */
final class SubFilter {
  /*
   * Bucket indexes. RedisBloom reduces a 64-bit hash to a bucket with "h mod numBuckets" on
   * unsigned values, and derives a fingerprint's other bucket as "(i XOR fp * 0x5bd1e995) mod
   * numBuckets" [1]. numBuckets is a power of two, so the unsigned remainder is a mask of the low
   * bits, and the alternate is an involution: the XOR flips the same low bits twice. Every older
   * sub-filter of a chain has a number of buckets that divides this one's, so a bucket index here
   * reduced by an older mask is one of the fingerprint's candidates there too (what compaction
   * relies on [2]).
   *
   * Storage. A table may outgrow one Java array (a chain that doubles 32 times does), so it is
   * held in pages of a power-of-two number of whole buckets: a bucket never straddles two pages
   * and its page is an index shift away. A table that fits one page, the common case, has one.
   *
   * The kick loop. When neither candidate bucket has room, RedisBloom displaces fingerprints in
   * a fixed order rather than at random [3]: start at the first bucket with victim slot 0; each
   * round swaps the carried fingerprint with the victim slot, moves to the alternate bucket of
   * the fingerprint it took out, stores it there if that bucket has a free slot, and otherwise
   * advances the victim slot by one (mod bucketSize). After maxIterations rounds without a free
   * slot it walks the same path backwards, undoing every swap, so the table is byte for byte as
   * it was and the caller can put the new fingerprint in a new sub-filter instead [3].
   *
   * [1] RedisBloom cuckoo filter, CF.RESERVE / CF.SCANDUMP, https://redis.io/commands/cf.reserve/
   *     and https://redis.io/commands/cf.scandump/ ; bucket, fingerprint and alternate-bucket
   *     arithmetic as recorded in the conformance vectors (src/test/resources/redisbloom).
   * [2] RedisBloom issue 517, compaction of sub-filters after deletes,
   *     https://github.com/RedisBloom/RedisBloom/issues/517
   * [3] RedisBloom pull request 138, "SubFilter & configurable expansion": victims taken in
   *     slot order and the path rolled back before a new sub-filter is added,
   *     https://github.com/RedisBloom/RedisBloom/pull/138
   */

  /** The multiplier of the alternate-bucket XOR: MurmurHash2's constant, as RedisBloom uses it. */
  static final long ALTERNATE_MULTIPLIER = 0x5bd1e995L;

  private final long numBuckets;
  private final long bucketMask;
  private final int bucketSize;
  private final int pageShift;
  private final long pageBucketMask;
  private final byte[][] pages;
  private long occupied;

  /**
   * @param numBuckets a power of two, at least 1
   * @param bucketSize slots per bucket, 1..255
   * @param maxPageBytes the largest array to allocate; a page holds at least one bucket
   */
  SubFilter(long numBuckets, int bucketSize, int maxPageBytes) {
    this(numBuckets, bucketSize, maxPageBytes, true);
  }

  /**
   * @param allocate whether to allocate the pages now, empty; if not, {@link #read} or {@link
   *     #fill} allocates them as their bytes arrive
   */
  SubFilter(long numBuckets, int bucketSize, int maxPageBytes, boolean allocate) {
    if (numBuckets < 1 || Long.bitCount(numBuckets) != 1) {
      throw new IllegalArgumentException("numBuckets " + numBuckets + " is not a power of two");
    }
    this.numBuckets = numBuckets;
    this.bucketMask = numBuckets - 1;
    this.bucketSize = bucketSize;
    int log2Buckets = Long.numberOfTrailingZeros(numBuckets);
    int shift = 0;
    while (shift < log2Buckets && ((long) bucketSize << (shift + 1)) <= maxPageBytes) {
      shift++;
    }
    this.pageShift = shift;
    this.pageBucketMask = (1L << shift) - 1;
    long pageCount = numBuckets >>> shift;
    if (pageCount > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("a sub-filter of " + numBuckets + " buckets needs too many pages");
    }
    this.pages = new byte[(int) pageCount][];
    for (int i = 0; allocate && i < pages.length; i++) {
      pages[i] = new byte[bucketSize << shift];
    }
  }

  private SubFilter(SubFilter from) {
    this.numBuckets = from.numBuckets;
    this.bucketMask = from.bucketMask;
    this.bucketSize = from.bucketSize;
    this.pageShift = from.pageShift;
    this.pageBucketMask = from.pageBucketMask;
    this.pages = new byte[from.pages.length][];
    for (int i = 0; i < pages.length; i++) {
      pages[i] = from.pages[i].clone();
    }
    this.occupied = from.occupied;
  }

  /** @return a copy with tables of its own */
  SubFilter copy() {
    return new SubFilter(this);
  }

  /**
   * Reads a table's bytes from a payload, page by page, each page growing only as its bytes
   * arrive ({@link PayloadInput#readByteArray}): a file that declares a huge sub-filter and ends
   * early costs about what it held, not what it declared.
   *
   * @param numBuckets a power of two, at least 1
   * @param bucketSize slots per bucket, 1..255
   * @param maxPageBytes the largest array to allocate
   * @param in the payload, at the table's first byte
   * @param index the sub-filter's position in its chain, for messages
   * @return the sub-filter
   * @throws java.io.IOException if the payload or the file ends first
   */
  static SubFilter read(long numBuckets, int bucketSize, int maxPageBytes, PayloadInput in, int index)
      throws IOException {
    SubFilter s = new SubFilter(numBuckets, bucketSize, maxPageBytes, false);
    int pageBytes = bucketSize << s.pageShift;
    for (int i = 0; i < s.pages.length; i++) {
      s.pages[i] = in.readByteArray(pageBytes, "page " + i + " of " + s.pages.length + " (" + pageBytes
          + " bytes) of sub-filter " + index + ", " + s.bytes() + " bytes in all");
    }
    s.recount();
    return s;
  }

  /**
   * @param index a bucket index (or a 64-bit hash)
   * @param fingerprint the fingerprint, 1..255
   * @return the other candidate of the fingerprint, before reduction to a bucket
   */
  static long alternate(long index, int fingerprint) {
    return index ^ (fingerprint * ALTERNATE_MULTIPLIER);
  }

  long numBuckets() {
    return numBuckets;
  }

  /** @return the table's size in bytes, which is also its number of slots */
  long bytes() {
    return numBuckets * bucketSize;
  }

  /** @return the arrays the table is stored in */
  int pageCount() {
    return pages.length;
  }

  /** @return the slots holding a fingerprint */
  long occupied() {
    return occupied;
  }

  /**
   * Stores the fingerprint in the first empty slot of bucket {@code h1}, else of bucket {@code
   * h2} (both reduced by this table's size).
   *
   * @return whether it was stored
   */
  boolean storeIfRoom(long h1, long h2, byte fingerprint) {
    return storeInBucket(h1 & bucketMask, fingerprint) || storeInBucket(h2 & bucketMask, fingerprint);
  }

  /** @return whether bucket {@code h1} or {@code h2} holds the fingerprint */
  boolean contains(long h1, long h2, byte fingerprint) {
    return bucketHolds(h1 & bucketMask, fingerprint) || bucketHolds(h2 & bucketMask, fingerprint);
  }

  /** @return the copies in bucket {@code h1} plus those in bucket {@code h2}, even if the same */
  int count(long h1, long h2, byte fingerprint) {
    return countInBucket(h1 & bucketMask, fingerprint, false) + countInBucket(h2 & bucketMask, fingerprint, false);
  }

  /**
   * Clears the first slot holding the fingerprint, in bucket {@code h1} then {@code h2}.
   *
   * @return whether one was cleared
   */
  boolean removeOne(long h1, long h2, byte fingerprint) {
    return removeFromBucket(h1 & bucketMask, fingerprint) || removeFromBucket(h2 & bucketMask, fingerprint);
  }

  /**
   * Runs the deterministic kick loop from bucket {@code h1}; see the class comment.
   *
   * @param h1 the key's hash
   * @param fingerprint the fingerprint to store, 1..255
   * @param maxIterations the rounds to try, 1..65535
   * @return {@code true} if stored; {@code false} if not, the table then being unchanged
   */
  boolean kickInsert(long h1, int fingerprint, int maxIterations) {
    long bucket = h1 & bucketMask;
    int victim = 0;
    int carried = fingerprint;
    for (int round = 0; round < maxIterations; round++) {
      carried = swap(bucket, victim, carried);
      bucket = alternate(bucket, carried) & bucketMask;
      if (storeInBucket(bucket, (byte) carried)) {
        return true;
      }
      victim = (victim + 1) % bucketSize;
    }
    for (int round = 0; round < maxIterations; round++) {
      victim = (victim + bucketSize - 1) % bucketSize;
      bucket = alternate(bucket, carried) & bucketMask;
      carried = swap(bucket, victim, carried);
    }
    return false;
  }

  /** @return the fingerprint in a slot, 0 if empty */
  int fingerprintAt(long bucket, int slot) {
    return pages[(int) (bucket >>> pageShift)][offsetOf(bucket) + slot] & 0xFF;
  }

  /** Empties a slot that holds a fingerprint. */
  void clearSlot(long bucket, int slot) {
    byte[] page = pages[(int) (bucket >>> pageShift)];
    int at = offsetOf(bucket) + slot;
    if (page[at] != 0) {
      page[at] = 0;
      occupied--;
    }
  }

  /** Empties every slot. */
  void clear() {
    for (byte[] page : pages) {
      Arrays.fill(page, (byte) 0);
    }
    occupied = 0;
  }

  /** Copies table bytes {@code offset .. offset+length-1} into {@code dst}. */
  void copyOut(long offset, byte[] dst, int dstOffset, int length) {
    transfer(offset, dst, dstOffset, length, false);
  }

  /**
   * Writes table bytes {@code offset .. offset+length-1}, in a table filled in order from its
   * first byte (every byte before {@code offset} already written). Each page grows only as its
   * bytes arrive: until it is whole it is at most twice as large as the bytes written into it,
   * so a dump that declares a huge table but stops early costs about what it delivered. Call
   * {@link #recount()} when the table is whole.
   */
  void fill(long offset, byte[] src, int srcOffset, int length) {
    transfer(offset, src, srcOffset, length, true);
  }

  private void transfer(long offset, byte[] other, int otherOffset, int length, boolean intoTable) {
    long pageBytes = (long) bucketSize << pageShift;
    while (length > 0) {
      int index = (int) (offset / pageBytes);
      int within = (int) (offset % pageBytes);
      int n = (int) Math.min(length, pageBytes - within);
      if (intoTable) {
        System.arraycopy(other, otherOffset, grown(index, within + n), within, n);
      } else {
        System.arraycopy(pages[index], within, other, otherOffset, n);
      }
      offset += n;
      otherOffset += n;
      length -= n;
    }
  }

  /** @return page {@code index}, grown if need be to at least {@code bytes} bytes (see {@link #fill}) */
  private byte[] grown(int index, int bytes) {
    byte[] page = pages[index];
    int have = page == null ? 0 : page.length;
    if (have < bytes) {
      int size = (int) Math.min((long) bucketSize << pageShift, Math.max(bytes, 2L * have));
      page = page == null ? new byte[size] : Arrays.copyOf(page, size);
      pages[index] = page;
    }
    return page;
  }

  /** Writes the table's bytes in order. */
  void writeTo(DataOutput out) throws IOException {
    for (byte[] page : pages) {
      out.write(page);
    }
  }

  /** Recounts the occupied slots after the bytes were written directly. */
  void recount() {
    long n = 0;
    for (byte[] page : pages) {
      for (byte b : page) {
        if (b != 0) {
          n++;
        }
      }
    }
    occupied = n;
  }

  private int offsetOf(long bucket) {
    return (int) (bucket & pageBucketMask) * bucketSize;
  }

  private int swap(long bucket, int slot, int fingerprint) {
    byte[] page = pages[(int) (bucket >>> pageShift)];
    int at = offsetOf(bucket) + slot;
    int out = page[at] & 0xFF;
    page[at] = (byte) fingerprint;
    return out;
  }

  private boolean storeInBucket(long bucket, byte fingerprint) {
    return replaceFirst(bucket, (byte) 0, fingerprint);
  }

  private boolean removeFromBucket(long bucket, byte fingerprint) {
    return replaceFirst(bucket, fingerprint, (byte) 0);
  }

  /** Replaces the first slot of the bucket holding {@code from} (0: empty) with {@code to}. */
  private boolean replaceFirst(long bucket, byte from, byte to) {
    byte[] page = pages[(int) (bucket >>> pageShift)];
    int start = offsetOf(bucket);
    for (int i = start, end = start + bucketSize; i < end; i++) {
      if (page[i] == from) {
        page[i] = to;
        occupied += from == 0 ? 1 : -1;
        return true;
      }
    }
    return false;
  }

  private boolean bucketHolds(long bucket, byte fingerprint) {
    return countInBucket(bucket, fingerprint, true) > 0;
  }

  /** @return the slots of the bucket holding the fingerprint, or just 1 on the first if {@code any} */
  private int countInBucket(long bucket, byte fingerprint, boolean any) {
    byte[] page = pages[(int) (bucket >>> pageShift)];
    int start = offsetOf(bucket);
    int n = 0;
    for (int i = start, end = start + bucketSize; i < end; i++) {
      if (page[i] == fingerprint) {
        n++;
        if (any) {
          break;
        }
      }
    }
    return n;
  }
}
