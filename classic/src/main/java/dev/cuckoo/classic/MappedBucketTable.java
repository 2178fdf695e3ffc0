package dev.cuckoo.classic;

import dev.cuckoo.engine.MappedWords;
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

  MappedBucketTable(long bucketCount, int slots, int bits, MappedWords mapped) {
    super(bucketCount, slots, bits, NO_WORDS, mapped.length() * Long.BYTES);
    if (mapped.length() != payloadWords(bucketCount, slots, bits)) {
      throw new IllegalArgumentException(
          mapped.length() + " words do not hold " + bucketCount + " buckets of " + slots + " " + bits + "-bit slots");
    }
    this.mapped = mapped;
    this.wordAligned = Integer.bitCount(bits) == 1;
  }

  @Override
  long window(long offset) {
    return wordAligned ? mapped.get(offset >>> 6) >>> offset : mapped.window(offset);
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
