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
    super(bucketCount, slots, bits, (long) words.length * Long.BYTES);
    this.words = words;
  }

  @Override
  final long tableBytes() {
    return (long) words.length * Long.BYTES;
  }

  @Override
  final long payloadWord(long index) {
    return words[(int) index];
  }

  @Override
  final void writePayloadWords(PayloadOutput out) throws IOException {
    out.writeLongs(words, 0, (int) payloadWords(bucketCount, slots, bits));
  }

  @Override
  final boolean tailIsClear() {
    return PackedBits.isClearFrom(words, bucketCount * slots * bits);
  }

  @Override
  public final void clear() {
    Arrays.fill(words, 0L);
  }
}
