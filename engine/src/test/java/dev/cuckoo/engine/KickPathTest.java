package dev.cuckoo.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.engine.testkit.ArrayTable;
import dev.cuckoo.testkit.AllocationMeter;
import dev.cuckoo.testkit.TestSeed;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KickPathTest {

  /** Inserts like a filter would; records what went where. */
  private static boolean add(ArrayTable t, KickPath kicks, long hash, int bits) {
    long b1 = PartialKeyHashing.bucketIndex(hash, t.bucketCount());
    int fp = PartialKeyHashing.fingerprint(hash, bits);
    long b2 = PartialKeyHashing.alternateBucket(b1, fp, t.bucketCount());
    return t.insert(b1, fp) || t.insert(b2, fp) || kicks.relocate(t, b1, b2, fp);
  }

  private static boolean holds(ArrayTable t, long hash, int bits) {
    long b1 = PartialKeyHashing.bucketIndex(hash, t.bucketCount());
    int fp = PartialKeyHashing.fingerprint(hash, bits);
    return t.holds(b1, fp) || t.holds(PartialKeyHashing.alternateBucket(b1, fp, t.bucketCount()), fp);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 4, 8})
  void aRefusedInsertLeavesTheTableExactlyAsItWas(int perBucket) {
    SplittableRandom r = TestSeed.random("refused inserts, buckets of " + perBucket);
    String seed = ", buckets of " + perBucket + ", " + TestSeed.rerun();
    ArrayTable t = new ArrayTable(1_002, perBucket);
    KickPath kicks = new KickPath(500, 42);
    List<Long> stored = new ArrayList<>();
    int refusals = 0;
    for (int i = 0; i < 2 * 1_002 * perBucket && refusals < 30; i++) {
      long h = r.nextLong();
      long[] before = t.contents();
      if (add(t, kicks, h, 12)) {
        stored.add(h);
      } else {
        refusals++;
        assertArrayEquals(before, t.contents(), "a refused insert changed the table" + seed);
      }
    }
    assertEquals(30, refusals, seed);
    for (long h : stored) {
      assertTrue(holds(t, h, 12), "lost " + h + seed);
    }
    // Near the loads of Fan et al. (0.5, 0.84, 0.95, 0.98), in a table of only 1,002 buckets.
    double load = stored.size() / (1_002.0 * perBucket);
    double paper = perBucket == 1 ? 0.5 : perBucket == 2 ? 0.84 : perBucket == 4 ? 0.95 : 0.98;
    assertTrue(load > paper - 0.1, "load " + load + seed);
  }

  /**
   * Buckets of one slot: the new entry's first bucket holds r, whose other bucket holds s, whose
   * other bucket is free; its second bucket holds q, whose other bucket holds t, whose other
   * bucket is full. Two kicks place the entry only through the first bucket: a walk that starts
   * at the second fails, while the search's second level always finds the free bucket.
   */
  @Test
  void theSecondLevelOfTheSearchFindsAFreeBucketTwoMovesAway() {
    long n = 1_002;
    ArrayTable probe = new ArrayTable(n, 1);
    SplittableRandom r = TestSeed.random("a free bucket two moves away");
    String at = TestSeed.rerun();
    for (int attempt = 0; attempt < 10_000; attempt++) {
      int fe = 1 + r.nextInt(255);
      int fr = 1 + r.nextInt(255);
      int fs = 1 + r.nextInt(255);
      int fq = 1 + r.nextInt(255);
      int ft = 1 + r.nextInt(255);
      long b1 = r.nextInt((int) n);
      long b2 = probe.alternate(b1, fe);
      long a = probe.alternate(b1, fr);
      long c = probe.alternate(a, fs);
      long d = probe.alternate(b2, fq);
      long e = probe.alternate(d, ft);
      if (LongStream.of(b1, b2, a, c, d, e).distinct().count() < 6) {
        continue;
      }
      for (long seed = 0; seed < 64; seed++) { // walks that start at either bucket
        ArrayTable t = new ArrayTable(n, 1);
        t.insert(b1, fr);
        t.insert(a, fs);
        t.insert(b2, fq);
        t.insert(d, ft);
        t.insert(e, 1);
        assertTrue(new KickPath(2, seed).relocate(t, b1, b2, fe), "walk seed " + seed + ", " + at);
        assertTrue(t.holds(b1, fe) && t.holds(a, fr) && t.holds(c, fs),
            "the entry, r and s each moved one bucket on; walk seed " + seed + ", " + at);
        assertTrue(t.holds(b2, fq) && t.holds(d, ft) && t.holds(e, 1), "the other side is as it was; walk seed " + seed + ", " + at);
      }
      return;
    }
    throw new AssertionError("no six distinct buckets found; " + at);
  }

  @Test
  void withoutKicksBothBucketsFullIsARefusal() {
    ArrayTable t = new ArrayTable(2, 1);
    KickPath none = new KickPath(0, 1);
    assertEquals(0, none.maxKicks());
    t.insert(0, 5);
    t.insert(1, 6);
    assertFalse(none.relocate(t, 0, 1, 7));
    assertArrayEquals(new long[] {5, 6}, t.slots);
    assertThrows(IllegalArgumentException.class, () -> new KickPath(-1, 0));
  }

  @Test
  void relocationAllocatesNothing() {
    ArrayTable t = new ArrayTable(10_000, 4);
    KickPath kicks = new KickPath(500, 3);
    SplittableRandom r = TestSeed.random("relocation allocates nothing");
    long[] hashes = new long[100_000];
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] = r.nextLong();
    }
    int[] next = {0};
    long bytes = AllocationMeter.allocatedBy(() -> {
      for (int i = 0; i < 20_000; i++) {
        add(t, kicks, hashes[next[0]++], 16);
      }
    });
    // The meter's own reflective call allocates a few dozen bytes; 20,000 inserts allocating
    // one object each would show as hundreds of kilobytes.
    assertTrue(bytes < 1024, bytes + " bytes allocated by 20,000 inserts; " + TestSeed.rerun());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 4})
  void valuesMoveWithTheirFingerprintsAndRefusalsUndoThem(int perBucket) {
    SplittableRandom r = TestSeed.random("values move with fingerprints, buckets of " + perBucket);
    String seed = ", buckets of " + perBucket + ", " + TestSeed.rerun();
    ArrayTable t = new ArrayTable(502, perBucket);
    KickPath kicks = new KickPath(200, 7);
    List<long[]> stored = new ArrayList<>(); // {hash, value}
    int refusals = 0;
    for (long value = 1; refusals < 20; value++) {
      long h = r.nextLong();
      long b1 = PartialKeyHashing.bucketIndex(h, t.bucketCount());
      int fp = PartialKeyHashing.fingerprint(h, 12);
      long b2 = PartialKeyHashing.alternateBucket(b1, fp, t.bucketCount());
      long entry = ArrayTable.entry(fp, value);
      long[] before = t.contents();
      if (t.insert(b1, entry) || t.insert(b2, entry) || kicks.relocate(t, b1, b2, entry)) {
        stored.add(new long[] {h, value});
      } else {
        refusals++;
        assertArrayEquals(before, t.contents(), "a refused insert changed the table" + seed);
      }
    }
    // Every stored value sits with its own fingerprint in one of its key's two buckets.
    for (long[] kv : stored) {
      long b1 = PartialKeyHashing.bucketIndex(kv[0], t.bucketCount());
      int fp = PartialKeyHashing.fingerprint(kv[0], 12);
      long b2 = PartialKeyHashing.alternateBucket(b1, fp, t.bucketCount());
      long entry = ArrayTable.entry(fp, kv[1]);
      boolean found = false;
      for (int s = 0; s < perBucket; s++) {
        found |= t.entryAt(b1, s) == entry || t.entryAt(b2, s) == entry;
      }
      assertTrue(found, "value " + kv[1] + " left its fingerprint " + fp + seed);
    }
  }

  /**
   * A table whose entries record the bucket they sit in (as the value beside the fingerprint),
   * so a move must rewrite the record: {@link CuckooTable#movedEntry}.
   */
  static final class BucketRecordingTable extends ArrayTable {
    BucketRecordingTable(long buckets, int perBucket) {
      super(buckets, perBucket);
    }

    @Override
    public long movedEntry(long entry) {
      int fp = fingerprintOf(entry);
      return ArrayTable.entry(fp, alternate(entry >>> 16, fp));
    }

    /** @return whether every stored entry records the bucket it sits in */
    boolean recordsAreTrue() {
      for (long b = 0; b < bucketCount(); b++) {
        for (int s = 0; s < slotsPerBucket(); s++) {
          long e = entryAt(b, s);
          if (e != 0 && e >>> 16 != b) {
            return false;
          }
        }
      }
      return true;
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 4})
  void everyMoveAndItsUndoStoreTheEntryAsItsNewBucketDoes(int perBucket) {
    SplittableRandom r = TestSeed.random("moves rewrite bucket records, buckets of " + perBucket);
    String seed = ", buckets of " + perBucket + ", " + TestSeed.rerun();
    BucketRecordingTable t = new BucketRecordingTable(502, perBucket);
    KickPath kicks = new KickPath(200, 9);
    FingerprintStash stash = new FingerprintStash(64);
    int refusals = 0;
    while (refusals < 40) {
      long h = r.nextLong();
      long b1 = PartialKeyHashing.bucketIndex(h, t.bucketCount());
      int fp = PartialKeyHashing.fingerprint(h, 12);
      long b2 = PartialKeyHashing.alternateBucket(b1, fp, t.bucketCount());
      long entry = ArrayTable.entry(fp, b1);
      long[] before = t.contents();
      if (!(t.insert(b1, entry) || t.insert(b2, t.movedEntry(entry)) || kicks.relocate(t, b1, b2, entry))) {
        refusals++;
        assertArrayEquals(before, t.contents(), "a refused insert changed the table" + seed);
        stash.add(b1, fp, entry);
      }
      assertTrue(t.recordsAreTrue(), "an entry sits in a bucket other than the one it records" + seed);
    }
    // Emptying slots lets the stash move entries back, into either of their buckets.
    for (int i = 0; i < t.slots.length; i += 3) {
      t.slots[i] = 0;
    }
    assertTrue(stash.reinsert(t) > 0, "nothing moved back from the stash" + seed);
    assertTrue(t.recordsAreTrue(), "the stash moved an entry back without rewriting its record" + seed);
  }

  /**
   * A table that other writers share, one of whom comes between two writes of a path: just
   * before the path's n-th removal it takes that very entry (a remove of its key, or another
   * path that moved it), or just after the removal it fills the bucket the removal freed.
   */
  static final class MeddledTable extends ArrayTable {
    /** Removals to let pass before meddling; 0: done. */
    int removalsLeft;
    boolean takeTheEntry;
    long taken;
    final List<long[]> fillers = new ArrayList<>(); // {bucket, entry}
    long nextFiller = 1_000_000;

    MeddledTable(long buckets, int perBucket) {
      super(buckets, perBucket);
    }

    @Override
    public boolean remove(long bucket, long entry) {
      boolean meddle = removalsLeft > 0 && --removalsLeft == 0;
      if (meddle && takeTheEntry && super.remove(bucket, entry)) {
        taken = entry;
      }
      boolean removed = super.remove(bucket, entry);
      if (meddle && !takeTheEntry) {
        for (long filler = ArrayTable.entry(1 + (int) (nextFiller % 255), nextFiller); super.insert(bucket, filler);
            filler = ArrayTable.entry(1 + (int) (nextFiller % 255), nextFiller)) {
          fillers.add(new long[] {bucket, filler});
          nextFiller++;
        }
      }
      return removed;
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 4})
  void aSharedPathThatAnotherWriterSpoilsLosesNothingAndCopiesNothing(int perBucket) {
    SplittableRandom r = TestSeed.random("a shared path spoilt, buckets of " + perBucket);
    String seed = ", buckets of " + perBucket + ", " + TestSeed.rerun();
    MeddledTable t = new MeddledTable(64, perBucket);
    KickPath kicks = new KickPath(100, 5);
    Map<Long, long[]> buckets = new HashMap<>(); // entry -> its two buckets
    int spoilt = 0;
    for (long value = 1; value < 20_000 && spoilt < 200; value++) {
      while (buckets.size() > 0.95 * t.slots.length) { // keep room for paths to end in
        int i = r.nextInt(t.slots.length);
        buckets.remove(t.slots[i]);
        t.slots[i] = 0;
      }
      long h = r.nextLong();
      long b1 = PartialKeyHashing.bucketIndex(h, t.bucketCount());
      int fp = PartialKeyHashing.fingerprint(h, 8);
      long b2 = PartialKeyHashing.alternateBucket(b1, fp, t.bucketCount());
      long entry = ArrayTable.entry(fp, value);
      if (t.insert(b1, entry) || t.insert(b2, entry)) {
        buckets.put(entry, new long[] {b1, b2});
        continue;
      }
      t.removalsLeft = 1 + r.nextInt(3);
      t.takeTheEntry = r.nextBoolean();
      t.taken = 0;
      t.fillers.clear();
      boolean searched = kicks.freeSlot(t, b1, b2, entry);
      spoilt += t.removalsLeft == 0 ? 1 : 0;
      t.removalsLeft = 0;
      buckets.remove(t.taken);
      for (long[] f : t.fillers) {
        buckets.put(f[1], new long[] {f[0], t.alternate(f[0], t.fingerprintOf(f[1]))});
      }
      if (searched && t.taken == 0 && t.fillers.isEmpty()) {
        assertTrue(t.insert(b1, entry) || t.insert(b2, entry), "an unspoilt path freed no slot" + seed);
        buckets.put(entry, new long[] {b1, b2});
      }
      // Every entry once, in one of its buckets; nothing else.
      Map<Long, Integer> seen = new HashMap<>();
      for (long b = 0; b < t.bucketCount(); b++) {
        for (int s = 0; s < perBucket; s++) {
          long e = t.entryAt(b, s);
          if (e != 0) {
            long[] pair = buckets.get(e);
            assertTrue(pair != null, "value " + (e >>> 16) + " is stored but was taken or never stored" + seed);
            assertTrue(pair[0] == b || pair[1] == b, "value " + (e >>> 16) + " left its buckets" + seed);
            seen.merge(e, 1, Integer::sum);
          }
        }
      }
      for (long e : buckets.keySet()) {
        assertEquals(1, seen.getOrDefault(e, 0), "copies of value " + (e >>> 16) + seed);
      }
    }
    assertTrue(spoilt >= 200, "only " + spoilt + " paths were meddled with" + seed);
  }
}
