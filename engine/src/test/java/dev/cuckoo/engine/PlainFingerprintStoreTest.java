package dev.cuckoo.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.engine.testkit.ArrayTable;
import dev.cuckoo.testkit.TestSeed;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PlainFingerprintStoreTest {

  @Test
  void addLookupCountAndRemoveMatchAMultisetThroughKicksAndTheStash() {
    // 16 buckets of 2: small enough that the kick path, its undo, the stash and refusals all run.
    ArrayTable table = new ArrayTable(16, 2);
    FingerprintStash stash = new FingerprintStash(3);
    PlainFingerprintStore store = new PlainFingerprintStore(table, stash, new KickPath(50, 1), 0);
    assertEquals(16 * 2 + 3, store.slots(), "the table's slots and the stash's");
    Map<Long, Integer> model = new HashMap<>();
    SplittableRandom r = TestSeed.random("plain-store");
    String seed = ", " + TestSeed.rerun();
    long[] keys = new long[60];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = r.nextLong();
    }
    for (int step = 0; step < 20_000; step++) {
      long key = keys[r.nextInt(keys.length)];
      int copies = model.getOrDefault(key, 0);
      if (r.nextBoolean()) {
        long[] before = table.contents();
        int stashed = stash.size();
        if (store.add(key)) {
          model.merge(key, 1, Integer::sum);
        } else {
          assertEquals(java.util.Arrays.toString(before), java.util.Arrays.toString(table.contents()),
              "step " + step + ": refused add" + seed);
          assertEquals(stashed, stash.size(), "step " + step + ": a refused add changed the stash" + seed);
        }
      } else if (copies > 0) {
        assertTrue(store.remove(key), "step " + step + seed);
        model.merge(key, -1, Integer::sum);
      }
      long size = 0;
      for (Map.Entry<Long, Integer> e : model.entrySet()) {
        size += e.getValue();
        if (e.getValue() > 0) {
          assertTrue(store.mightContain(e.getKey()), "step " + step + ": false negative" + seed);
          assertTrue(store.count(e.getKey()) >= e.getValue(), "step " + step + ": count" + seed);
        }
      }
      assertEquals(size, store.size(), "step " + step + seed);
    }
    store.clear();
    assertEquals(0, store.size());
    assertEquals(0, stash.size());
    assertFalse(store.mightContain(keys[0]));
    assertFalse(store.remove(keys[0]));
  }

  /**
   * A table whose entries carry values (a record's offset, say): through kicks, the stash, its
   * reinserts and removals of exact entries, every value stays with its fingerprint, and
   * removing one entry never takes another that shares its fingerprint and buckets.
   */
  @Test
  void valuesStayWithTheirFingerprintsThroughKicksTheStashAndRemovals() {
    ArrayTable table = new ArrayTable(16, 2);
    FingerprintStash stash = new FingerprintStash(4);
    PlainFingerprintStore store = new PlainFingerprintStore(table, stash, new KickPath(50, 3), 0);
    SplittableRandom r = TestSeed.random("valued entries");
    Map<Long, long[]> stored = new HashMap<>(); // value -> {bucket1, fingerprint}
    long value = 1;
    int refused = 0;
    // Few fingerprints, so that entries share fingerprints and buckets and the stash fills.
    while (refused < 20) {
      long bucket1 = r.nextInt(16);
      int fingerprint = 1 + r.nextInt(3);
      long entry = ArrayTable.entry(fingerprint, value);
      if (store.addEntry(bucket1, fingerprint, entry)) {
        stored.put(value, new long[] {bucket1, fingerprint});
      } else {
        refused++;
      }
      value++;
    }
    assertTrue(stash.size() > 0, "the stash was used; " + TestSeed.rerun());
    assertHoldsExactly(table, stash, stored);
    // Remove entries in random order; each removal must take exactly the entry named.
    java.util.List<Long> values = new java.util.ArrayList<>(stored.keySet());
    java.util.Collections.shuffle(values, new java.util.Random(r.nextLong()));
    for (long v : values) {
      long[] at = stored.remove(v);
      assertTrue(store.removeEntry(at[0], (int) at[1], ArrayTable.entry((int) at[1], v)), "remove of value " + v + "; " + TestSeed.rerun());
      assertHoldsExactly(table, stash, stored);
      assertEquals(stored.size(), store.size(), TestSeed.rerun());
    }
  }

  /** Every stored value, and nothing else, sits with its fingerprint in its buckets or the stash. */
  private static void assertHoldsExactly(ArrayTable table, FingerprintStash stash, Map<Long, long[]> stored) {
    Map<Long, Long> where = new HashMap<>(); // value -> bucket it sits in (-1: the stash)
    for (int b = 0; b < 16; b++) {
      for (int s = 0; s < 2; s++) {
        long e = table.entryAt(b, s);
        if (e != 0) {
          assertEquals(null, where.put(e >>> 16, (long) b), "value " + (e >>> 16) + " twice; " + TestSeed.rerun());
        }
      }
    }
    for (int i = 0; i < stash.size(); i++) {
      assertEquals(null, where.put(stash.entry(i) >>> 16, -1L), "value " + (stash.entry(i) >>> 16) + " twice; " + TestSeed.rerun());
    }
    assertEquals(stored.keySet(), where.keySet(), "the values held; " + TestSeed.rerun());
    for (Map.Entry<Long, long[]> e : stored.entrySet()) {
      long bucket1 = e.getValue()[0];
      int fingerprint = (int) e.getValue()[1];
      long bucket2 = PartialKeyHashing.alternateBucket(bucket1, fingerprint, 16);
      long at = where.get(e.getKey());
      assertTrue(at == bucket1 || at == bucket2 || at == -1, "value " + e.getKey() + " left its buckets; " + TestSeed.rerun());
    }
  }
}
