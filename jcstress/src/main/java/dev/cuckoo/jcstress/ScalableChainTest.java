package dev.cuckoo.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.cuckoo.Concurrency;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.scalable.ScalableCuckooFilter;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * Lookups in a {@code scalable} filter with {@code concurrency=locked} racing the writes that
 * change its chain of sub-filters. A lookup reads the chain optimistically (a {@code
 * StampedLock} stamp) and must not answer {@code false} for a stored key, nor fail, whatever it
 * read. The first sub-filter is full (buckets of one slot). {@link Grow}: an add whose kick loop
 * moves the stored fingerprints around, fails, undoes itself and grows the chain by a
 * sub-filter. {@link Compact}: the chain has grown; a remove frees the slot the newest
 * sub-filter's one key may move to, so that the compaction it starts moves the key to the
 * first sub-filter and drops the emptied newest one.
 *
 * <p>Outcome: (every lookup made while the write ran found every stored key, the write returned
 * true, the chain has the sub-filters the write should leave).
 */
public class ScalableChainTest {

  /** A filter one add short of growing, the add that grows it, and a remove that compacts it then. */
  static final class Scenario {
    final FilterSpec spec = FilterSpec.builder("scalable").capacity(8).bucketSize(1).maxKicks(20)
        .hash(IdentityHash.INSTANCE).concurrency(Concurrency.LOCKED).build();
    final long[] keys;
    final long growing;
    /** The key whose remove compacts the grown chain. */
    final long removed;
    /** The keys stored once it is removed: the others and the growing one. */
    final long[] left;

    Scenario() {
      for (long seed = 1; seed < 1000; seed++) {
        long[] picked = pick(seed);
        if (picked != null) {
          keys = Arrays.copyOf(picked, picked.length - 2);
          growing = picked[picked.length - 2];
          int i = (int) picked[picked.length - 1];
          removed = keys[i];
          left = without(keys, i, growing);
          return;
        }
      }
      throw new IllegalStateException(spec + ": no state found one add short of growing");
    }

    /** @return the keys stored, then the add that grows the chain, then which key to remove; or null */
    private long[] pick(long seed) {
      SplittableRandom random = new SplittableRandom(seed);
      ScalableCuckooFilter f = (ScalableCuckooFilter) CuckooFilters.create(spec);
      long[] added = new long[64];
      for (int n = 0; n < added.length; n++) {
        long h = random.nextLong();
        if (!f.add(h)) {
          return null;
        }
        if (f.subFilterCount() > 1) {
          long[] keys = Arrays.copyOf(added, n);
          for (int i = 0; i < n; i++) {
            if (compacts(keys, h, i)) {
              long[] picked = Arrays.copyOf(keys, n + 2);
              picked[n] = h;
              picked[n + 1] = i;
              return picked;
            }
          }
          return null;
        }
        added[n] = h;
      }
      return null;
    }

    /** @return whether removing keys[i] after the growing add leaves one sub-filter holding the rest */
    private boolean compacts(long[] keys, long growing, int i) {
      FilterState s = new FilterState(this, keys, without(keys, i, growing));
      s.filter.add(growing);
      return s.filter.remove(keys[i]) && s.filter.subFilterCount() == 1 && s.allFound();
    }

    /** @return the keys but keys[i], and {@code added} */
    private static long[] without(long[] keys, int i, long added) {
      long[] left = keys.clone();
      left[i] = added;
      return left;
    }
  }

  /** One filter, one add short of growing. */
  static final class FilterState {
    final ScalableCuckooFilter filter;
    /** The keys the lookups look for. */
    final long[] stored;
    /** Set once the write has returned. */
    volatile boolean written;

    FilterState(Scenario scenario, long[] keys, long[] stored) {
      this.filter = (ScalableCuckooFilter) CuckooFilters.create(scenario.spec);
      this.stored = stored;
      for (long h : keys) {
        filter.add(h);
      }
    }

    /** @return whether every key of {@link #stored} is found */
    boolean allFound() {
      CuckooFilter f = filter;
      boolean found = true;
      for (long h : stored) {
        found &= f.mightContain(h);
      }
      return found;
    }

    boolean lookUntilWritten() {
      return RepeatedLookup.allFound(this::allFound, () -> written);
    }
  }

  /** The add that grows the chain, racing lookups of every stored key. */
  @JCStressTest
  @Outcome(id = "true, true, true", expect = ACCEPTABLE, desc = "all found; the add grew the chain")
  @Outcome(id = "true, true, false", expect = ACCEPTABLE_INTERESTING, desc = "all found; the chain did not grow")
  @Outcome(id = "false, .*", expect = FORBIDDEN, desc = "a stored key not found: a false negative")
  @Outcome(expect = FORBIDDEN, desc = "the add was refused")
  @State
  public static class Grow {
    static final Scenario SCENARIO = new Scenario();
    // The growing key is not looked up: it is stored only once the add returns.
    final FilterState s = new FilterState(SCENARIO, SCENARIO.keys, SCENARIO.keys);

    @Actor
    public void lookup(ZZZ_Result r) {
      r.r1 = s.lookUntilWritten();
    }

    @Actor
    public void grow(ZZZ_Result r) {
      r.r2 = s.filter.add(SCENARIO.growing);
      s.written = true;
    }

    @Arbiter
    public void grew(ZZZ_Result r) {
      r.r3 = s.filter.subFilterCount() == 2;
    }
  }

  /** The remove that compacts the grown chain, racing lookups of every key left. */
  @JCStressTest
  @Outcome(id = "true, true, true", expect = ACCEPTABLE, desc = "all found; the chain was compacted to one sub-filter")
  @Outcome(id = "true, true, false", expect = ACCEPTABLE_INTERESTING, desc = "all found; the chain was not compacted")
  @Outcome(id = "false, .*", expect = FORBIDDEN, desc = "a stored key not found: a false negative")
  @Outcome(expect = FORBIDDEN, desc = "the remove found nothing")
  @State
  public static class Compact {
    static final Scenario SCENARIO = new Scenario();
    final FilterState s = new FilterState(SCENARIO, SCENARIO.keys, SCENARIO.left);

    {
      s.filter.add(SCENARIO.growing);
    }

    @Actor
    public void lookup(ZZZ_Result r) {
      r.r1 = s.lookUntilWritten();
    }

    @Actor
    public void compact(ZZZ_Result r) {
      r.r2 = s.filter.remove(SCENARIO.removed);
      s.written = true;
    }

    @Arbiter
    public void compacted(ZZZ_Result r) {
      r.r3 = s.filter.subFilterCount() == 1;
    }
  }
}
