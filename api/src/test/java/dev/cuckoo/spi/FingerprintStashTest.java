package dev.cuckoo.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FingerprintStashTest {

  @Test
  void entriesMatchEitherBucketOfTheKey() {
    long buckets = 100;
    FingerprintStash s = new FingerprintStash(3);
    long alt = PartialKeyHashing.alternateBucket(10, 77, buckets);
    assertFalse(s.contains(10, alt, 77));
    assertTrue(s.add(10, 77));
    assertTrue(s.add(alt, 77));
    assertTrue(s.add(11, 78));
    assertFalse(s.add(12, 79), "full");
    assertEquals(3, s.size());
    assertTrue(s.contains(10, alt, 77));
    assertTrue(s.contains(alt, 10, 77));
    assertFalse(s.contains(10, alt, 78));
    assertFalse(s.contains(12, 13, 77));
    assertEquals(2, s.count(10, alt, 77));
    assertTrue(s.remove(alt, 10, 77));
    assertEquals(1, s.count(10, alt, 77));
    assertFalse(s.remove(12, 13, 77));
    assertEquals(2, s.size());
    s.clear();
    assertEquals(0, s.size());
    assertFalse(s.contains(10, alt, 77));
    assertThrows(IndexOutOfBoundsException.class, () -> s.bucket(0));
    assertThrows(IllegalArgumentException.class, () -> new FingerprintStash(-1));
  }

  @Test
  void reinsertMovesWhatFitsBackIntoTheTable() {
    ArrayTable t = new ArrayTable(4, 1);
    FingerprintStash s = new FingerprintStash(4);
    int fp = 9;
    long alt = PartialKeyHashing.alternateBucket(0, fp, 4);
    t.insert(0, 1);
    t.insert(alt, 2);
    s.add(0, fp);
    assertEquals(0, s.reinsert(t), "both buckets are full");
    t.replace(alt, 2, 0); // a removal frees the alternate bucket
    assertEquals(1, s.reinsert(t));
    assertEquals(0, s.size());
    assertTrue(t.holds(alt, fp));
  }
}
