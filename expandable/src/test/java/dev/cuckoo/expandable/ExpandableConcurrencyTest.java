package dev.cuckoo.expandable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.Concurrency;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.testkit.ConcurrentUse;
import dev.cuckoo.testkit.TestSeed;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Expandable filters with {@code concurrency=locked} shared by writer and reader threads, from
 * starts small enough that the table doubles several times while readers look up without a
 * lock.
 */
class ExpandableConcurrencyTest {

  @Test
  void onlyNoneAndLockedAreAllowed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.create("expandable?concurrency=striped"));
    assertEquals("concurrency=striped is out of range for variant expandable: none, threadsafe, locked", e.getMessage());
    assertEquals(Concurrency.LOCKED, CuckooFilters.create("expandable?concurrency=threadsafe").spec().concurrency().orElseThrow());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "expandable?capacity=238&concurrency=locked",
      "expandable?capacity=1000&bucketSize=8&fingerprintBits=32&concurrency=locked"})
  void writersAndReadersLoseNothingWhileTheTableDoubles(String config) throws InterruptedException {
    new ConcurrentUse(config, 3, 2, 6_000, 4, 100_000).run();
  }

  /**
   * Lookups without a lock of keys stored before the race, while one writer adds enough keys to
   * double the table ten times: a lookup that overlaps a kick or a doubling must retry, never
   * answer no.
   */
  @Test
  void lookupsRacingDoublingsFindEveryStoredKey() throws InterruptedException {
    CuckooFilter f = CuckooFilters.create("expandable?capacity=238&concurrency=locked");
    SplittableRandom r = TestSeed.random("racing doublings");
    long[] stored = new long[2_000];
    for (int i = 0; i < stored.length; i++) {
      stored[i] = r.nextLong();
      assertTrue(f.add(stored[i]));
    }
    long[] more = new long[200_000];
    for (int i = 0; i < more.length; i++) {
      more[i] = r.nextLong();
    }
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicLong misses = new AtomicLong();
    AtomicLong lookups = new AtomicLong();
    Thread writer = new Thread(() -> {
      for (long key : more) {
        f.add(key);
      }
      writing.set(false);
    });
    Thread[] readers = new Thread[2];
    for (int t = 0; t < readers.length; t++) {
      readers[t] = new Thread(() -> {
        long n = 0;
        do {
          for (long key : stored) {
            misses.addAndGet(f.mightContain(key) ? 0 : 1);
            n++;
          }
        } while (writing.get());
        lookups.addAndGet(n);
      });
    }
    writer.start();
    for (Thread t : readers) {
      t.start();
    }
    writer.join();
    for (Thread t : readers) {
      t.join();
    }
    assertEquals(0, misses.get(), "false negatives in " + lookups.get() + " lookups racing doublings, " + TestSeed.rerun());
    assertEquals(stored.length + more.length, f.size());
    assertTrue(f.capacity() > 200_000, "capacity " + f.capacity());
  }

  /**
   * A small table held near its growth load, a writer adding and removing one key at a time (so
   * that most adds kick residents along a path), and readers looking up the residents without a
   * lock: an entry on its way to its other bucket is in neither for a moment, and only the
   * check after the read keeps that from being a false negative.
   */
  @Test
  void lookupsRacingKicksFindEveryResident() throws InterruptedException {
    CuckooFilter f = CuckooFilters.create("expandable?capacity=238&concurrency=locked");
    SplittableRandom r = TestSeed.random("racing kicks");
    long[] residents = new long[(int) (f.capacity() - 4)];
    for (int i = 0; i < residents.length; i++) {
      residents[i] = r.nextLong();
      assertTrue(f.add(residents[i]));
    }
    long bytes = f.sizeInBytes();
    long[] visitors = new long[1 << 16];
    for (int i = 0; i < visitors.length; i++) {
      visitors[i] = r.nextLong();
    }
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicLong misses = new AtomicLong();
    Thread writer = new Thread(() -> {
      for (int round = 0; round < 50; round++) {
        for (long key : visitors) {
          if (f.add(key)) {
            f.remove(key);
          }
        }
      }
      writing.set(false);
    });
    Thread reader = new Thread(() -> {
      do {
        for (long key : residents) {
          misses.addAndGet(f.mightContain(key) ? 0 : 1);
        }
      } while (writing.get());
    });
    writer.start();
    reader.start();
    writer.join();
    reader.join();
    assertEquals(0, misses.get(), "false negatives in lookups racing kicks, " + TestSeed.rerun());
    assertEquals(residents.length, f.size());
    assertEquals(bytes, f.sizeInBytes(), "the table did not grow");
  }
}
