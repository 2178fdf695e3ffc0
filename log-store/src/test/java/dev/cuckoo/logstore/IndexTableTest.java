package dev.cuckoo.logstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.testkit.SeedInFailures;
import dev.cuckoo.testkit.TestSeed;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The slot layout of the index: every offset a log of up to 512 GiB can have, past 4 GiB above
 * all, survives in every slot, and writing one slot leaves its neighbours alone.
 */
@ExtendWith(SeedInFailures.class)
class IndexTableTest {
  private static final long FOUR_GIB = 1L << 32;
  private static final long LARGEST = IndexTable.MAX_UNITS * IndexTable.UNIT - IndexTable.UNIT;

  @Test
  void anEntryKeepsItsTagAndOffsetInEverySlotAtEveryOffset() {
    long[] offsets = {0, 8, FOUR_GIB - 8, FOUR_GIB, FOUR_GIB + 8, 5 * FOUR_GIB + 4096, 16 * FOUR_GIB - 8,
        16 * FOUR_GIB, 100L << 30, LARGEST};
    int[] tags = {1, 2, 0x800, 0xFFF};
    for (long offset : offsets) {
      for (int tag : tags) {
        long entry = IndexTable.entry(tag, offset);
        assertEquals(offset, IndexTable.offsetOf(entry), "offset " + offset);
        for (int slot = 0; slot < IndexTable.SLOTS; slot++) {
          IndexTable t = new IndexTable(4);
          assertEquals(0, t.evict(1, slot, entry));
          assertEquals(entry, t.entryAt(1, slot), "slot " + slot + ", offset " + offset);
          assertEquals(tag, t.fingerprintOf(t.entryAt(1, slot)));
          assertTrue(t.contains(1, 3, tag));
          assertEquals(1, t.count(1, 3, tag));
          assertEquals(1L << (IndexTable.TAG_BITS * slot + IndexTable.TAG_BITS - 1), t.matches(1, tag));
        }
      }
    }
  }

  @Test
  void writingOneSlotLeavesTheOthersAsTheyWere() {
    SplittableRandom random = TestSeed.random("IndexTableTest.neighbours");
    IndexTable t = new IndexTable(8);
    long[][] model = new long[8][IndexTable.SLOTS];
    for (int step = 0; step < 100_000; step++) {
      int bucket = random.nextInt(8);
      int slot = random.nextInt(IndexTable.SLOTS);
      long entry = random.nextInt(4) == 0 ? 0
          : IndexTable.entry(1 + random.nextInt(4095), random.nextLong(IndexTable.MAX_UNITS) * IndexTable.UNIT);
      assertEquals(model[bucket][slot], t.evict(bucket, slot, entry));
      model[bucket][slot] = entry;
      for (int b = 0; b < 8; b++) {
        for (int s = 0; s < IndexTable.SLOTS; s++) {
          assertEquals(model[b][s], t.entryAt(b, s), "step " + step + ", bucket " + b + ", slot " + s);
        }
      }
    }
  }

  @Test
  void insertFillsEmptySlotsAndReplaceAndRemoveFindTheExactEntry() {
    IndexTable t = new IndexTable(2);
    long a = IndexTable.entry(7, 8 * FOUR_GIB);
    long b = IndexTable.entry(7, 8 * FOUR_GIB + 8); // the same tag: only the offset tells them apart
    assertTrue(t.insert(0, a));
    assertTrue(t.insert(0, b));
    assertTrue(t.insert(0, IndexTable.entry(9, 16)));
    assertTrue(t.insert(0, IndexTable.entry(9, 24)));
    assertFalse(t.insert(0, IndexTable.entry(10, 32)), "a bucket of four holds four");
    assertEquals(2, t.count(0, 1, 7));
    long moved = IndexTable.entry(7, LARGEST);
    t.replace(0, b, moved);
    assertTrue(t.remove(0, a));
    assertFalse(t.remove(0, a));
    assertEquals(1, t.count(0, 1, 7));
    assertEquals(moved, t.entryAt(0, 1));
    assertThrows(IllegalStateException.class, () -> t.replace(0, a, b));
    t.clear();
    assertEquals(0, t.count(0, 1, 9));
  }

  @Test
  void aBucketCountOutOfRangeIsRefusedNamingIt() {
    for (long buckets : new long[] {0, 1, 3, IndexTable.MAX_BUCKETS + 2}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new IndexTable(buckets));
      assertTrue(e.getMessage().contains(Long.toString(buckets)), e.getMessage());
    }
  }
}
