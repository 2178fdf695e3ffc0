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

  private static SplittableRandom random(String test, int headBits, int extBits, int slots) {
    return TestSeed.random(test + (extBits == 0 ? headBits : headBits + "+" + extBits) + "x" + slots);
  }

  /** @return a random entry of a random age, as {@code t}'s buckets might hold */
  private static int randomEntry(SplittableRandom r, LaneTable t) {
    int entry = t.fingerprint(r.nextLong());
    return t.aged(entry, r.nextInt(t.fingerprintBits + 1));
  }

  @ParameterizedTest(name = "{0}-bit heads, {1} more bits, buckets of {2}")
  @CsvSource({"16, 0, 4", "16, 0, 8", "32, 0, 4", "32, 0, 8", "16, 1, 4", "16, 3, 4", "16, 5, 4", "16, 9, 4", "16, 16, 4"})
  void movingAnEntryIsAnInvolutionThatKeepsItsPairAgeAndTag(int headBits, int extBits, int slots) {
    SplittableRandom r = random("moved", headBits, extBits, slots);
    for (int k = 1; k <= 20; k++) {
      LaneTable t = new LaneTable(headBits, extBits, slots, k, null);
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

  @ParameterizedTest(name = "{0}-bit heads, {1} more bits, buckets of {2}")
  @CsvSource({"16, 0, 4", "16, 0, 8", "32, 0, 4", "32, 0, 8", "16, 1, 4", "16, 3, 4", "16, 5, 4", "16, 9, 4", "16, 16, 4"})
  void everyKeyIsFoundThroughDoublingsPastItsLastBitAndCountedOnce(int headBits, int extBits, int slots) {
    // Keys stored in either of their buckets at every size from 2 buckets on; the table doubles
    // until the first keys have given up every fingerprint bit (16-bit lanes) or many of them.
    SplittableRandom r = random("doublings", headBits, extBits, slots);
    LaneTable t = new LaneTable(headBits, extBits, slots, 1, null);
    List<Long> keys = new ArrayList<>();
    int doublings = t.fingerprintBits <= 12 ? t.fingerprintBits + 6 : 12;
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
        // Split lanes widen every third doubling, as a schedule may have them do.
        t = t.grown(extBits == 0 ? 0 : Math.min(LaneSchedule.MAX_EXT_BITS, t.extBits + (d % 3 == 0 ? 1 : 0)));
      }
    }
    assertTrue(keys.size() > 1_000, keys.size() + " keys stored");
  }

  @ParameterizedTest(name = "{0}-bit heads, {1} more bits, buckets of {2}")
  @CsvSource({"16, 0, 4", "16, 0, 8", "32, 0, 4", "32, 0, 8", "16, 1, 4", "16, 3, 4", "16, 5, 4", "16, 9, 4", "16, 16, 4"})
  void doublingSendsEachEntryToTheChildItsFirstBitNamesAndExhaustedOnesToBoth(int headBits, int extBits, int slots) {
    SplittableRandom r = random("split", headBits, extBits, slots);
    LaneTable t = new LaneTable(headBits, extBits, slots, 6, null);
    for (long b = 0; b < t.buckets(); b++) {
      for (int s = 0; s < slots; s++) {
        int choice = r.nextInt(4);
        t.setLane(b, s, choice == 0 ? t.empty : choice == 1 ? t.aged(randomEntry(r, t), t.fingerprintBits)
            : randomEntry(r, t));
      }
    }
    int widen = extBits == 0 || extBits == LaneSchedule.MAX_EXT_BITS ? 0 : 1;
    LaneTable g = t.grown(extBits + widen);
    assertEquals(7, g.k);
    long entries = 0;
    for (long b = 0; b < t.buckets(); b++) {
      List<Integer> left = new ArrayList<>();
      List<Integer> right = new ArrayList<>();
      for (int s = 0; s < slots; s++) {
        int e = t.lane(b, s);
        if (e == t.empty) {
          continue;
        }
        entries++;
        int tag = e >>> t.codeBits;
        int code = e & t.codeMask;
        if (t.isExhausted(e)) {
          int copy = tag << g.codeBits | code << widen;
          assertTrue(g.isExhausted(copy));
          left.add(copy);
          right.add(copy);
          entries++;
        } else {
          int moved = tag << g.codeBits | (code << 1 & t.codeMask) << widen;
          (code >>> t.fingerprintBits == 0 ? left : right).add(moved);
          assertEquals(t.grownBucket(b, e), 2 * b + (code >>> t.fingerprintBits));
          assertEquals(moved, t.grownEntry(e, widen));
          assertEquals(t.age(e) + 1 + widen, g.age(moved), "an entry ages by one, and is padded by the bits added");
        }
      }
      assertEquals(left, occupied(g, 2 * b), "bucket " + 2 * b);
      assertEquals(right, occupied(g, 2 * b + 1), "bucket " + (2 * b + 1));
    }
    assertEquals(entries, g.occupiedSlots());
    if (extBits == 0) {
      assertEquals(2 * t.words.length, g.words.length);
    }
  }

  /** @return the entries of a bucket, in slot order */
  private static List<Integer> occupied(LaneTable t, long bucket) {
    List<Integer> out = new ArrayList<>();
    for (int s = 0; s < t.slots; s++) {
      if (t.lane(bucket, s) != t.empty) {
        out.add(t.lane(bucket, s));
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0}-bit heads, {1} more bits, buckets of {2}")
  @CsvSource({"16, 0, 4", "16, 0, 8", "32, 0, 4", "32, 0, 8", "16, 1, 4", "16, 3, 4", "16, 5, 4", "16, 9, 4", "16, 16, 4"})
  void slotsAreWrittenAndFoundExactlyAndEmptyLanesNeverMatch(int headBits, int extBits, int slots) {
    SplittableRandom r = random("slots", headBits, extBits, slots);
    LaneTable t = new LaneTable(headBits, extBits, slots, 3, null);
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
    LaneTable empty = new LaneTable(headBits, extBits, slots, 1, null);
    for (int i = 0; i < 10_000; i++) {
      long h = r.nextLong();
      int tag = LaneTable.tag(h);
      assertTrue(tag >= 1 && tag <= LaneTable.TAGS, "tag " + tag);
      assertFalse(empty.containsHash(h));
    }
    t.clear();
    assertEquals(0, t.occupiedSlots());
  }

  @ParameterizedTest(name = "{0}-bit heads, {1} more bits, buckets of {2}")
  @CsvSource({"16, 0, 4", "16, 0, 8", "32, 0, 4", "32, 0, 8", "16, 1, 4", "16, 3, 4", "16, 5, 4", "16, 9, 4", "16, 16, 4"})
  void anEntryMatchesExactlyTheKeysItsRemainingBitsAgreeWith(int headBits, int extBits, int slots) {
    SplittableRandom r = random("match", headBits, extBits, slots);
    LaneTable t = new LaneTable(headBits, extBits, slots, 10, null);
    for (int i = 0; i < 20_000; i++) {
      int key = t.fingerprint(r.nextLong());
      int age = r.nextInt(t.fingerprintBits + 1);
      int entry = t.aged(key, age);
      assertTrue(t.matches(entry, key), "an entry matches its own key at age " + age);
      int flip = r.nextInt(t.laneBits - 1) + 1; // any bit but bit 0 of the key's pattern
      boolean compared = flip > age;
      assertEquals(!compared, t.matches(entry, key ^ 1 << flip),
          "bit " + flip + " of a key against an entry of age " + age);
    }
  }

  /**
   * The lookup that tests heads first answers as comparing every whole lane does, for keys
   * stored and keys never added, in tables whose entries are of every age.
   */
  @ParameterizedTest(name = "{0}-bit heads, {1} more bits, buckets of {2}")
  @CsvSource({"16, 0, 4", "16, 1, 4", "16, 2, 4", "16, 3, 4", "16, 5, 4", "16, 9, 4", "16, 16, 4"})
  void theLookupOfHeadsAnswersAsTheWholeLanesDo(int headBits, int extBits, int slots) {
    SplittableRandom r = random("heads", headBits, extBits, slots);
    LaneTable t = new LaneTable(headBits, extBits, slots, 8, null);
    List<Long> stored = new ArrayList<>();
    for (int i = 0; i < 900; i++) {
      long h = r.nextLong();
      long b = t.bucketIndex(h);
      // Entries of every age: a key's bits past its age are not compared, so shorter entries
      // make more keys match and exercise both answers.
      int e = t.aged(t.fingerprint(h), r.nextInt(t.fingerprintBits + 1));
      if (t.insert(b, e)) {
        stored.add(h);
      }
    }
    int agreed = 0;
    for (int i = 0; i < 400_000; i++) {
      long h = i < stored.size() ? stored.get(i) : r.nextLong();
      long b1 = t.bucketIndex(h);
      int p = t.fingerprint(h);
      boolean whole = t.contains(b1, t.alternate(b1, p), p);
      assertEquals(whole, t.containsHeads(h), "key " + Long.toHexString(h));
      agreed += whole ? 1 : 0;
    }
    assertTrue(agreed > stored.size(), agreed + " keys matched, " + stored.size() + " stored");
  }
}
