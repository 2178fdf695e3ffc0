package dev.cuckoo.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.cuckoo.Concurrency;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.engine.FingerprintStash;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * Lookups of a key that waits in the stash of a filter with {@code concurrency=striped}, racing
 * a write that changes the stash: another key spilling into it ({@code Spill*}: both of its
 * buckets full and no kicks allowed), or a remove from the key's bucket, after which the store
 * moves the key from the stash back into the table ({@code Reinsert*}: the table is read before
 * and the stash after, so a lookup that straddles the move sees neither copy unless it
 * validates). {@code *Counter}: classic 16-bit (isolated slot writes, relocation counter);
 * {@code *Versions}: semi-sorted (stripe versions).
 *
 * <p>Outcome: (every lookup made while the write ran found the key, the write returned true, the
 * stash changed as the write meant: for a spill it holds two keys, for a reinsert none).
 */
public class StripedStashTest {

  /** The keys of one shape's state, picked once: the key's two buckets full, the key stashed. */
  static final class Scenario {
    final FilterSpec spec;
    final long key;
    final long[] fillers;
    /** A key of the same two buckets, which spills too. */
    final long spilled;

    Scenario(String variant) {
      spec = FilterSpec.builder(variant).capacity(40).fingerprintBits(16).bucketSize(4).maxKicks(0)
          .hash(IdentityHash.INSTANCE).concurrency(Concurrency.STRIPED).build();
      TableKeys keys = new TableKeys(TableKeys.table(CuckooFilters.create(spec)), 36);
      key = keys.find(h -> keys.other(h) != keys.bucket(h));
      long bucket = keys.bucket(key);
      long other = keys.other(key);
      fillers = new long[8];
      for (int i = 0; i < 8; i++) {
        long b = i < 4 ? bucket : other;
        fillers[i] = keys.find(h -> keys.bucket(h) == b);
      }
      spilled = keys.keyIn(bucket, other);
      FilterState check = new FilterState(this);
      if (check.stash.size() != 1) {
        throw new IllegalStateException(spec + ": the key was not stashed, the test would race nothing");
      }
    }
  }

  /** One filter: the fillers stored, then the key, which went to the stash. */
  static final class FilterState {
    final Scenario scenario;
    final CuckooFilter filter;
    final FingerprintStash stash;
    /** Set once the write has returned. */
    volatile boolean written;

    FilterState(Scenario scenario) {
      this.scenario = scenario;
      this.filter = CuckooFilters.create(scenario.spec);
      this.stash = TableKeys.stash(filter);
      for (long f : scenario.fillers) {
        filter.add(f);
      }
      filter.add(scenario.key);
    }

    boolean lookUntilWritten() {
      return RepeatedLookup.allFound(() -> filter.mightContain(scenario.key), () -> written);
    }

    boolean spill() {
      boolean added = filter.add(scenario.spilled);
      written = true;
      return added;
    }

    /** Removes a resident of the key's first bucket, which makes room for the stashed key. */
    boolean makeRoom() {
      boolean removed = filter.remove(scenario.fillers[0]);
      written = true;
      return removed;
    }
  }

  /** A spill beside the key, classic 16-bit (relocation counter path). */
  @JCStressTest
  @Outcome(id = "true, true, true", expect = ACCEPTABLE, desc = "found; the other key spilled into the stash")
  @Outcome(id = "true, true, false", expect = ACCEPTABLE_INTERESTING, desc = "found; no spill: no race")
  @Outcome(id = "false, .*", expect = FORBIDDEN, desc = "key not found: a false negative")
  @Outcome(expect = FORBIDDEN, desc = "the add was refused")
  @State
  public static class SpillCounter {
    static final Scenario SCENARIO = new Scenario("classic");
    final FilterState s = new FilterState(SCENARIO);

    @Actor
    public void lookup(ZZZ_Result r) {
      r.r1 = s.lookUntilWritten();
    }

    @Actor
    public void spill(ZZZ_Result r) {
      r.r2 = s.spill();
    }

    @Arbiter
    public void stashed(ZZZ_Result r) {
      r.r3 = s.stash.size() == 2;
    }
  }

  /** A spill beside the key, semi-sorted 16-bit (stripe versions path). */
  @JCStressTest
  @Outcome(id = "true, true, true", expect = ACCEPTABLE, desc = "found; the other key spilled into the stash")
  @Outcome(id = "true, true, false", expect = ACCEPTABLE_INTERESTING, desc = "found; no spill: no race")
  @Outcome(id = "false, .*", expect = FORBIDDEN, desc = "key not found: a false negative")
  @Outcome(expect = FORBIDDEN, desc = "the add was refused")
  @State
  public static class SpillVersions {
    static final Scenario SCENARIO = new Scenario("semi-sorted");
    final FilterState s = new FilterState(SCENARIO);

    @Actor
    public void lookup(ZZZ_Result r) {
      r.r1 = s.lookUntilWritten();
    }

    @Actor
    public void spill(ZZZ_Result r) {
      r.r2 = s.spill();
    }

    @Arbiter
    public void stashed(ZZZ_Result r) {
      r.r3 = s.stash.size() == 2;
    }
  }

  /** The key moving from the stash into the table, classic 16-bit (relocation counter path). */
  @JCStressTest
  @Outcome(id = "true, true, true", expect = ACCEPTABLE, desc = "found; the key moved from the stash to the table")
  @Outcome(id = "true, true, false", expect = ACCEPTABLE_INTERESTING, desc = "found; the key stayed stashed: no race")
  @Outcome(id = "false, .*", expect = FORBIDDEN, desc = "key not found: a false negative")
  @Outcome(expect = FORBIDDEN, desc = "the remove found nothing")
  @State
  public static class ReinsertCounter {
    static final Scenario SCENARIO = new Scenario("classic");
    final FilterState s = new FilterState(SCENARIO);

    @Actor
    public void lookup(ZZZ_Result r) {
      r.r1 = s.lookUntilWritten();
    }

    @Actor
    public void remove(ZZZ_Result r) {
      r.r2 = s.makeRoom();
    }

    @Arbiter
    public void unstashed(ZZZ_Result r) {
      r.r3 = s.stash.size() == 0;
    }
  }

  /** The key moving from the stash into the table, semi-sorted 16-bit (stripe versions path). */
  @JCStressTest
  @Outcome(id = "true, true, true", expect = ACCEPTABLE, desc = "found; the key moved from the stash to the table")
  @Outcome(id = "true, true, false", expect = ACCEPTABLE_INTERESTING, desc = "found; the key stayed stashed: no race")
  @Outcome(id = "false, .*", expect = FORBIDDEN, desc = "key not found: a false negative")
  @Outcome(expect = FORBIDDEN, desc = "the remove found nothing")
  @State
  public static class ReinsertVersions {
    static final Scenario SCENARIO = new Scenario("semi-sorted");
    final FilterState s = new FilterState(SCENARIO);

    @Actor
    public void lookup(ZZZ_Result r) {
      r.r1 = s.lookUntilWritten();
    }

    @Actor
    public void remove(ZZZ_Result r) {
      r.r2 = s.makeRoom();
    }

    @Arbiter
    public void unstashed(ZZZ_Result r) {
      r.r3 = s.stash.size() == 0;
    }
  }
}
