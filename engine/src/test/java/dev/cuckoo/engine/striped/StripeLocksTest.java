package dev.cuckoo.engine.striped;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StripeLocksTest {

  @Test
  void bucketsThatShareAWordShareAStripe() {
    for (long bucketBits : new long[] {4, 5, 12, 16, 24, 32, 36, 48, 52, 60, 64, 96, 124, 256}) {
      StripeLocks locks = new StripeLocks(100_000, bucketBits);
      for (long bucket = 0; bucket + 1 < 5_000; bucket++) {
        long lastWord = ((bucket + 1) * bucketBits - 1) >>> 6;
        long nextFirstWord = ((bucket + 1) * bucketBits) >>> 6;
        if (lastWord == nextFirstWord) {
          assertEquals(locks.stripe(bucket), locks.stripe(bucket + 1),
              bucketBits + "-bit buckets " + bucket + " and " + (bucket + 1) + " share word " + lastWord);
        }
      }
    }
  }

  @Test
  void stripesArePowersOfTwoSpreadOverTheTableAndCapped() {
    assertEquals(1, new StripeLocks(1, 60).stripes());
    assertEquals(1, new StripeLocks(16, 60).stripes());
    assertEquals(2, new StripeLocks(17, 60).stripes());
    assertEquals(StripeLocks.MAX_STRIPES, new StripeLocks(1L << 40, 60).stripes());
    StripeLocks locks = new StripeLocks(1 << 20, 64);
    int[] hits = new int[locks.stripes()];
    for (long bucket = 0; bucket < 1 << 20; bucket++) {
      hits[locks.stripe(bucket)]++;
    }
    for (int h : hits) {
      assertEquals((1 << 20) / locks.stripes(), h);
    }
    assertEquals(locks.stripes(), locks.extraStripe());
  }

  @Test
  void aReadOverlappingAWriteIsNotValid() {
    StripeLocks locks = new StripeLocks(1024, 64);
    int v = locks.version(3);
    assertTrue(locks.unchanged(3, v));
    locks.lock(3);
    locks.beginWrite(3);
    int during = locks.version(3);
    assertFalse(locks.unchanged(3, during), "odd version: a writer is in the stripe");
    assertFalse(locks.unchanged(3, v));
    locks.endWrite(3);
    locks.unlock(3);
    assertFalse(locks.unchanged(3, v), "the stripe changed since the read began");
    int after = locks.version(3);
    assertTrue(locks.unchanged(3, after));
    assertTrue(locks.unchanged(3, after, 4, locks.version(4)));
    assertFalse(locks.unchanged(3, v, 4, locks.version(4)));
  }

  @Test
  void twoStripesAreLockedLowerFirstSoOpposedWritersDoNotDeadlock() throws InterruptedException {
    StripeLocks locks = new StripeLocks(1024, 64);
    Runnable forward = () -> {
      for (int i = 0; i < 20_000; i++) {
        locks.lock(1, 2);
        locks.unlock(1, 2);
      }
    };
    Runnable backward = () -> {
      for (int i = 0; i < 20_000; i++) {
        locks.lock(2, 1);
        locks.lock(locks.extraStripe());
        locks.unlock(locks.extraStripe());
        locks.unlock(2, 1);
      }
    };
    Thread a = new Thread(forward);
    Thread b = new Thread(backward);
    a.start();
    b.start();
    a.join(60_000);
    b.join(60_000);
    assertFalse(a.isAlive() || b.isAlive(), "deadlock");
    locks.lockAll();
    locks.unlockAll();
  }
}
