package dev.cuckoo.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.cuckoo.Concurrency;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.engine.CuckooTable;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * A lookup racing an insert that kicks the key's fingerprint to its other bucket, in a real
 * filter with {@code concurrency=striped}: the key's first bucket is full, and of its residents
 * only the key has room in its other bucket, so the insert's search picks the key and moves it.
 * The move takes the entry out of its bucket and then puts it in the other one; a lookup that
 * reads both buckets in between must not answer {@code false}.
 *
 * <p>Outcome: (every lookup made while the insert ran found the key, the insert returned true,
 * the key now sits in its other bucket). {@link RelocationCounter} runs on a table whose slot
 * writes are isolated (classic, 16-bit; classic tables of every width are), where a lookup's
 * miss is validated by the store's relocation counter alone; {@link StripeVersions} on one whose
 * are not (semi-sorted, which re-encodes whole buckets), where it is validated by the stripes'
 * versions.
 */
public class StripedKickTest {

  /** The keys of one shape's state, picked once. */
  static final class Scenario {
    final FilterSpec spec;
    final long key;
    final long[] fillers;
    final long inserted;
    final long keyOther;
    final int keyFingerprint;

    Scenario(String variant) {
      spec = FilterSpec.builder(variant).capacity(40).fingerprintBits(16).bucketSize(4)
          .hash(IdentityHash.INSTANCE).concurrency(Concurrency.STRIPED).build();
      TableKeys keys = new TableKeys(TableKeys.table(CuckooFilters.create(spec)), 35);
      key = keys.find(h -> keys.other(h) != keys.bucket(h));
      long bucket = keys.bucket(key);
      keyOther = keys.other(key);
      keyFingerprint = keys.fingerprint(key);
      // The insert's buckets: the key's first, and a full one that is neither of the key's.
      inserted = keys.find(h -> keys.bucket(h) == bucket && keys.other(h) != keyOther
          && keys.other(h) != bucket);
      long full = keys.other(inserted);
      fillers = new long[7];
      for (int i = 0; i < 3; i++) {
        // Residents of the key's bucket whose other bucket is full: only the key can move.
        fillers[i] = keys.keyIn(bucket, full);
      }
      for (int i = 3; i < 7; i++) {
        fillers[i] = keys.find(h -> keys.bucket(h) == full && keys.other(h) != keyOther);
      }
      FilterState check = new FilterState(this);
      if (!check.filter.add(inserted) || !check.moved()) {
        throw new IllegalStateException(spec + ": the insert did not move the key, the test would race nothing");
      }
    }
  }

  /** One filter: the key and the fillers stored, the insert not yet made. */
  static final class FilterState {
    final Scenario scenario;
    final CuckooFilter filter;
    final CuckooTable table;
    /** Set once the insert has returned. */
    volatile boolean inserted;

    FilterState(Scenario scenario) {
      this.scenario = scenario;
      this.filter = CuckooFilters.create(scenario.spec);
      this.table = TableKeys.table(filter);
      filter.add(scenario.key);
      for (long f : scenario.fillers) {
        filter.add(f);
      }
    }

    boolean lookUntilInserted() {
      return RepeatedLookup.allFound(() -> filter.mightContain(scenario.key), () -> inserted);
    }

    boolean insert() {
      boolean added = filter.add(scenario.inserted);
      inserted = true;
      return added;
    }

    boolean moved() {
      return TableKeys.holds(table, scenario.keyOther, scenario.keyFingerprint);
    }
  }

  /** Classic, 16-bit, buckets of 4: isolated slot writes, the relocation counter's path. */
  @JCStressTest
  @Outcome(id = "true, true, true", expect = ACCEPTABLE, desc = "found; the insert moved the key")
  @Outcome(id = "true, true, false", expect = ACCEPTABLE_INTERESTING, desc = "found; the key did not move: no race")
  @Outcome(id = "false, .*", expect = FORBIDDEN, desc = "key not found: a false negative")
  @Outcome(expect = FORBIDDEN, desc = "the insert was refused")
  @State
  public static class RelocationCounter {
    static final Scenario SCENARIO = new Scenario("classic");
    final FilterState s = new FilterState(SCENARIO);

    @Actor
    public void lookup(ZZZ_Result r) {
      r.r1 = s.lookUntilInserted();
    }

    @Actor
    public void insert(ZZZ_Result r) {
      r.r2 = s.insert();
    }

    @Arbiter
    public void moved(ZZZ_Result r) {
      r.r3 = s.moved();
    }
  }

  /** Semi-sorted, 16-bit: buckets re-encoded whole, the stripe versions' path. */
  @JCStressTest
  @Outcome(id = "true, true, true", expect = ACCEPTABLE, desc = "found; the insert moved the key")
  @Outcome(id = "true, true, false", expect = ACCEPTABLE_INTERESTING, desc = "found; the key did not move: no race")
  @Outcome(id = "false, .*", expect = FORBIDDEN, desc = "key not found: a false negative")
  @Outcome(expect = FORBIDDEN, desc = "the insert was refused")
  @State
  public static class StripeVersions {
    static final Scenario SCENARIO = new Scenario("semi-sorted");
    final FilterState s = new FilterState(SCENARIO);

    @Actor
    public void lookup(ZZZ_Result r) {
      r.r1 = s.lookUntilInserted();
    }

    @Actor
    public void insert(ZZZ_Result r) {
      r.r2 = s.insert();
    }

    @Arbiter
    public void moved(ZZZ_Result r) {
      r.r3 = s.moved();
    }
  }
}
