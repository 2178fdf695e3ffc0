package dev.cuckoo.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.engine.testkit.ArrayTable;
import dev.cuckoo.spi.PayloadInput;
import dev.cuckoo.testkit.Payloads;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
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

  private static PayloadInput payload(byte[] bytes) {
    return Payloads.input(bytes, bytes.length);
  }

  @Test
  void writeToAndReadRoundTripAndReadChecksEveryEntry() throws IOException {
    FingerprintStash s = new FingerprintStash(4);
    s.add(3, 0xFFFF);
    s.add(99, 1);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    s.writeTo(new DataOutputStream(bytes));
    assertEquals(s.payloadBytes(), bytes.size());
    FingerprintStash t = FingerprintStash.read(payload(bytes.toByteArray()), 4, 100, 16, "v");
    assertEquals(2, t.size());
    assertEquals(4, t.slots());
    assertEquals(3, t.bucket(0));
    assertEquals(0xFFFF, t.fingerprint(0));
    assertEquals(99, t.bucket(1));

    byte[] file = bytes.toByteArray();
    assertTrue(assertThrows(CorruptFilterException.class, () -> FingerprintStash.read(payload(file), 1, 100, 16, "v"))
        .getMessage().contains("v payload declares 2 stashed fingerprints, out of range: 0..1"));
    assertTrue(assertThrows(CorruptFilterException.class, () -> FingerprintStash.read(payload(file), 4, 99, 16, "v"))
        .getMessage().contains("stash entry 1"));
    assertTrue(assertThrows(CorruptFilterException.class, () -> FingerprintStash.read(payload(file), 4, 100, 15, "v"))
        .getMessage().contains("stash entry 0"));
    assertThrows(CorruptFilterException.class,
        () -> FingerprintStash.read(payload(java.util.Arrays.copyOf(file, file.length - 1)), 4, 100, 16, "v"));
  }
}
