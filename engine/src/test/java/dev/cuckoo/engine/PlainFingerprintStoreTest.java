package dev.cuckoo.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    SplittableRandom r = new SplittableRandom(TestSeed.of("plain-store"));
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
          assertEquals(java.util.Arrays.toString(before), java.util.Arrays.toString(table.contents()), "refused add");
          assertEquals(stashed, stash.size(), "a refused add changed the stash");
        }
      } else if (copies > 0) {
        assertTrue(store.remove(key), "step " + step);
        model.merge(key, -1, Integer::sum);
      }
      long size = 0;
      for (Map.Entry<Long, Integer> e : model.entrySet()) {
        size += e.getValue();
        if (e.getValue() > 0) {
          assertTrue(store.mightContain(e.getKey()), "step " + step + ": false negative");
          assertTrue(store.count(e.getKey()) >= e.getValue(), "step " + step + ": count");
        }
      }
      assertEquals(size, store.size());
    }
    store.clear();
    assertEquals(0, store.size());
    assertEquals(0, stash.size());
    assertFalse(store.mightContain(keys[0]));
    assertFalse(store.remove(keys[0]));
  }
}
