package dev.cuckoo.semisorted;

import static dev.cuckoo.engine.testkit.TablePayloadContractTest.HEADER_BYTES;
import static dev.cuckoo.engine.testkit.TablePayloadContractTest.LAYOUT;
import static dev.cuckoo.testkit.ForgedFiles.file;
import static dev.cuckoo.testkit.ForgedFiles.rejected;
import static dev.cuckoo.testkit.ForgedFiles.tablePayload;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.engine.CuckooSizing;
import dev.cuckoo.engine.TableFilter;
import dev.cuckoo.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The table at every width from 5 to 32: every code stored and searched, bucket operations
 * against a model, packing across word boundaries, the documented bit layout, and files whose
 * buckets are not the encoding of their fingerprints.
 */
class SemiSortedTableTest {

  static int[] widths() {
    int[] widths = new int[SemiSortedTable.MAX_BITS - SemiSortedTable.MIN_BITS + 1];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = SemiSortedTable.MIN_BITS + i;
    }
    return widths;
  }

  /** @return the bucket's fingerprints, slot by slot, as unsigned values */
  static long[] slots(SemiSortedTable t, long bucket) {
    long[] fps = new long[4];
    for (int s = 0; s < 4; s++) {
      fps[s] = t.entryAt(bucket, s);
    }
    return fps;
  }

  /** @return the fingerprints of the four keys, sorted as a bucket keeps them */
  static long[] sortedFingerprints(long... keys) {
    long[] k = keys.clone();
    Arrays.sort(k);
    long[] fps = new long[4];
    for (int s = 0; s < 4; s++) {
      fps[s] = SemiSortedTable.fingerprintOfSortKey(k[s]) & 0xFFFF_FFFFL;
    }
    return fps;
  }

  private static int multiplicity(long[] fps, long fp) {
    int n = 0;
    for (long v : fps) {
      n += v == fp ? 1 : 0;
    }
    return n;
  }

  @ParameterizedTest(name = "f={0}")
  @MethodSource("widths")
  void everyCodeIsStoredAndEveryStoredFingerprintFound(int bits) {
    long buckets = 10;
    SemiSortedTable t = SemiSortedTable.create(buckets, bits);
    long highMask = -1L >>> (64 - (bits - 4));
    SplittableRandom r = TestSeed.random("every code, f=" + bits);
    for (int code = 0; code < SemiSortCodec.CODES; code++) {
      int nibbles = SemiSortCodec.nibbles(code);
      // The highest high parts, the lowest non-zero ones (so nibble 0 is a fingerprint, not an
      // empty slot), and random ones (which may make a nibble-0 slot empty).
      for (int variant = 0; variant < 3; variant++) {
        long[] keys = new long[4];
        for (int s = 0; s < 4; s++) {
          long high = variant == 0 ? highMask : variant == 1 ? 1 : r.nextLong() & highMask;
          keys[s] = (long) ((nibbles >>> (4 * s)) & 0xF) << 32 | high;
        }
        long bucket = code % buckets;
        long other = (bucket + 1) % buckets;
        long o = t.offset(bucket);
        t.store(o, keys[3], keys[1], keys[0], keys[2]);
        String at = "f=" + bits + " code " + code + " keys " + Arrays.toString(keys) + ", " + TestSeed.rerun();
        assertEquals(code, t.code(o), at);
        assertTrue(t.isCanonical(bucket), at);
        long[] fps = sortedFingerprints(keys);
        assertArrayEquals(fps, slots(t, bucket), at);
        for (long fp : fps) {
          if (fp != 0) {
            assertTrue(t.contains(bucket, other, (int) fp), at + ": " + fp + " not found");
            assertTrue(t.contains(other, bucket, (int) fp), at + ": " + fp + " not found");
            assertEquals(multiplicity(fps, fp), t.count(bucket, other, (int) fp), at + ": count of " + fp);
          }
          // Neighbours that differ in one nibble bit or one high bit are not there.
          long[] near = {fp ^ 1, fp ^ 8, fp ^ 16, fp ^ (1L << (bits - 1))};
          for (long n : near) {
            if (n != 0 && multiplicity(fps, n) == 0) {
              assertFalse(t.contains(bucket, other, (int) n), at + ": " + n + " found");
              assertEquals(0, t.count(bucket, other, (int) n), at + ": count of " + n);
            }
          }
        }
        t.store(o, 0, 0, 0, 0);
      }
    }
    for (long i = 0; i < t.words().length(); i++) {
      assertEquals(0, t.words().get(i), "f=" + bits + ": an emptied bucket left bits set, " + TestSeed.rerun());
    }
  }

  @ParameterizedTest(name = "f={0}")
  @MethodSource("widths")
  void bucketOperationsMatchAModelAcrossWordBoundaries(int bits) {
    // 34 buckets: their offsets k·(4f - 4) take every residue mod 64 they can, so buckets start
    // and end everywhere in a word, and straddle words.
    int buckets = 34;
    SemiSortedTable t = SemiSortedTable.create(buckets, bits);
    List<List<Long>> model = new ArrayList<>();
    for (int b = 0; b < buckets; b++) {
      model.add(new ArrayList<>());
    }
    SplittableRandom r = TestSeed.random("bucket operations against a model, f=" + bits);
    long max = -1L >>> (64 - bits);
    for (int step = 0; step < 4_000; step++) {
      int b = r.nextInt(buckets);
      List<Long> m = model.get(b);
      String at = "f=" + bits + " step " + step + " bucket " + b + ", " + TestSeed.rerun();
      // Biased towards the edge cases: nibble 0, the largest value, tiny values.
      long fp = switch (r.nextInt(5)) {
        case 0 -> (r.nextLong() & max) & ~0xFL;
        case 1 -> max - r.nextInt(2);
        case 2 -> 1L + r.nextInt(32);
        default -> r.nextLong() & max;
      };
      if (fp == 0 || fp > max) {
        fp = 16;
      }
      int op = r.nextInt(4);
      if (op == 0 || m.isEmpty()) {
        assertEquals(m.size() < 4, t.insert(b, fp), at + ": insert");
        if (m.size() < 4) {
          m.add(fp);
        }
      } else if (op == 1) {
        long victim = m.get(r.nextInt(m.size()));
        assertTrue(t.remove(b, victim), at + ": remove");
        m.remove(victim);
        assertEquals(m.contains(fp), t.remove(b, fp), at + ": remove of " + fp);
        m.remove(fp);
      } else if (op == 2 && m.size() == 4) {
        int slot = r.nextInt(4);
        long old = slots(t, b)[slot];
        assertEquals(old, t.evict(b, slot, fp) & 0xFFFF_FFFFL, at + ": evict");
        m.remove(old);
        m.add(fp);
      } else {
        long victim = m.get(r.nextInt(m.size()));
        t.replace(b, victim, fp);
        m.remove(victim);
        m.add(fp);
      }
      // Every bucket, not only this one: a write must not spill into its neighbours.
      for (int k = 0; k < buckets; k++) {
        List<Long> mk = model.get(k);
        long[] expected = new long[4];
        for (int i = 0; i < mk.size(); i++) {
          expected[i] = mk.get(i);
        }
        long[] keys = new long[4];
        for (int i = 0; i < 4; i++) {
          keys[i] = SemiSortedTable.sortKey((int) expected[i]);
        }
        assertArrayEquals(sortedFingerprints(keys), slots(t, k), at + ": bucket " + k);
        assertTrue(t.isCanonical(k), at + ": bucket " + k);
        assertEquals(mk.size(), t.occupied(k), at + ": bucket " + k);
        int next = (k + 1) % buckets;
        for (long v : mk) {
          int expectedCount = multiplicity(expected, v) + (int) model.get(next).stream().filter(x -> x == v).count();
          assertEquals(expectedCount, t.count(k, next, (int) v), at + ": count in bucket " + k);
          assertTrue(t.contains(next, k, (int) v), at + ": " + v + " in bucket " + k);
        }
      }
      assertTrue(t.tailIsClear(), at);
    }
    assertThrows(IllegalStateException.class, () -> {
      t.clear();
      t.replace(0, 5, 6);
    });
  }

  @Test
  void aSixteenBitBucketIsSixtyBitsAndAThirteenBitOneFortyEight() {
    // f = 16: bucket 1 starts at bit 60 and straddles words 0 and 1.
    SemiSortedTable t = SemiSortedTable.create(4, 16);
    assertEquals(Width16Table.class, t.getClass());
    assertEquals(60, t.bucketBits());
    assertEquals(5, SemiSortedTable.allocatedWords(4, 16), "240 bits, and a padding word");
    t.insert(1, 0xABC5);
    t.insert(1, 0x1230);
    // Sorted by nibble: 0x1230 (nibble 0) then 0xABC5 (nibble 5), after two empty slots.
    int code = SemiSortCodec.encode(0, 0, 0, 5);
    long bucket = code | 0x123L << (12 + 24) | 0xABCL << (12 + 36);
    assertEquals(bucket << 60, t.words().get(0));
    assertEquals(bucket >>> 4, t.words().get(1));
    assertArrayEquals(new long[] {0, 0, 0x1230, 0xABC5}, slots(t, 1));

    // f = 13: four 48-bit buckets fill three words exactly.
    SemiSortedTable u = SemiSortedTable.create(4, 13);
    assertEquals(48, u.bucketBits());
    assertEquals(4, SemiSortedTable.allocatedWords(4, 13));
    u.insert(1, 0x1FFF);
    long b1 = SemiSortCodec.encode(0, 0, 0, 15) | 0x1FFL << (12 + 27);
    assertEquals(b1 << 48, u.words().get(0));
    assertEquals(b1 >>> 16, u.words().get(1));
  }

  @Test
  void widthsPickTheirLaneLayout() {
    assertEquals(Width5To7Table.class, SemiSortedTable.create(2, 5).getClass());
    assertEquals(Width5To7Table.class, SemiSortedTable.create(2, 7).getClass());
    assertEquals(Width8To15Table.class, SemiSortedTable.create(2, 8).getClass());
    assertEquals(Width16Table.class, SemiSortedTable.create(2, 16).getClass());
    assertEquals(Width8To15Table.class, SemiSortedTable.create(2, 15).getClass());
    assertEquals(Width17To32Table.class, SemiSortedTable.create(2, 17).getClass());
    assertEquals(Width17To32Table.class, SemiSortedTable.create(2, 32).getClass());
    assertThrows(IllegalArgumentException.class, () -> SemiSortedTable.create(2, 4));
    assertThrows(IllegalArgumentException.class, () -> SemiSortedTable.create(2, 33));
    assertThrows(IllegalArgumentException.class, () -> SemiSortedTable.wrap(2, 16, dev.cuckoo.engine.TableWords.onHeap(new long[1])));
  }

  @Test
  void aCodeAboveTheLastOrSlotsOutOfOrderAreNotCanonical() {
    SemiSortedTable t = SemiSortedTable.create(4, 16);
    t.words().set(0, SemiSortCodec.CODES);
    assertFalse(t.isCanonical(0));
    t.words().set(0, SemiSortCodec.CODES - 1);
    assertTrue(t.isCanonical(0), "all four 0xF nibbles with high parts 0");
    // Nibbles 0, 0, 0, 0 and high parts 2, 1, 0, 0: out of order.
    t.words().set(0, 2L << 12 | 1L << 24);
    assertFalse(t.isCanonical(0));
    t.words().set(0, 1L << 36 | 2L << 48);
    assertTrue(t.isCanonical(0));
  }

  /**
   * A file whose bucket is not the one encoding of its fingerprints, which lookups would index
   * past the codec's tables with, is rejected; the canonical bucket reads back as the
   * fingerprint it encodes.
   */
  @Test
  void bucketsThatAreNotTheEncodingOfTheirFingerprintsAreRejected() throws IOException {
    String small = SemiSortedContractTest.SMALL;
    long buckets = CuckooSizing.bucketCount(1010, 4, 13);
    int words = (int) SemiSortedTable.payloadWords(buckets, 13);
    long length = HEADER_BYTES + words * 8L + 4;
    long[] table = SemiSortedContractTest.oneFingerprint(words);
    // A code past the last of the 3876 (which lookups would index the codec's tables with), and
    // a bucket whose slots are out of order (nibbles 0, 0, 0, 0 with high parts 2, 1, 0, 0).
    long[] badCode = table.clone();
    badCode[1] = SemiSortCodec.CODES << 16; // bucket 1 starts at bit 48
    assertTrue(rejected(file(small, length, tablePayload(LAYOUT, buckets, 1, words, badCode, 0))).getMessage().contains("bucket 1 "));
    long[] unsorted = table.clone();
    unsorted[0] = 2L << 12 | 1L << 21;
    assertTrue(rejected(file(small, length, tablePayload(LAYOUT, buckets, 2, words, unsorted, 0))).getMessage().contains("bucket 0 "));
    TableFilter f = (TableFilter) CuckooFilters.read(
        new ByteArrayInputStream(file(small, length, tablePayload(LAYOUT, buckets, 1, words, table, 0))));
    assertEquals(1, ((SemiSortedTable) f.table()).occupied(0));
    assertEquals(0x1FF5, f.table().entryAt(0, 3));
  }
}
