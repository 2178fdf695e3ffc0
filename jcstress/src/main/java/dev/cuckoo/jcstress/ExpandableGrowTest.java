package dev.cuckoo.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.cuckoo.Concurrency;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * Lookups in an {@code expandable} filter with {@code concurrency=locked} racing the add that
 * doubles its table: the filter holds exactly the entries at which the next add doubles first.
 * A lookup reads the table optimistically (a {@code StampedLock} stamp) and must not answer
 * {@code false} for a stored key, whether it read the old table, the new one, or either half
 * written. {@link InTable}: the key sits in the table. {@link InStash}: the key waits in the
 * stash (no kicks allowed), which a doubling ages and then empties into the new table, so the key
 * moves while the lookup runs.
 *
 * <p>Outcome: (every lookup made while the add ran found the key, the add returned true, the
 * table doubled).
 */
public class ExpandableGrowTest {

  /** The keys of one state, picked once: the filter one add short of doubling. */
  static final class Scenario {
    final FilterSpec spec;
    final long[] keys;
    final long key;
    final long growing;

    Scenario(int maxKicks, boolean stashed) {
      spec = FilterSpec.builder("expandable").capacity(24).fingerprintBits(16).bucketSize(4).maxKicks(maxKicks)
          .hash(IdentityHash.INSTANCE).concurrency(Concurrency.LOCKED).build();
      for (long seed = 1; seed < 1000; seed++) {
        long[] picked = pick(seed, stashed);
        if (picked != null) {
          keys = Arrays.copyOf(picked, picked.length - 2);
          key = picked[picked.length - 2];
          growing = picked[picked.length - 1];
          return;
        }
      }
      throw new IllegalStateException(spec + ": no state found one add short of doubling");
    }

    /** @return the keys stored, then the key looked up, then the add that doubles; or null */
    private long[] pick(long seed, boolean stashed) {
      SplittableRandom random = new SplittableRandom(seed);
      CuckooFilter f = CuckooFilters.create(spec);
      int k = tableBits(f);
      long growAt = (long) TableKeys.field(f, "growAt");
      long[] added = new long[(int) growAt + 2];
      long key = 0;
      boolean keyFound = false;
      for (int n = 0; entries(f) < growAt; n++) {
        long h = random.nextLong();
        int before = stashSize(f);
        if (!f.add(h) || tableBits(f) != k) {
          return null;
        }
        added[n] = h;
        if (!keyFound && (stashed ? stashSize(f) > before : n == 0)) {
          key = h;
          keyFound = true;
        }
        if (entries(f) == growAt) {
          if (!keyFound || !stashed && stashSize(f) != 0) {
            return null;
          }
          long[] picked = Arrays.copyOf(added, n + 3);
          picked[n + 1] = key;
          picked[n + 2] = random.nextLong();
          return picked;
        }
      }
      return null;
    }
  }

  static int tableBits(CuckooFilter f) {
    return (int) TableKeys.field(TableKeys.field(f, "table"), "k");
  }

  static long entries(CuckooFilter f) {
    return (long) TableKeys.field(f, "entries");
  }

  static int stashSize(CuckooFilter f) {
    return (int) TableKeys.field(TableKeys.field(f, "stash"), "size");
  }

  /** One filter, one add short of doubling. */
  static final class FilterState {
    final Scenario scenario;
    final CuckooFilter filter;
    final int bits;
    /** Set once the add has returned. */
    volatile boolean grown;

    FilterState(Scenario scenario) {
      this.scenario = scenario;
      this.filter = CuckooFilters.create(scenario.spec);
      for (long h : scenario.keys) {
        filter.add(h);
      }
      this.bits = tableBits(filter);
    }

    boolean lookUntilGrown() {
      return RepeatedLookup.allFound(() -> filter.mightContain(scenario.key), () -> grown);
    }

    boolean grow() {
      boolean added = filter.add(scenario.growing);
      grown = true;
      return added;
    }

    boolean doubled() {
      return tableBits(filter) == bits + 1;
    }
  }

  /** The key in the table. */
  @JCStressTest
  @Outcome(id = "true, true, true", expect = ACCEPTABLE, desc = "found; the add doubled the table")
  @Outcome(id = "true, true, false", expect = ACCEPTABLE_INTERESTING, desc = "found; the table did not double: no race")
  @Outcome(id = "false, .*", expect = FORBIDDEN, desc = "key not found: a false negative")
  @Outcome(expect = FORBIDDEN, desc = "the add was refused")
  @State
  public static class InTable {
    static final Scenario SCENARIO = new Scenario(500, false);
    final FilterState s = new FilterState(SCENARIO);

    @Actor
    public void lookup(ZZZ_Result r) {
      r.r1 = s.lookUntilGrown();
    }

    @Actor
    public void grow(ZZZ_Result r) {
      r.r2 = s.grow();
    }

    @Arbiter
    public void doubled(ZZZ_Result r) {
      r.r3 = s.doubled();
    }
  }

  /** The key in the stash, which the doubling empties into the new table. */
  @JCStressTest
  @Outcome(id = "true, true, true", expect = ACCEPTABLE, desc = "found; the add doubled the table")
  @Outcome(id = "true, true, false", expect = ACCEPTABLE_INTERESTING, desc = "found; the table did not double: no race")
  @Outcome(id = "false, .*", expect = FORBIDDEN, desc = "key not found: a false negative")
  @Outcome(expect = FORBIDDEN, desc = "the add was refused")
  @State
  public static class InStash {
    static final Scenario SCENARIO = new Scenario(0, true);
    final FilterState s = new FilterState(SCENARIO);

    @Actor
    public void lookup(ZZZ_Result r) {
      r.r1 = s.lookUntilGrown();
    }

    @Actor
    public void grow(ZZZ_Result r) {
      r.r2 = s.grow();
    }

    @Arbiter
    public void doubled(ZZZ_Result r) {
      r.r3 = s.doubled();
    }
  }
}
