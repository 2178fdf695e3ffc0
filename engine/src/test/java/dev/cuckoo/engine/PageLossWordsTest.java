package dev.cuckoo.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.engine.testkit.PageLossWords;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The test storage's staged machine crash: a page changed since the last force comes back whole,
 * as written or as forced, never a mix; a page not changed is untouched; and over many seeds both
 * outcomes happen.
 */
class PageLossWordsTest {

  @Test
  void aCrashKeepsEachChangedPageWholeAsWrittenOrAsForced() {
    int pages = 8;
    int length = pages * PageLossWords.PAGE_WORDS;
    int kept = 0;
    int lost = 0;
    for (long seed = 0; seed < 200; seed++) {
      PageLossWords words = new PageLossWords(length);
      for (int i = 0; i < length; i++) {
        words.set(i, i + 1);
      }
      words.force();
      SplittableRandom r = new SplittableRandom(seed);
      for (int p = 0; p < pages; p++) {
        for (int k = 1 + r.nextInt(5); k > 0; k--) {
          long i = (long) p * PageLossWords.PAGE_WORDS + r.nextInt(PageLossWords.PAGE_WORDS);
          words.write(i * 64 + 3, -1L, (1L << 20) - 1); // a field inside one word
        }
      }
      long[] written = new long[length];
      for (int i = 0; i < length; i++) {
        written[i] = words.get(i);
      }
      words.crash(new SplittableRandom(seed));
      for (int p = 0; p < pages; p++) {
        boolean asWritten = true;
        boolean asForced = true;
        for (int i = p * PageLossWords.PAGE_WORDS; i < (p + 1) * PageLossWords.PAGE_WORDS; i++) {
          asWritten &= words.get(i) == written[i];
          asForced &= words.get(i) == i + 1;
        }
        assertTrue(asWritten || asForced, "seed " + seed + ": page " + p + " is a mix");
        kept += asWritten && !asForced ? 1 : 0;
        lost += asForced && !asWritten ? 1 : 0;
      }
    }
    assertTrue(kept > 0 && lost > 0, kept + " pages kept, " + lost + " lost");
    assertEquals(8 * 200, kept + lost, "every page was changed, and each came back one way");
  }
}
