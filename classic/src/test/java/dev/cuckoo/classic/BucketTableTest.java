package dev.cuckoo.classic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.engine.FingerprintStash;
import dev.cuckoo.engine.PartialKeyHashing;
import dev.cuckoo.engine.TableWords;
import dev.cuckoo.testkit.TestSeed;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every table shape against a plain model: slot contents, searches, and the bit layout that
 * the payload relies on (slots that cross word boundaries, the table's last bits).
 */
class BucketTableTest {

  static Stream<Arguments> shapes() {
    List<Arguments> shapes = new ArrayList<>();
    for (int slots : new int[] {1, 2, 4, 8}) {
      for (int bits = 4; bits <= 32; bits++) {
        shapes.add(Arguments.of(slots, bits));
      }
    }
    return shapes.stream();
  }

  /** An odd bucket count, so that tables end in the middle of a word for most shapes. */
  private static final long BUCKETS = 203;

  @ParameterizedTest(name = "b={0} f={1}")
  @MethodSource("shapes")
  void operationsMatchAModel(int slots, int bits) {
    BucketTable t = BucketTable.create(BUCKETS, slots, bits);
    int[][] model = new int[(int) BUCKETS][slots];
    SplittableRandom r = TestSeed.random("table against a model, b=" + slots + " f=" + bits);
    String seed = ", " + TestSeed.rerun();
    long fpMax = (1L << bits) - 1;
    int max = (int) fpMax;
    for (int step = 0; step < 20_000; step++) {
      int bucket = r.nextInt((int) BUCKETS);
      // Few distinct values, so that buckets hold duplicates and searches meet them.
      int fp = r.nextInt(4) == 0 ? max : 1 + r.nextInt((int) Math.min(fpMax, 6));
      String at = "b=" + slots + " f=" + bits + " step " + step + " bucket " + bucket + seed;
      switch (r.nextInt(4)) {
        case 0 -> {
          int empty = indexOf(model[bucket], 0);
          assertEquals(empty >= 0, t.insert(bucket, fp), at + " insert");
          if (empty >= 0) {
            model[bucket][empty] = fp;
          }
        }
        case 1 -> {
          int found = indexOf(model[bucket], fp);
          assertEquals(found >= 0, t.remove(bucket, fp), at + " remove");
          if (found >= 0) {
            model[bucket][found] = 0;
          }
        }
        case 2 -> {
          if (indexOf(model[bucket], 0) < 0) {
            int slot = r.nextInt(slots);
            assertEquals(Integer.toUnsignedLong(model[bucket][slot]), t.evict(bucket, slot, fp), at + " evict");
            int old = model[bucket][slot];
            model[bucket][slot] = fp;
            t.replace(bucket, fp, old); // and undo it
            model[bucket][indexOf(model[bucket], fp)] = old;
          }
        }
        default -> {
          int other = r.nextInt((int) BUCKETS);
          int expected = count(model[bucket], fp) + (other == bucket ? 0 : count(model[other], fp));
          if (other != bucket) {
            assertEquals(expected, t.count(bucket, other, fp), at + " count");
            assertEquals(expected > 0, t.contains(bucket, other, fp), at + " contains");
          }
          assertEquals(slots - count(model[bucket], 0), t.occupied(bucket), at + " occupied");
        }
      }
    }
    long occupied = 0;
    for (int b = 0; b < BUCKETS; b++) {
      for (int s = 0; s < slots; s++) {
        assertEquals(model[b][s], t.read(t.slotOffset(b, s)), "slot " + s + " of bucket " + b + seed);
        occupied += model[b][s] == 0 ? 0 : 1;
      }
    }
    assertEquals(occupied, t.occupiedSlots(), "occupied slots" + seed);
    assertTrue(t.tailIsClear(), "bits past the last slot" + seed);
  }

  @ParameterizedTest(name = "b={0} f={1}")
  @MethodSource("shapes")
  void keysMapToBucketsAndFingerprintsAsPartialKeyHashingSays(int slots, int bits) {
    BucketTable t = BucketTable.create(BUCKETS + 1, slots, bits);
    SplittableRandom r = TestSeed.random("keys to buckets, b=" + slots + " f=" + bits);
    for (int i = 0; i < 10_000; i++) {
      long h = r.nextLong();
      int fp = PartialKeyHashing.fingerprint(h, bits);
      String at = "hash " + h + ", " + TestSeed.rerun();
      assertEquals(fp, t.fingerprint(h), at);
      assertEquals(PartialKeyHashing.bucketIndex(h, BUCKETS + 1), t.bucketIndex(h), at);
      long bucket = r.nextInt((int) BUCKETS + 1);
      assertEquals(PartialKeyHashing.alternateBucket(bucket, fp, BUCKETS + 1), t.alternate(bucket, fp),
          "alternate of bucket " + bucket + ", " + at);
    }
  }

  @Test
  void precomputedAlternateOffsetsAgreeWithPartialKeyHashing() {
    for (int bits : new int[] {4, 7, 8, 12, 16}) {
      // Just large enough for the table to keep offsets (with a stash, 1.5% of its memory).
      long bytes = ((4L << bits) + FingerprintStash.memoryBytes(FingerprintStash.DEFAULT_SLOTS)) * 200 / 3;
      long buckets = (bytes * 8 / (4L * bits) + 4) & ~1L;
      BucketTable t = BucketTable.create(buckets, 4, bits);
      assertEquals(4L << bits, t.extraBytes(), bits + "-bit table of " + buckets + " buckets keeps offsets");
      SplittableRandom r = TestSeed.random("precomputed alternates, f=" + bits);
      for (int fp = 1; fp < 1 << bits; fp++) {
        long bucket = PartialKeyHashing.reduce(r.nextLong(), buckets);
        assertEquals(PartialKeyHashing.alternateBucket(bucket, fp, buckets), t.alternate(bucket, fp),
            "fingerprint " + fp + " in bucket " + bucket + ", " + TestSeed.rerun());
      }
    }
    assertEquals(0, BucketTable.create(1000, 4, 16).extraBytes(), "a small table computes them");
  }

  @ParameterizedTest(name = "b={0} f={1}")
  @MethodSource("shapes")
  void writingASlotTouchesNoOtherBit(int slots, int bits) {
    BucketTable t = BucketTable.create(BUCKETS, slots, bits);
    long all = (1L << bits) - 1;
    long slotCount = BUCKETS * slots;
    // Every slot of a table of alternating patterns: each write must change exactly its bits,
    // also where a slot crosses from one word into the next and at the table's last slot.
    for (long s = 0; s < slotCount; s++) {
      t.write(s * bits, (int) ((s & 1) == 0 ? all : 1L + (s % all)));
    }
    for (long s = 0; s < slotCount; s++) {
      long offset = s * bits;
      long[] before = payload(t);
      int old = t.read(offset);
      t.write(offset, (int) (all ^ old) == 0 ? 1 : (int) (all ^ old));
      t.write(offset, old);
      assertArrayEquals(before, payload(t), "slot " + s + " at bit " + offset);
    }
    for (long s = 0; s < slotCount; s++) {
      assertEquals((s & 1) == 0 ? all : 1L + (s % all), t.read(s * bits) & 0xFFFF_FFFFL, "slot " + s);
    }
    assertTrue(t.tailIsClear(), "bits past the last slot");
  }

  @Test
  void theFastTablesKeepThePackedLayout() {
    for (int bits : new int[] {8, 12, 16}) {
      BucketTable fast = BucketTable.create(BUCKETS + 1, 4, bits);
      BucketTable packed = new PackedBucketTable(BUCKETS + 1, 4, bits,
          TableWords.onHeap(BucketTable.payloadWords(BUCKETS + 1, 4, bits)));
      assertEquals(bits == 8 ? ByteBucketTable.class : bits == 12 ? TwelveBitBucketTable.class : ShortBucketTable.class,
          fast.getClass());
      SplittableRandom r = TestSeed.random("fast tables, f=" + bits);
      String seed = ", " + TestSeed.rerun();
      for (int i = 0; i < 5_000; i++) {
        long bucket = r.nextInt((int) BUCKETS + 1);
        int fp = 1 + r.nextInt((1 << bits) - 1);
        if (r.nextInt(3) == 0) {
          assertEquals(packed.remove(bucket, fp), fast.remove(bucket, fp), bits + "-bit remove" + seed);
        } else {
          assertEquals(packed.insert(bucket, fp), fast.insert(bucket, fp), bits + "-bit insert" + seed);
        }
        // The fast lookups answer as the generic ones, for fingerprints stored and not.
        long other = r.nextInt((int) BUCKETS + 1);
        int probe = r.nextBoolean() ? fp : 1 + r.nextInt((1 << bits) - 1);
        assertEquals(packed.contains(bucket, other, probe), fast.contains(bucket, other, probe), bits + "-bit lookup" + seed);
        assertEquals(packed.count(bucket, other, probe), fast.count(bucket, other, probe), bits + "-bit count" + seed);
        long keyHash = r.nextLong();
        assertEquals(packed.fingerprint(keyHash), fast.fingerprint(keyHash), bits + "-bit fingerprint" + seed);
      }
      assertArrayEquals(payload(packed), payload(fast), bits + "-bit table layout" + seed);
      assertArrayEquals(payload(fast), payload(BucketTable.wrap(BUCKETS + 1, 4, bits,
          TableWords.onHeap(java.util.Arrays.copyOf(payload(fast), (int) BucketTable.allocatedWords(BUCKETS + 1, 4, bits))))),
          bits + "-bit table rebuilt from its payload words" + seed);
    }
  }

  @Test
  void shapesPickTheirImplementation() {
    assertInstanceOf(ByteBucketTable.class, BucketTable.create(10, 4, 8));
    assertInstanceOf(ShortBucketTable.class, BucketTable.create(10, 4, 16));
    assertInstanceOf(PackedBucketTable.class, BucketTable.create(10, 8, 8));
    assertInstanceOf(TwelveBitBucketTable.class, BucketTable.create(10, 4, 12));
    assertInstanceOf(PackedBucketTable.class, BucketTable.create(10, 4, 13));
    // Every shape on the heap: its payload words and one padding word.
    assertEquals((10 * 4 * 8 / 64 + 1) * 8, BucketTable.create(10, 4, 8).words().bytes());
    assertEquals((10 * 4 * 16 / 64 + 1) * 8, BucketTable.create(10, 4, 16).words().bytes());
    assertEquals(((10 * 4 * 12 + 63) / 64 + 1) * 8, BucketTable.create(10, 4, 12).words().bytes());
    assertThrows(IllegalArgumentException.class, () -> BucketTable.wrap(10, 4, 12, TableWords.onHeap(new long[3])));
    BucketTable t = BucketTable.create(10, 4, 12);
    assertThrows(IllegalStateException.class, () -> t.replace(3, 5, 6));
    assertFalse(t.remove(3, 5));
  }

  private static int indexOf(int[] bucket, int value) {
    for (int i = 0; i < bucket.length; i++) {
      if (bucket[i] == value) {
        return i;
      }
    }
    return -1;
  }

  private static int count(int[] bucket, int value) {
    int n = 0;
    for (int v : bucket) {
      n += v == value ? 1 : 0;
    }
    return n;
  }

  /** @return the table's payload words, whatever it stores them in */
  private static long[] payload(BucketTable t) {
    long[] words = new long[(int) BucketTable.payloadWords(t.bucketCount(), t.slots, t.fingerprintBits())];
    for (int i = 0; i < words.length; i++) {
      words[i] = t.words().get(i);
    }
    return words;
  }
}
