package dev.cuckoo.engine.testkit;

import dev.cuckoo.engine.TableWords;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The storage seam's third storage, for tests: words on the heap that remember what they held at
 * the last {@link #force}, so that a test can stage the crash of a machine, after which the pages
 * written since that force reach the disk in any order or not at all: {@link #crash} keeps an
 * arbitrary subset of those pages as written and puts every other changed page back as it was.
 * A table over it behaves as over any storage until then.
 */
public final class PageLossWords extends TableWords {
  /** Words per page: 4 KiB. */
  public static final int PAGE_WORDS = 512;

  private final long[] words;
  private long[] forced;
  private int stores;

  /**
   * @param length the longs of the bit string
   */
  public PageLossWords(long length) {
    this.words = new long[Math.toIntExact(length)];
    this.forced = words.clone();
  }

  @Override
  public long length() {
    return words.length;
  }

  @Override
  public long get(long index) {
    return words[(int) index];
  }

  @Override
  public void set(long index, long value) {
    stores++;
    words[(int) index] = value;
  }

  @Override
  public long bytes() {
    return (long) words.length * Long.BYTES;
  }

  /** {@inheritDoc} Here: what the words hold now is what a crash keeps at least. */
  @Override
  public void force() {
    forced = words.clone();
  }

  /** @return the stores made through {@link #set}, counting every field write's words */
  public int stores() {
    return stores;
  }

  /**
   * Stages a machine crash: each page changed since the last {@link #force} keeps what was
   * written to it or goes back to what it held then, a coin toss of {@code random} per page.
   *
   * @param random the seeded source of the coin tosses
   * @return how many changed pages went back
   */
  public int crash(SplittableRandom random) {
    int lost = 0;
    for (int from = 0; from < words.length; from += PAGE_WORDS) {
      int to = Math.min(words.length, from + PAGE_WORDS);
      if (!Arrays.equals(words, from, to, forced, from, to) && random.nextBoolean()) {
        System.arraycopy(forced, from, words, from, to - from);
        lost++;
      }
    }
    forced = words.clone();
    return lost;
  }
}
