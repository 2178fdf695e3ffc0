package dev.cuckoo.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A long randomized run of one filter against the multiset model, for a variant's soak test
 * (tagged {@code soak}, run by {@code ./mvnw -B verify -Psoak}): millions of adds (on to refused
 * ones), addIfAbsents, removes of present keys, lookups, counts, clears and write/read round
 * trips, with the contract checked after each step and every stored key looked up at each round
 * trip.
 *
 * <p>The load moves in waves: the run alternates phases that mostly add (until a refusal, or the
 * key pool is used up) with phases that mostly remove (until the filter is a quarter full), so a
 * fixed-size filter spends much of the run near its limit and refuses adds. Keys come from a pool
 * of 1.3 times the capacity distinct keys, in every form, drawn at random, so duplicates happen.
 */
public final class SoakRun {
  /** Operations per run: 10^7, or {@code -Dcuckoo.soak.operations=N}. */
  public static final long OPERATIONS = Long.getLong("cuckoo.soak.operations", 10_000_000L);

  private final String config;
  private final long operations;
  private final long roundTripEvery;

  private long refused;
  private long roundTrips;
  private long clears;
  private long peakSize;

  /**
   * @param config the filter to run; its randomness comes from {@link TestSeed}, whose seed every
   *     failure message and the summary carry
   * @param operations how many operations
   */
  public SoakRun(String config, long operations) {
    this.config = config;
    this.operations = operations;
    this.roundTripEvery = Math.max(1, operations / 20);
  }

  /**
   * Runs it, failing on the first broken promise.
   *
   * @return the summary line: operations, refused adds, round trips, false negatives (0), time,
   *     seed
   */
  public String run() {
    long start = System.nanoTime();
    SplittableRandom r = TestSeed.random("soak " + config);
    CuckooFilter f = CuckooFilters.create(config);
    String where = "[" + config + ", soak " + TestSeed.rerun() + "]";
    long capacity = f.spec().capacity().getAsLong();
    int poolSize = (int) Math.min(Integer.MAX_VALUE - 8, capacity * 13 / 10 + 16);
    // Distinct keys, mostly of 8 bytes (cheap to hold), every tenth of any form. Duplicates come
    // from drawing a key again; a pool with repeats (random keys are often empty) would pile
    // hundreds of copies of one key into its two buckets, which fills a scalable chain's 32
    // sub-filters with that key alone.
    List<TestKey> pool = new ArrayList<>(poolSize);
    java.util.Set<TestKey> seen = new java.util.HashSet<>();
    while (pool.size() < poolSize) {
      TestKey k = pool.size() % 10 == 0 ? TestKey.random(r) : TestKey.ofLong(r.nextLong());
      if (seen.add(k)) {
        pool.add(k);
      }
    }
    KeyMultiset model = new KeyMultiset();
    boolean filling = true;
    long clearEvery = Math.max(1, operations / 3);
    for (long step = 1; step <= operations; step++) {
      int op = r.nextInt(100);
      if (filling ? op < 60 : op < 15) {
        TestKey k = pool.get(r.nextInt(poolSize));
        if (KeyForms.add(f, k, k.randomForm(r))) {
          model.add(k);
        } else {
          refused++;
          filling = false;
          if (refused % 1000 == 1) {
            check(f, model, where + " step " + step + " after refused add " + refused);
          }
        }
      } else if (op < 70) {
        TestKey k = pool.get(r.nextInt(poolSize));
        boolean present = model.count(k) > 0;
        boolean added = KeyForms.addIfAbsent(f, k, k.randomForm(r));
        if (present && added) {
          fail(where + " step " + step + ": addIfAbsent added a copy of present " + k);
        }
        if (added) {
          model.add(k);
        }
      } else if (filling ? op < 80 : op < 85) {
        TestKey k = model.randomPresent(r);
        if (k != null) {
          if (!KeyForms.remove(f, k, k.randomForm(r))) {
            fail(where + " step " + step + ": remove of present " + k + " returned false");
          }
          model.remove(k);
        }
      } else if (op < 95) {
        TestKey k = model.randomPresent(r);
        if (k != null && !KeyForms.mightContain(f, k, k.randomForm(r))) {
          fail(where + " step " + step + ": false negative for " + k);
        }
      } else {
        TestKey k = r.nextBoolean() ? model.randomPresent(r) : pool.get(r.nextInt(poolSize));
        if (k != null && KeyForms.count(f, k, k.randomForm(r)) < model.count(k)) {
          fail(where + " step " + step + ": count below multiplicity " + model.count(k) + " of " + k);
        }
      }
      if (model.total() != f.size()) {
        fail(where + " step " + step + ": size " + f.size() + ", the model holds " + model.total());
      }
      peakSize = Math.max(peakSize, model.total());
      if (!filling && model.total() <= capacity / 4) {
        filling = true;
      } else if (filling && model.distinct().size() >= poolSize * 9L / 10) {
        filling = false; // a growing filter never refuses: drain once most of the pool is in
      }
      if (step % roundTripEvery == 0) {
        CuckooFilter g = CuckooFilterContractTest.roundTrip(f);
        roundTrips++;
        assertEquals(f.spec(), g.spec(), where + " step " + step + ": spec changed by write/read");
        assertEquals(model.total(), g.size(), where + " step " + step + ": size after write/read");
        check(g, model, where + " step " + step + " after write/read");
        f = g;
      }
      if (step % clearEvery == 0) {
        check(f, model, where + " step " + step + " before clear");
        f.clear();
        model.clear();
        clears++;
        assertEquals(0, f.size(), where + " step " + step + ": size after clear");
        for (int i = 0; i < 100; i++) {
          TestKey k = pool.get(r.nextInt(poolSize));
          assertFalse(f.mightContain(k.bytes), where + ": cleared filter reports " + k);
        }
        filling = true;
      }
    }
    check(f, model, where + " at the end");
    assertTrue(refused > 0 || !refusesWhenFull(f), where + ": " + operations + " operations never reached a refused add");
    double seconds = (System.nanoTime() - start) / 1e9;
    return String.format("soak %s: %,d operations, %,d refused adds, %,d round trips, %d clears, peak size %,d,"
        + " false negatives 0, %.1f s, seed %d", config, operations, refused, roundTrips, clears, peakSize, seconds,
        TestSeed.BASE);
  }

  /** @return refused adds so far */
  public long refused() {
    return refused;
  }

  private static boolean refusesWhenFull(CuckooFilter f) {
    // Only a growing chain (variant scalable with a non-zero expansion) takes every key.
    return !f.spec().option("expansion").map(e -> !e.equals("0")).orElse(false);
  }

  private static void check(CuckooFilter f, KeyMultiset model, String where) {
    OperationSequence.checkAll(f, model, () -> where);
  }
}
