package dev.cuckoo.classic;

import dev.cuckoo.engine.PackedBits;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * A {@link BucketTable} stored as the payload layout itself: the slots' bit string in a {@code
 * long[]}, possibly followed by a padding word.
 */
abstract sealed class WordBucketTable extends BucketTable permits ShortBucketTable, PackedBucketTable {
  /** The table; may be longer than {@link #payloadWords} (a zero padding word). */
  final long[] words;

  WordBucketTable(long bucketCount, int slots, int bits, long[] words) {
    this(bucketCount, slots, bits, words, (long) words.length * Long.BYTES);
  }

  /**
   * For a subclass that keeps its words elsewhere ({@link MappedBucketTable}) and overrides every
   * method that reads {@link #words}.
   */
  WordBucketTable(long bucketCount, int slots, int bits, long[] words, long tableBytes) {
    super(bucketCount, slots, bits, tableBytes);
    this.words = words;
  }

  @Override
  long tableBytes() {
    return (long) words.length * Long.BYTES;
  }

  @Override
  long payloadWord(long index) {
    return words[(int) index];
  }

  @Override
  void writePayloadWords(PayloadOutput out) throws IOException {
    out.writeLongs(words, 0, (int) payloadWords(bucketCount, slots, bits));
  }

  @Override
  boolean tailIsClear() {
    return PackedBits.isClearFrom(words, bucketCount * slots * bits);
  }

  @Override
  public void clear() {
    Arrays.fill(words, 0L);
  }
}
