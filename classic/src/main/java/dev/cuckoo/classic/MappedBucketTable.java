package dev.cuckoo.classic;

import dev.cuckoo.engine.MappedWords;
import dev.cuckoo.engine.SwarLanes;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;

/**
 * A {@link PackedBucketTable} whose bit string is a mapped file's words ({@link MappedWords})
 * rather than an array: the table of a filter {@code CuckooFilters.open} or {@code createFile}
 * returns, of any shape. It searches buckets as its superclass does, and reads and writes the
 * payload layout where it lies. Where the width is a power of two no window straddles two words,
 * and a window is one load.
 */
final class MappedBucketTable extends PackedBucketTable {
  private static final long[] NO_WORDS = {};

  private final MappedWords mapped;
  /** Whether no window straddles two words: the width is a power of two. */
  private final boolean wordAligned;
  /** Whether a bucket is one word of four 16-bit slots, searched as {@link ShortBucketTable} does. */
  private final boolean shortBuckets;

  MappedBucketTable(long bucketCount, int slots, int bits, MappedWords mapped) {
    super(bucketCount, slots, bits, NO_WORDS, mapped.length() * Long.BYTES);
    if (mapped.length() != payloadWords(bucketCount, slots, bits)) {
      throw new IllegalArgumentException(
          mapped.length() + " words do not hold " + bucketCount + " buckets of " + slots + " " + bits + "-bit slots");
    }
    this.mapped = mapped;
    this.wordAligned = Integer.bitCount(bits) == 1;
    this.shortBuckets = slots == 4 && bits == 16;
  }

  /** {@inheritDoc} For 16-bit buckets of 4, as the heap's fast path does: a word per bucket, one test. */
  @Override
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    if (shortBuckets) {
      return ShortBucketTable.eitherHolds(mapped.get(bucket1), mapped.get(bucket2), fingerprint);
    }
    return super.contains(bucket1, bucket2, fingerprint);
  }

  @Override
  long window(long offset) {
    return wordAligned ? mapped.get(offset >>> 6) >>> offset : mapped.window(offset);
  }

  /**
   * Looks up a block of key hashes in two passes, as {@link ShortBucketTable#containsHashes}
   * does: first both buckets of every key, whose loads are independent of one another, so that
   * their page-cache misses overlap; then the tests. Shapes whose bucket is more than one window
   * look up key by key.
   *
   * @param hashes the hashes, in {@code [0, n)}
   * @param n how many
   * @param scratch at least {@code 2n} longs
   * @param results where answer {@code i} goes, at {@code at + i}
   * @param at where the block's answers start
   * @return how many are true
   */
  int containsHashes(long[] hashes, int n, long[] scratch, boolean[] results, int at) {
    int found = 0;
    if (windows != 1) {
      for (int i = 0; i < n; i++) {
        boolean r = containsHash(hashes[i]);
        results[at + i] = r;
        found += r ? 1 : 0;
      }
      return found;
    }
    for (int i = 0; i < n; i++) {
      long keyHash = hashes[i];
      long bucket1 = bucketIndex(keyHash);
      int fingerprint = fingerprint(keyHash);
      long pattern = (fingerprint & 0xFFFF_FFFFL) * lo;
      long bucket2 = alternate(bucket1, fingerprint);
      scratch[2 * i] = (shortBuckets ? mapped.get(bucket1) : window(bucket1 * bucketBits)) ^ pattern;
      scratch[2 * i + 1] = (shortBuckets ? mapped.get(bucket2) : window(bucket2 * bucketBits)) ^ pattern;
    }
    for (int i = 0; i < n; i++) {
      boolean r = (SwarLanes.anyZero(scratch[2 * i], lo, hi) | SwarLanes.anyZero(scratch[2 * i + 1], lo, hi)) != 0;
      results[at + i] = r;
      found += r ? 1 : 0;
    }
    return found;
  }

  @Override
  void write(long offset, int value) {
    mapped.write(offset, value, -1L >>> (64 - bits));
  }

  @Override
  long tableBytes() {
    return mapped.length() * Long.BYTES;
  }

  @Override
  long payloadWord(long index) {
    return mapped.get(index);
  }

  @Override
  void writePayloadWords(PayloadOutput out) throws IOException {
    for (long i = 0; i < mapped.length(); i++) {
      out.writeLong(mapped.get(i));
    }
  }

  @Override
  boolean tailIsClear() {
    return mapped.isClearFrom(bucketCount * slots * bits);
  }

  @Override
  public void clear() {
    mapped.clear();
  }
}
