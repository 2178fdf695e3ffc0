package dev.cuckoo.expandable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.testkit.SeedInFailures;
import dev.cuckoo.testkit.TestSeed;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The lane encoding, the alternate bucket, and doubling, checked against plain arithmetic. */
@ExtendWith(SeedInFailures.class)
class LaneTableTest {

  private static SplittableRandom random(String test, int laneBits, int slots) {
    return TestSeed.random(test + laneBits + "x" + slots);
  }

  /** @return a random entry of a random age, as {@code t}'s buckets might hold */
  private static int randomEntry(SplittableRandom r, LaneTable t) {
    int entry = t.fingerprint(r.nextLong());
    return t.aged(entry, r.nextInt(t.fingerprintBits + 1));
  }

  @ParameterizedTest(name = "{0}-bit lanes, buckets of {1}")
  @CsvSource({"16, 4", "16, 8", "32, 4", "32, 8"})
  void movingAnEntryIsAnInvolutionThatKeepsItsPairAgeAndTag(int laneBits, int slots) {
    SplittableRandom r = random("moved", laneBits, slots);
    for (int k = 1; k <= 20; k++) {
      LaneTable t = new LaneTable(laneBits, slots, k);
      for (int i = 0; i < 2_000; i++) {
        int e = randomEntry(r, t);
        long moved = t.movedEntry(Integer.toUnsignedLong(e));
        long b = r.nextLong(t.buckets());
        long other = t.alternate(b, e);
        String at = "k " + k + ", entry " + Integer.toHexString(e);
        assertTrue(t.isEntry(Integer.toUnsignedLong(e)) && t.isEntry(moved), at);
        assertEquals(Integer.toUnsignedLong(e), t.movedEntry(moved), at + ": moving back");
        assertTrue(other != b && other < t.buckets(), at + ": the pair is two buckets");
        assertEquals(b, t.alternate(other, (int) moved), at + ": the moved entry's pair");
        assertEquals(t.age(e), t.age((int) moved), at + ": age");
        assertEquals(e >>> t.codeBits, (int) moved >>> t.codeBits, at + ": tag");
      }
    }
  }

  @ParameterizedTest(name = "{0}-bit lanes, buckets of {1}")
  @CsvSource({"16, 4", "16, 8", "32, 4", "32, 8"})
  void everyKeyIsFoundThroughDoublingsPastItsLastBitAndCountedOnce(int laneBits, int slots) {
    // Keys stored in either of their buckets at every size from 2 buckets on; the table doubles
    // until the first keys have given up every fingerprint bit (16-bit lanes) or many of them.
    SplittableRandom r = random("doublings", laneBits, slots);
    LaneTable t = new LaneTable(laneBits, slots, 1);
    List<Long> keys = new ArrayList<>();
    int doublings = laneBits == 16 ? 14 : 12;
    for (int d = 0; d <= doublings; d++) {
      for (int i = 0; i < t.buckets() / 2; i++) {
        long h = r.nextLong();
        long b1 = t.bucketIndex(h);
        int e = t.freshEntry(h);
        if (r.nextBoolean() ? t.insert(b1, e) : t.insert(t.alternate(b1, e), t.movedEntry(e))) {
          keys.add(h);
        }
      }
      for (long h : keys) {
        assertTrue(t.containsHash(h), "a key lost after " + d + " doublings: " + h);
        long b1 = t.bucketIndex(h);
        int p = t.fingerprint(h);
        assertTrue(t.count(b1, t.alternate(b1, p), p) >= 1, "a key not counted after " + d + " doublings");
      }
      if (d < doublings) {
        t = t.grown();
      }
    }
    assertTrue(keys.size() > 1_000, keys.size() + " keys stored");
  }

  @ParameterizedTest(name = "{0}-bit lanes, buckets of {1}")
  @CsvSource({"16, 4", "16, 8", "32, 4", "32, 8"})
  void doublingSendsEachEntryToTheChildItsFirstBitNamesAndExhaustedOnesToBoth(int laneBits, int slots) {
    SplittableRandom r = random("split", laneBits, slots);
    LaneTable t = new LaneTable(laneBits, slots, 6);
    for (long b = 0; b < t.buckets(); b++) {
      for (int s = 0; s < slots; s++) {
        int choice = r.nextInt(4);
        t.setLane(b, s, choice == 0 ? LaneTable.EMPTY : choice == 1 ? t.aged(randomEntry(r, t), t.fingerprintBits)
            : randomEntry(r, t));
      }
    }
    LaneTable g = t.grown();
    assertEquals(7, g.k);
    long entries = 0;
    for (long b = 0; b < t.buckets(); b++) {
      List<Integer> left = new ArrayList<>();
      List<Integer> right = new ArrayList<>();
      for (int s = 0; s < slots; s++) {
        int e = t.lane(b, s);
        if (e == LaneTable.EMPTY) {
          continue;
        }
        entries++;
        if (t.isExhausted(e)) {
          left.add(e);
          right.add(e);
          entries++;
        } else {
          int code = e & t.codeMask;
          int moved = (e & ~t.codeMask) | (code << 1 & t.codeMask);
          (code >>> t.fingerprintBits == 0 ? left : right).add(moved);
          assertEquals(t.grownBucket(b, e), 2 * b + (code >>> t.fingerprintBits));
          assertEquals(moved, t.grownEntry(e));
          assertEquals(t.age(e) + 1, g.age(moved), "an entry ages by one");
        }
      }
      assertEquals(left, occupied(g, 2 * b), "bucket " + 2 * b);
      assertEquals(right, occupied(g, 2 * b + 1), "bucket " + (2 * b + 1));
    }
    assertEquals(entries, g.occupiedSlots());
    assertEquals(2 * t.words.length, g.words.length);
  }

  /** @return the entries of a bucket, in slot order */
  private static List<Integer> occupied(LaneTable t, long bucket) {
    List<Integer> out = new ArrayList<>();
    for (int s = 0; s < t.slots; s++) {
      if (t.lane(bucket, s) != LaneTable.EMPTY) {
        out.add(t.lane(bucket, s));
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0}-bit lanes, buckets of {1}")
  @CsvSource({"16, 4", "16, 8", "32, 4", "32, 8"})
  void slotsAreWrittenAndFoundExactlyAndEmptyLanesNeverMatch(int laneBits, int slots) {
    SplittableRandom r = random("slots", laneBits, slots);
    LaneTable t = new LaneTable(laneBits, slots, 3);
    long b = 5;
    int[] stored = new int[slots];
    for (int s = 0; s < slots; s++) {
      assertEquals(0, t.entryAt(b, s), "a new table is empty");
      stored[s] = randomEntry(r, t);
      assertTrue(t.insert(b, stored[s]));
    }
    assertFalse(t.insert(b, stored[0]), "a full bucket");
    for (int s = 0; s < slots; s++) {
      assertEquals(Integer.toUnsignedLong(stored[s]), t.entryAt(b, s));
      assertEquals(0, t.entryAt(b + 1, s), "the next bucket is untouched");
    }
    int other = randomEntry(r, t);
    assertEquals(Integer.toUnsignedLong(stored[1]), t.evict(b, 1, other));
    t.replace(b, other, stored[1]);
    assertTrue(t.remove(b, stored[2]));
    assertFalse(t.remove(b + 1, stored[2]));
    assertEquals(slots - 1, t.occupiedSlots());
    assertThrows(IllegalStateException.class, () -> t.replace(b + 1, stored[0], stored[1]));
    // An empty bucket never matches: its lanes have tag 0, which no key has.
    LaneTable empty = new LaneTable(laneBits, slots, 1);
    for (int i = 0; i < 10_000; i++) {
      long h = r.nextLong();
      int tag = LaneTable.tag(h);
      assertTrue(tag >= 1 && tag <= LaneTable.TAGS, "tag " + tag);
      assertFalse(empty.containsHash(h));
    }
    t.clear();
    assertEquals(0, t.occupiedSlots());
  }

  @ParameterizedTest(name = "{0}-bit lanes, buckets of {1}")
  @CsvSource({"16, 4", "16, 8", "32, 4", "32, 8"})
  void anEntryMatchesExactlyTheKeysItsRemainingBitsAgreeWith(int laneBits, int slots) {
    SplittableRandom r = random("match", laneBits, slots);
    LaneTable t = new LaneTable(laneBits, slots, 10);
    for (int i = 0; i < 20_000; i++) {
      int key = t.fingerprint(r.nextLong());
      int age = r.nextInt(t.fingerprintBits + 1);
      int entry = t.aged(key, age);
      assertTrue(t.matches(entry, key), "an entry matches its own key at age " + age);
      int flip = r.nextInt(laneBits - 1) + 1; // any bit but bit 0 of the key's pattern
      boolean compared = flip > age;
      assertEquals(!compared, t.matches(entry, key ^ 1 << flip),
          "bit " + flip + " of a key against an entry of age " + age);
    }
  }
}
