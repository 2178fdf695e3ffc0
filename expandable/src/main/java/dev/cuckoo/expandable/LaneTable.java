package dev.cuckoo.expandable;

import dev.cuckoo.engine.CuckooTable;
import dev.cuckoo.engine.SwarLanes;

/**
 * The table of an expandable filter at one size: {@code 2^k} buckets of {@code b} lanes of
 * {@code w} bits. Two layouts:
 *
 * <ul>
 *   <li>whole lanes ({@code w} = 16 or 32, {@code b} = 4 or 8, {@code extBits} 0): a bucket in
 *       {@code b·w/64} consecutive longs, lane {@code s} of a bucket in bits {@code [(s % L)·w,
 *       (s % L + 1)·w)} of its long {@code s / L} ({@code L = 64/w} lanes a long);
 *   <li>split lanes ({@code b} = 4, {@code w = 16 + x}, x = {@code extBits} 1..16): each lane's
 *       top 16 bits (its head) in the bucket's one long, bucket {@code i} in long {@code i} as
 *       whole 16-bit lanes are, and the low {@code x} bits after all the heads: one long holds
 *       those of {@code G = 16 / x} buckets (rounded down), bucket {@code i}'s in long {@code 2^k
 *       + i / G}, its lane {@code s}'s at bit {@code (4·(i mod G) + s)·x}. A lookup tests the
 *       heads exactly as it tests whole 16-bit lanes, and reads a lane's low bits only where a
 *       head matched (about 3 lookups in 10,000 for a key never added).
 * </ul>
 *
 * Its shape is fixed; {@link #grown} makes the table of twice as many buckets that the filter
 * goes on with, of the lane width its schedule gives that size.
 *
 * <p>A lane holds an entry, or {@link #empty} (1, or a head of 1 over low bits of 0). An entry is a 7-bit tag (1..127) in the lane's top
 * bits and, below it, a code of {@code w - 7} bits: the entry's fingerprint bits, left-aligned
 * and ended by a marker bit, its lowest set bit. A new entry has {@code w - 8} fingerprint bits
 * and its marker in bit 0; each doubling moves its first fingerprint bit into the bucket index,
 * shifting the code left by one, so an entry that has seen {@code a} doublings has its marker in
 * bit {@code a} (its age) and matches a key when its tag and its remaining bits equal the key's.
 * An exhausted entry (marker in the code's top bit) is its tag alone; a doubling puts a copy in
 * both halves. Empty lanes hold 1: a marker with tag 0, which no key has, so they never match,
 * and no lane is 0, which {@link SwarLanes#codeMismatch} needs.
 *
 * <p>Nothing here allocates but {@link #grown}. Not thread-safe.
 */
final class LaneTable implements CuckooTable {

  /*
   * The filter's algorithm is described in ExpandableFilter. Here: how a key's 64-bit hash h
   * becomes a bucket, a tag and a code, at table size 2^k.
   *
   *   bits of h, from the top:  [ k bits: bucket ][ w-8 bits: fingerprint ] ... [ 8 bits: tag ]
   *
   * The bucket is the top k bits of h, so doubling the table splits bucket i into 2i and 2i+1 by
   * the next bit, which every entry holds as the first bit of its code. The tag comes from the
   * low 8 bits, mapped by multiply-shift onto 1..127 (2 or 3 of the 256 values each), and never
   * changes.
   *
   * Why 7 bits of tag and 8 of fingerprint in a 16-bit lane, not 4 and 11: a key matches an
   * entry of age a with probability 2^a / (T · 2^f), T tags and f fingerprint bits, and T · 2^f
   * is 2^15 · (1 - 2^-t) for t tag bits, as tag 0 marks the empty lane. 4 bits give away 6.25%
   * of the lane's discrimination, 7 bits 0.8%: the false-positive rate, which every doubling
   * raises by the same step, is 5.8% lower at every size (measured: 0.157% -> 0.148% at 16.7M
   * keys from a start of 4,096). The cost is that entries run out of fingerprint bits after 8
   * doublings rather than 11, and their copies (see ExpandableFilter) take 0.2% of the slots
   * for each generation of keys that has run out. More offsets also make the partner graph
   * below closer to a random one.
   *
   * The second bucket follows from the first and the tag alone, so that entries move between
   * their buckets without their key, as in partial-key cuckoo hashing [1]: each tag t has a
   * fixed 64-bit offset OFF[t] (top bit set), and a key's second bucket is the top k bits of
   * (h ^ OFF[t]), i.e. i XOR (OFF[t] >>> (64 - k)). XOR keeps both candidates of a key on the
   * same side of every later split, if an entry carries the next address bits of the bucket it
   * sits in: its code bits are those of h in its first bucket and of h ^ OFF[t] in its second,
   * which differ by the bits of OFF[t] below the top k (the "slice"). So a doubling sends every
   * entry to exactly one child of its bucket by its own first code bit, whichever of its key's
   * two buckets it sits in, and the split needs no kicks: each child gets at most the b entries
   * of its parent. A move between a key's buckets XORs the slice into the code bits above the
   * marker (movedEntry). This is the fixed "alternate range" of the vacuum filter [2] taken to
   * the whole virtual address: what stays fixed is the pair in the 64-bit hash space, not a
   * window of the table.
   *
   * The top bit of every offset is set, so the two buckets of a key always differ. The 127
   * offsets generate the buckets' partner graph (with 15 offsets, as the first design had, a
   * hypercube of up to 2^15 buckets per component already held 95% in buckets of 4 like a random
   * graph: the first kick failure came at 0.945..0.963 of the slots from 2^10 to 2^22 buckets).
   *
   * Fingerprint bits come from h's bits just below the bucket's, down to bit 8. A table that one
   * array holds never runs out of them, but a new entry of a larger one would get only the bits
   * left: it would start aged (freshAge).
   *
   * A lookup takes everything that depends on the tag from one long of a 256-entry array indexed
   * by h's low byte (byLowByte): the partner XOR, the slice, and the tag's bits of the lane.
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
   *     Better Than Bloom", CoNEXT 2014.
   * [2] M. Wang, M. Zhou, S. Shi, C. Qian, "Vacuum Filters: More Space-Efficient and Faster
   *     Replacement for Bloom and Cuckoo Filters", PVLDB 13(2), 2019.
   */

  /** Bits of a lane's tag. */
  static final int TAG_BITS = 7;
  /** Tags there are: 1..TAGS (0 is the empty lane's). */
  static final int TAGS = (1 << TAG_BITS) - 1;
  /** Shifts a hash's bits below the bucket's down to a 16-bit lane's code bits. */
  private static final int SHORT_CODE_SHIFT = Long.SIZE - (16 - TAG_BITS);
  /** Low hash bits the tag comes from: fingerprint bits stop above them. */
  static final int TAG_SOURCE_BITS = 8;
  /** An empty lane. */
  static final int EMPTY = 1;
  /** The longest long[] a JVM allocates. */
  static final long MAX_WORDS = Integer.MAX_VALUE - 8;

  /** The offset of each tag's second bucket, fixed forever (files depend on it). */
  private static final long[] OFFSETS = new long[1 << TAG_BITS];

  static {
    for (int t = 1; t < OFFSETS.length; t++) {
      // SplitMix64's finalizer of t·(2^64/φ): well spread, and the top bit forced on.
      long z = t * 0x9E3779B97F4A7C15L;
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      OFFSETS[t] = (z ^ (z >>> 31)) | Long.MIN_VALUE;
    }
  }

  private static final long LO16 = 0x0001_0001_0001_0001L;
  private static final long HI16 = 0x8000_8000_8000_8000L;
  private static final long LOW16 = 0x7FFF_7FFF_7FFF_7FFFL;
  /** Head bits of a split lane: a whole 16-bit lane's worth. */
  private static final int HEAD_BITS = LaneSchedule.HEAD_BITS;
  /** A group of whole lanes never ends: every bucket is in group 0. */
  private static final long ONE_GROUP = 1L << 31;

  /** Bits of a lane: its head's and its low bits'. */
  final int laneBits;
  /** Bits of a lane kept in its bucket's long(s): the whole lane, or 16 of a split one. */
  final int headBits;
  /** Bits of a split lane beside its head, 0 for whole lanes. */
  final int extBits;
  final int slots;
  final int lanesPerWord;
  final int wordsPerBucket;
  /** Bits of the code: fingerprint bits and the marker. */
  final int codeBits;
  /** Fingerprint bits of an entry of age 0. */
  final int fingerprintBits;
  /** A lane's bits (as a long, so that 32-bit lanes stay unsigned). */
  final long laneMask;
  final int codeMask;
  /** An empty lane: a marker with tag 0, in the head's bit 0. */
  final int empty;
  /** Bit 0, the top bit, and all but the top bit of every head lane of a long. */
  private final long lo;
  private final long hi;
  private final long low;
  /** Whether lanes have 16-bit heads in buckets of 4 (whole or split), as {@link #containsHeads} serves. */
  final boolean sixteenBitHeads;
  /** Buckets whose low bits one long holds (split lanes), or {@link #ONE_GROUP}. */
  private final long groupBuckets;
  /** {@code ceil(2^62 / groupBuckets)}: a bucket's group is a multiply-high, not a division. */
  private final long groupMagic;
  private final int extMask;

  /** log2 of the bucket count, at least 1. */
  final int k;
  private final int shift;
  final long[] words;
  /**
   * Per tag, in one long so that a lookup loads one: the XOR from a key's first bucket to its
   * second (high 32 bits) and from an entry's code in one bucket to its code in the other, the
   * slice (low 32 bits).
   */
  private final long[] partner = new long[1 << TAG_BITS];
  /**
   * Per value of a hash's low byte, for the lookup of 16-bit heads in buckets of 4: its tag's
   * partner XOR (high 32 bits), the slice's head bits (bits 16..31) and the head's bits above
   * the hash's (low 16 bits: the tag, and the marker of a whole lane).
   */
  private final long[] byLowByte;
  /** The age of a new entry: 0 unless the hash has too few bits left for a full code. */
  final int freshAge;

  /**
   * Creates an empty table of whole lanes.
   *
   * @param laneBits 16 or 32
   * @param slots 4 or 8
   * @param k log2 of the bucket count, 1..{@link #maxK}
   */
  LaneTable(int laneBits, int slots, int k) {
    this(laneBits, 0, slots, k, null);
  }

  /**
   * @param headBits 16 or 32: the lane's bits in its bucket's words
   * @param extBits 0, or 1..16 beside 16-bit heads in buckets of 4
   * @param slots 4 or 8
   * @param k log2 of the bucket count, 1..{@link #maxK}
   * @param words the table's longs (read from a file, say), or {@code null} for an empty table
   */
  LaneTable(int headBits, int extBits, int slots, int k, long[] words) {
    if (extBits != 0 && (headBits != HEAD_BITS || slots != 4 || extBits > LaneSchedule.MAX_EXT_BITS || extBits < 0)) {
      throw new IllegalArgumentException(extBits + " low bits beside " + headBits + "-bit heads in buckets of " + slots);
    }
    this.headBits = headBits;
    this.extBits = extBits;
    this.laneBits = headBits + extBits;
    this.slots = slots;
    this.lanesPerWord = Long.SIZE / headBits;
    this.wordsPerBucket = slots / lanesPerWord;
    this.codeBits = laneBits - TAG_BITS;
    this.fingerprintBits = codeBits - 1;
    this.laneMask = (1L << laneBits) - 1;
    this.codeMask = (1 << codeBits) - 1;
    this.empty = 1 << extBits;
    this.extMask = (1 << extBits) - 1;
    long headMask = (1L << headBits) - 1;
    this.lo = SwarLanes.repeat(1, headBits, lanesPerWord);
    this.hi = lo << (headBits - 1);
    this.low = SwarLanes.repeat(headMask >>> 1, headBits, lanesPerWord);
    this.sixteenBitHeads = headBits == HEAD_BITS && slots == 4;
    this.groupBuckets = groupBuckets(extBits);
    this.groupMagic = Long.divideUnsigned(1L << 62, groupBuckets) + 1;
    if (k < 1 || k > maxK(headBits, extBits, slots)) {
      throw new IllegalArgumentException("a table of 2^" + k + " buckets is out of range");
    }
    this.k = k;
    this.shift = Long.SIZE - k;
    long length = wordCount(headBits, extBits, slots, k);
    if (words == null) {
      words = new long[(int) length];
      fillEmpty(words);
    } else if (words.length != length) {
      throw new IllegalArgumentException(words.length + " words do not hold 2^" + k + " buckets");
    }
    this.words = words;
    for (int t = 1; t < OFFSETS.length; t++) {
      long slice = (OFFSETS[t] << k) >>> (Long.SIZE - fingerprintBits) << 1;
      partner[t] = (OFFSETS[t] >>> shift) << Integer.SIZE | slice;
    }
    byLowByte = new long[sixteenBitHeads ? 1 << TAG_SOURCE_BITS : 0];
    int headCodeBits = codeBits - extBits;
    for (int b = 0; b < byLowByte.length; b++) {
      int t = tag(b);
      long p = partner[t];
      // A whole lane's pattern carries the marker; a split lane's head has only code bits.
      byLowByte[b] = (p >>> Integer.SIZE) << Integer.SIZE | ((p & 0xFFFF_FFFFL) >>> extBits & 0xFFFF) << 16
          | (long) t << headCodeBits | (extBits == 0 ? 1 : 0);
    }
    this.freshAge = freshAge(laneBits, k);
  }

  /** @return buckets a group of split lanes with these low bits, or {@link #ONE_GROUP} */
  private static long groupBuckets(int extBits) {
    return extBits == 0 ? ONE_GROUP : LaneSchedule.MAX_EXT_BITS / extBits;
  }

  /** Fills a table's longs with empty lanes: heads of 1, low bits of 0. */
  private void fillEmpty(long[] w) {
    java.util.Arrays.fill(w, 0, headWords(), lo);
    java.util.Arrays.fill(w, headWords(), w.length, 0);
  }

  /** @return the longs of heads (of whole lanes), which come first: the low bits follow them */
  private int headWords() {
    return (int) (buckets() * wordsPerBucket);
  }

  /** @return the long that holds a bucket's low bits */
  private int lowBitsWord(long bucket) {
    return (int) ((1L << k) + group(bucket));
  }

  /** @return the group of a bucket: {@code bucket / groupBuckets} */
  private long group(long bucket) {
    return Math.multiplyHigh(bucket << 2, groupMagic);
  }

  /** @return the age of a new entry in a table of 2^k buckets of such lanes */
  static int freshAge(int laneBits, int k) {
    return Math.max(0, k + laneBits - TAG_BITS - 1 - (Long.SIZE - TAG_SOURCE_BITS));
  }

  /** @return the longs a table of this shape takes */
  static long wordCount(int headBits, int extBits, int slots, int k) {
    if (extBits == 0) {
      return (1L << k) * slots * headBits / Long.SIZE;
    }
    long g = groupBuckets(extBits);
    return (1L << k) + ((1L << k) + g - 1) / g;
  }

  /** @return the longs a table of whole lanes takes */
  static long wordCount(int laneBits, int slots, int k) {
    return wordCount(laneBits, 0, slots, k);
  }

  /** @return the largest k whose table fits in one long[] */
  static int maxK(int headBits, int extBits, int slots) {
    int k = 1;
    while (wordCount(headBits, extBits, slots, k + 1) <= MAX_WORDS) {
      k++;
    }
    return k;
  }

  /** @return the largest k whose table of whole lanes fits in one long[] */
  static int maxK(int laneBits, int slots) {
    return maxK(laneBits, 0, slots);
  }

  /** @return the bucket count, 2^k */
  long buckets() {
    return 1L << k;
  }

  // ---------------------------------------------------------------- keys to buckets

  @Override
  public long bucketCount() {
    return 1L << k;
  }

  @Override
  public int slotsPerBucket() {
    return slots;
  }

  @Override
  public long bucketIndex(long keyHash) {
    return keyHash >>> shift;
  }

  /** @return the key's tag, 1..{@link #TAGS}, from the hash's low 8 bits */
  static int tag(long keyHash) {
    return (((int) (keyHash & 0xFF) * TAGS) >>> TAG_SOURCE_BITS) + 1;
  }

  /**
   * The key's full-length entry in its first bucket: tag, all fingerprint bits, marker in bit 0.
   * A lookup compares it with every entry; a new entry is it aged by {@link #freshAge}.
   */
  @Override
  public int fingerprint(long keyHash) {
    // The code bits below the fingerprint's are h's next bit, then the marker 1 over it.
    return tag(keyHash) << codeBits | (int) ((keyHash << k) >>> (Long.SIZE - codeBits)) | 1;
  }

  /** @return the entry a new key stores in its first bucket */
  int freshEntry(long keyHash) {
    return aged(fingerprint(keyHash), freshAge);
  }

  /** @return the entry with its marker moved up to bit {@code age} (bits below it cleared) */
  int aged(int entry, int age) {
    int code = entry & codeMask;
    int kept = code >>> age >>> 1 << 1 | 1;
    return (entry & ~codeMask) | (kept << age);
  }

  /** @return the bucket's partner for an entry with this tag */
  @Override
  public long alternate(long bucket, int fingerprint) {
    return bucket ^ partner[fingerprint >>> codeBits] >>> Integer.SIZE;
  }

  @Override
  public int fingerprintOf(long entry) {
    return (int) entry;
  }

  /** XORs the slice into the code bits above the marker: an involution, as required. */
  @Override
  public long movedEntry(long entry) {
    int e = (int) entry;
    int code = e & codeMask;
    int above = ~(code ^ (code - 1)) & codeMask;
    return Integer.toUnsignedLong(e ^ ((int) partner[e >>> codeBits] & above));
  }

  /**
   * @return the entry's age: its marker's place, 0 for a new entry of this table, {@link
   *     #fingerprintBits} if exhausted (an entry gives up one fingerprint bit a doubling, and
   *     wider lanes add padding below its marker)
   */
  int age(int entry) {
    return Integer.numberOfTrailingZeros(entry & codeMask);
  }

  /** @return whether a lane value is a well-formed entry: a tag, and a marker in its code */
  boolean isEntry(long lane) {
    return lane >= 0 && lane <= laneMask && (lane >>> codeBits) != 0 && (lane & codeMask) != 0;
  }

  // ---------------------------------------------------------------- lookups

  /**
   * The lookup of 16-bit heads in buckets of 4, whole or split lanes: one SWAR test of both
   * buckets' heads, each head compared with the key's over the bits above its own lowest set
   * bit. For a whole lane, or a split one whose marker is in its head, that is the lane's own
   * test; for a split lane whose marker is in its low bits it compares fewer bits than the lane
   * holds, so it never fails a key the lane matches, and where it passes, the whole lanes are
   * compared. One long per bucket, one SWAR test for both.
   */
  boolean containsHeads(long keyHash) {
    long bucket1 = keyHash >>> shift;
    long byTag = byLowByte[(int) keyHash & 0xFF];
    long p1 = ((byTag & 0xFFFF) | ((keyHash << k) >>> SHORT_CODE_SHIFT)) * LO16;
    long p2 = p1 ^ (byTag >>> 16 & 0xFFFF) * LO16;
    long bucket2 = bucket1 ^ byTag >>> Integer.SIZE;
    // Both words are loaded before either is tested, so the two cache misses overlap.
    long x1 = words[(int) bucket1];
    long x2 = words[(int) bucket2];
    long m1 = SwarLanes.codeMismatch(x1, p1, LO16);
    long m2 = SwarLanes.codeMismatch(x2, p2, LO16);
    if (SwarLanes.anyZero(m1, m2, LO16, HI16) == 0) {
      return false;
    }
    if (extBits == 0) {
      return true;
    }
    int pattern = fingerprint(keyHash);
    return lowBitsMatch(bucket1, x1, SwarLanes.zeroLanes(m1, LOW16, HI16), pattern)
        || lowBitsMatch(bucket2, x2, SwarLanes.zeroLanes(m2, LOW16, HI16), (int) movedEntry(pattern));
  }

  /**
   * Whether a lane whose head passed the lookup's test matches the key's entry whole, its low
   * bits read from the bucket's group.
   *
   * @param heads the bucket's heads
   * @param passed the top bit of each head that passed
   * @param pattern the key's {@link #fingerprint} as this bucket stores it
   */
  private boolean lowBitsMatch(long bucket, long heads, long passed, int pattern) {
    if (passed == 0) {
      return false;
    }
    long low = words[lowBitsWord(bucket)] >>> lowBitsAt(bucket, 0);
    for (long left = passed; left != 0; left &= left - 1) {
      if (matches(joined(heads, low, Long.numberOfTrailingZeros(left) / HEAD_BITS), pattern)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean containsHash(long keyHash) {
    if (sixteenBitHeads) {
      return containsHeads(keyHash);
    }
    long bucket1 = keyHash >>> shift;
    int p1 = fingerprint(keyHash);
    return contains(bucket1, alternate(bucket1, p1), p1);
  }

  /**
   * @param fingerprint the key's {@link #fingerprint} in {@code bucket1}
   */
  @Override
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    return matchCount(bucket1, fingerprint) != 0 || matchCount(bucket2, (int) movedEntry(fingerprint)) != 0;
  }

  @Override
  public int count(long bucket1, long bucket2, int fingerprint) {
    return matchCount(bucket1, fingerprint) + matchCount(bucket2, (int) movedEntry(fingerprint));
  }

  /** @return how many entries of the bucket match the key's entry for that bucket */
  private int matchCount(long bucket, int pattern) {
    int n = 0;
    if (extBits != 0) {
      for (int s = 0; s < slots; s++) {
        n += matches(lane(bucket, s), pattern) ? 1 : 0;
      }
      return n;
    }
    long p = Integer.toUnsignedLong(pattern) * lo;
    int w = (int) bucket * wordsPerBucket;
    for (int i = 0; i < wordsPerBucket; i++) {
      n += Long.bitCount(SwarLanes.zeroLanes(SwarLanes.codeMismatch(words[w + i], p, lo), low, hi));
    }
    return n;
  }

  /**
   * The slot of the entry with the most fingerprint bits among those of the bucket that match
   * the key's entry for it and are younger than {@code ageBound}.
   *
   * @param pattern the key's {@link #fingerprint} as this bucket stores it
   * @param ageBound only entries of a lower age count
   * @return the slot, or -1 if no entry counts
   */
  int longestMatch(long bucket, int pattern, int ageBound) {
    int best = -1;
    int bestAge = ageBound;
    for (int s = 0; s < slots; s++) {
      int e = lane(bucket, s);
      if (matches(e, pattern) && age(e) < bestAge) {
        best = s;
        bestAge = age(e);
      }
    }
    return best;
  }

  /** @return whether one entry matches the key's entry {@code pattern} */
  boolean matches(int entry, int pattern) {
    int code = entry & codeMask;
    return ((entry ^ pattern) & ~(code ^ (code - 1)) & laneMask) == 0;
  }

  // ---------------------------------------------------------------- slots

  /** @return the lane's raw value: an entry, or {@link #empty} */
  int lane(long bucket, int slot) {
    if (extBits == 0) {
      int w = (int) bucket * wordsPerBucket + slot / lanesPerWord;
      return (int) ((words[w] >>> (slot % lanesPerWord * laneBits)) & laneMask);
    }
    return joined(words[(int) bucket], words[lowBitsWord(bucket)] >>> lowBitsAt(bucket, 0), slot);
  }

  /**
   * @param heads a bucket's heads
   * @param low its lanes' low bits, lane 0's lowest
   * @return lane {@code slot} of a bucket of split lanes, head and low bits together
   */
  private int joined(long heads, long low, int slot) {
    return ((int) (heads >>> (slot * HEAD_BITS)) & 0xFFFF) << extBits | ((int) (low >>> (slot * extBits)) & extMask);
  }

  /** @return where in its long a bucket's lane's low bits start */
  private int lowBitsAt(long bucket, int slot) {
    return ((int) (bucket - group(bucket) * groupBuckets) * slots + slot) * extBits;
  }

  void setLane(long bucket, int slot, int value) {
    if (extBits == 0) {
      int w = (int) bucket * wordsPerBucket + slot / lanesPerWord;
      int at = slot % lanesPerWord * laneBits;
      words[w] = (words[w] & ~(laneMask << at)) | (Integer.toUnsignedLong(value) << at);
      return;
    }
    int hw = (int) bucket;
    int at = slot * HEAD_BITS;
    words[hw] = (words[hw] & ~(0xFFFFL << at)) | (Integer.toUnsignedLong(value) >>> extBits << at);
    int ew = lowBitsWord(bucket);
    int lowAt = lowBitsAt(bucket, slot);
    words[ew] = (words[ew] & ~((long) extMask << lowAt)) | ((long) (value & extMask) << lowAt);
  }

  @Override
  public long entryAt(long bucket, int slot) {
    int e = lane(bucket, slot);
    return e == empty ? 0 : Integer.toUnsignedLong(e);
  }

  /** @return the slot of the first lane equal to {@code value}, or -1 */
  private int find(long bucket, int value) {
    if (extBits != 0) {
      for (int s = 0; s < slots; s++) {
        if (lane(bucket, s) == value) {
          return s;
        }
      }
      return -1;
    }
    long p = Integer.toUnsignedLong(value) * lo;
    int w = (int) bucket * wordsPerBucket;
    for (int i = 0; i < wordsPerBucket; i++) {
      long z = SwarLanes.zeroLanes(words[w + i] ^ p, low, hi);
      if (z != 0) {
        return i * lanesPerWord + Long.numberOfTrailingZeros(z) / laneBits;
      }
    }
    return -1;
  }

  @Override
  public boolean insert(long bucket, long entry) {
    int slot = find(bucket, empty);
    if (slot < 0) {
      return false;
    }
    setLane(bucket, slot, (int) entry);
    return true;
  }

  @Override
  public long evict(long bucket, int slot, long entry) {
    int old = lane(bucket, slot);
    setLane(bucket, slot, (int) entry);
    return Integer.toUnsignedLong(old);
  }

  @Override
  public void replace(long bucket, long entry, long replacement) {
    int slot = find(bucket, (int) entry);
    if (slot < 0) {
      throw new IllegalStateException("bucket " + bucket + " does not hold entry " + Long.toHexString(entry));
    }
    setLane(bucket, slot, (int) replacement);
  }

  @Override
  public boolean remove(long bucket, long entry) {
    int slot = find(bucket, (int) entry);
    if (slot < 0) {
      return false;
    }
    setLane(bucket, slot, empty);
    return true;
  }

  @Override
  public void clear() {
    fillEmpty(words);
  }

  /** @return the occupied lanes, counted by their heads (an empty lane's head is 1) */
  long occupiedSlots() {
    long emptyLanes = 0;
    for (int i = 0; i < headWords(); i++) {
      emptyLanes += Long.bitCount(SwarLanes.zeroLanes(words[i] ^ lo, low, hi));
    }
    return buckets() * slots - emptyLanes;
  }

  // ---------------------------------------------------------------- growth

  /**
   * The table of twice the buckets holding every entry: bucket {@code i}'s entries go to bucket
   * {@code 2i} or {@code 2i + 1} by their first fingerprint bit, which leaves their code, and
   * take {@code nextExtBits - extBits} more bits of padding below their marker; exhausted
   * entries go to both. This table is left as it was.
   *
   * @param nextExtBits the low bits of the new table's lanes, at least this table's
   * @return the new table
   * @throws OutOfMemoryError if its array cannot be allocated
   */
  LaneTable grown(int nextExtBits) {
    if (nextExtBits < extBits) {
      throw new IllegalArgumentException("lanes narrow from " + extBits + " to " + nextExtBits + " low bits");
    }
    if (extBits == 0 && nextExtBits == 0) {
      return grownWhole();
    }
    LaneTable next = new LaneTable(headBits, nextExtBits, slots, k + 1, null);
    int widen = nextExtBits - extBits;
    int[] left = new int[slots];
    int[] right = new int[slots];
    // Bucket by bucket in the order they lie, the low bits of a group's buckets in one long.
    long b = 0;
    for (long q = 0; b < buckets(); q++) {
      long lows = extBits == 0 ? 0 : words[(int) ((1L << k) + q)];
      for (int j = 0; j < groupBuckets && b < buckets(); j++, b++) {
        long heads = words[(int) b];
        long low = lows >>> (j * slots * extBits);
        java.util.Arrays.fill(left, next.empty);
        java.util.Arrays.fill(right, next.empty);
        for (int s = 0; s < slots; s++) {
          int e = joined(heads, low, s);
          if (e == empty) {
            continue;
          }
          // Each child has as many lanes as its parent has entries at most: an entry keeps its slot.
          if (isExhausted(e)) {
            left[s] = widened(e, widen);
            right[s] = left[s];
          } else if (grownBucket(b, e) == 2 * b) {
            left[s] = grownEntry(e, widen);
          } else {
            right[s] = grownEntry(e, widen);
          }
        }
        next.setBucket(2 * b, left);
        next.setBucket(2 * b + 1, right);
      }
    }
    return next;
  }

  /** Writes every lane of a bucket of split lanes (or of 16-bit heads with no low bits). */
  private void setBucket(long bucket, int[] lanes) {
    long heads = 0;
    long low = 0;
    for (int s = 0; s < slots; s++) {
      heads |= Integer.toUnsignedLong(lanes[s]) >>> extBits << (s * HEAD_BITS);
      low |= (long) (lanes[s] & extMask) << (s * extBits);
    }
    words[(int) bucket] = heads;
    if (extBits != 0) {
      int ew = lowBitsWord(bucket);
      int at = lowBitsAt(bucket, 0);
      long mask = slots * extBits == Long.SIZE ? -1L : (1L << (slots * extBits)) - 1;
      words[ew] = (words[ew] & ~(mask << at)) | (low << at);
    }
  }

  /** {@link #grown} of whole lanes to whole lanes of the same width, a few operations a word. */
  private LaneTable grownWhole() {
    long[] next = new long[Math.toIntExact(2L * words.length)];
    // Each child has as many lanes as its parent has entries at most, so an entry keeps its
    // lane: word j of bucket i becomes word j of buckets 2i and 2i+1, and a word splits in a
    // few operations on all its lanes at once.
    long codes = SwarLanes.repeat(codeMask, laneBits, lanesPerWord);
    long firstBits = lo << (codeBits - 1);
    int top = codeBits - 1;
    for (int w = 0; w < words.length; w++) {
      long x = words[w];
      long emptyLanes = full(SwarLanes.zeroLanes(x ^ lo, low, hi) >>> (laneBits - 1));
      long exhausted = full(SwarLanes.zeroLanes((x & codes) ^ firstBits, low, hi) >>> (laneBits - 1));
      long right = full((x & firstBits) >>> top) & ~exhausted;
      long left = ~(right | exhausted | emptyLanes);
      long aged = (x & ~codes) | ((x & codes) << 1 & codes);
      int bucket = w / wordsPerBucket;
      int at = 2 * bucket * wordsPerBucket + w % wordsPerBucket;
      next[at] = (aged & left) | (x & exhausted) | (lo & ~(left | exhausted));
      next[at + wordsPerBucket] = (aged & right) | (x & exhausted) | (lo & ~(right | exhausted));
    }
    return new LaneTable(headBits, 0, slots, k + 1, next);
  }

  /** @return every lane of {@code x} whose bit 0 is set, filled with ones */
  private long full(long x) {
    return (x & lo) * laneMask;
  }

  /**
   * Where an entry of bucket {@code bucket} goes when the table doubles: the child bucket,
   * and the entry as it sits there (for the stash, which grows as the table does).
   *
   * @return the child bucket; its entry is {@link #grownEntry}
   */
  long grownBucket(long bucket, int entry) {
    return childBucket(bucket, entry, codeBits);
  }

  /** @return the child bucket a doubling sends an entry with a code of {@code codeBits} bits to */
  static long childBucket(long bucket, int entry, int codeBits) {
    return 2 * bucket + ((entry & ((1 << codeBits) - 1)) >>> (codeBits - 1));
  }

  /** @return the entry, of a code of {@code codeBits} bits, with its first fingerprint bit given up */
  static int agedOnce(int entry, int codeBits) {
    int mask = (1 << codeBits) - 1;
    return (entry & ~mask) | ((entry & mask) << 1 & mask);
  }

  /** @return whether an entry with a code of {@code codeBits} bits has no fingerprint bits left */
  static boolean exhausted(int entry, int codeBits) {
    return (entry & ((1 << codeBits) - 1)) == 1 << (codeBits - 1);
  }

  /**
   * @param widen the bits the lanes of the doubled table have more
   * @return a non-exhausted entry as it sits in its child bucket after a doubling
   */
  int grownEntry(int entry, int widen) {
    return reshaped(agedOnce(entry, codeBits), codeBits, codeBits + widen);
  }

  /** @return an exhausted entry in lanes {@code widen} bits wider */
  int widened(int entry, int widen) {
    return reshaped(entry, codeBits, codeBits + widen);
  }

  /**
   * An entry re-encoded for a code of another width, matching every key it matched: a wider
   * code adds padding below the marker; a narrower one drops padding, then, if it must, the
   * last fingerprint bits (so that a merge can take entries of any lane width).
   *
   * @param entry a lane with a code of {@code from} bits
   * @return the lane with a code of {@code to} bits
   */
  static int reshaped(int entry, int from, int to) {
    int tag = entry >>> from;
    int code = entry & ((1 << from) - 1);
    if (to >= from) {
      return tag << to | code << (to - from);
    }
    int dropped = from - to;
    int kept = code >>> dropped;
    if (Integer.numberOfTrailingZeros(code) < dropped) {
      kept = kept | 1; // the marker fell off: the lowest kept bit becomes it
    }
    return tag << to | kept;
  }

  /** @return whether the entry has no fingerprint bits left */
  boolean isExhausted(int entry) {
    return exhausted(entry, codeBits);
  }

  /** @return the probability that an entry of this age matches a random key in its bucket */
  double matchProbability(int age) {
    return Math.scalb(1.0, age - fingerprintBits) / TAGS;
  }
}
