package dev.cuckoo.testkit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** The model a filter is checked against: how many copies of each key are stored. */
public final class KeyMultiset {
  private final Map<TestKey, Integer> counts = new HashMap<>();
  private final Map<TestKey, Integer> index = new HashMap<>();
  private final List<TestKey> present = new ArrayList<>();
  private long total;

  /** @return copies of the key */
  public int count(TestKey k) {
    return counts.getOrDefault(k, 0);
  }

  /** Adds one copy. */
  public void add(TestKey k) {
    if (counts.merge(k, 1, Integer::sum) == 1) {
      index.put(k, present.size());
      present.add(k);
    }
    total++;
  }

  /** Removes one copy of a present key. */
  public void remove(TestKey k) {
    int c = counts.get(k);
    if (c == 1) {
      counts.remove(k);
      int i = index.remove(k);
      TestKey last = present.remove(present.size() - 1);
      // By value: a caller may pass an equal key that is not the stored object.
      if (!last.equals(k)) {
        present.set(i, last);
        index.put(last, i);
      }
    } else {
      counts.put(k, c - 1);
    }
    total--;
  }

  /** @return a uniformly chosen present key, or null if empty */
  public TestKey randomPresent(SplittableRandom r) {
    return present.isEmpty() ? null : present.get(r.nextInt(present.size()));
  }

  /** @return every distinct key present */
  public List<TestKey> distinct() {
    return present;
  }

  /** @return copies stored in all */
  public long total() {
    return total;
  }

  /** Empties the model. */
  public void clear() {
    counts.clear();
    index.clear();
    present.clear();
    total = 0;
  }
}
