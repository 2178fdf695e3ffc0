package dev.cuckoo.semisorted;

import dev.cuckoo.engine.MappedWords;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;

/**
 * A {@link SemiSortedTable} of any width whose bit string is a mapped file's words ({@link
 * MappedWords}) rather than an array: the table of a filter {@code CuckooFilters.open} or {@code
 * createFile} returns. Its buckets are written as every semi-sorted table writes them; a lookup
 * decodes the two buckets' sort keys and compares, where the heap tables search lanes of an
 * array.
 *
 * <p>Opening a file does not check every bucket's code, as reading one does, so a forged code
 * above the last one ({@link SemiSortCodec#CODES}) is decoded as code 0 (four empty nibbles)
 * rather than read past the codec's table; {@code verify()} reports it.
 */
final class MappedSemiSortedTable extends SemiSortedTable {
  private static final long[] NO_WORDS = {};

  private final MappedWords mapped;

  MappedSemiSortedTable(long bucketCount, int bits, MappedWords mapped) {
    super(bucketCount, bits, NO_WORDS, mapped.length() * Long.BYTES);
    if (bits < MIN_BITS || bits > MAX_BITS || mapped.length() != payloadWords(bucketCount, bits)) {
      throw new IllegalArgumentException(mapped.length() + " words do not hold " + bucketCount
          + " semi-sorted buckets of " + bits + "-bit fingerprints");
    }
    this.mapped = mapped;
  }

  @Override
  long window(long offset) {
    return mapped.window(offset);
  }

  @Override
  void write(long offset, long value, long mask) {
    mapped.write(offset, value, mask);
  }

  @Override
  int decodable(int code) {
    return code < SemiSortCodec.CODES ? code : 0;
  }

  @Override
  public boolean contains(long bucket1, long bucket2, int fingerprint) {
    return count(bucket1, bucket2, fingerprint) != 0;
  }

  @Override
  public int count(long bucket1, long bucket2, int fingerprint) {
    return matches(bucket1, sortKey(fingerprint)) + matches(bucket2, sortKey(fingerprint));
  }

  private int matches(long bucket, long sortKey) {
    long o = offset(bucket);
    int nibbles = nibblesAt(o);
    int n = 0;
    for (int slot = 0; slot < SLOTS; slot++) {
      n += sortKeyAt(o, nibbles, slot) == sortKey ? 1 : 0;
    }
    return n;
  }

  @Override
  long tableBytes() {
    return mapped.length() * Long.BYTES;
  }

  @Override
  void writePayloadWords(PayloadOutput out, long count) throws IOException {
    for (long i = 0; i < count; i++) {
      out.writeLong(mapped.get(i));
    }
  }

  @Override
  boolean tailIsClear() {
    return mapped.isClearFrom(bucketCount * bucketBits);
  }

  @Override
  public void clear() {
    mapped.clear();
  }
}
