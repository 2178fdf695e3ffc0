package dev.cuckoo.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.testkit.TestKey.Form;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Runs a sequence of filter operations, read from arbitrary bytes, against a filter and the
 * multiset model, asserting the contract after each: no false negatives, {@code size} equal to
 * the model's, {@code count} at least the multiplicity, a refused add losing nothing. Fuzzers
 * feed it raw input ({@code @FuzzTest void ops(byte[] data)}); soak tests feed it random bytes.
 *
 * <p>Each operation takes two bytes: an opcode and a key index into a pool of {@value #POOL}
 * keys of every form, so duplicates, removals of present keys and refusals (with a small
 * capacity) all happen. Removals only ever name present keys, as the contract requires. The
 * pool is drawn from {@link TestSeed}, so a failure replays from its program and the seed its
 * message prints.
 */
public final class OperationSequence {
  /** Distinct keys the operations draw from. */
  public static final int POOL = 96;

  private final CuckooFilter initial;
  private final List<TestKey> pool;

  /**
   * @param config the filter to run against; keep its capacity small (a few dozen to a few
   *     hundred) so that sequences reach refusals
   */
  public OperationSequence(String config) {
    this.initial = CuckooFilters.create(config);
    SplittableRandom r = TestSeed.random("operation sequence pool " + config);
    java.util.Set<TestKey> seen = new java.util.HashSet<>();
    pool = new ArrayList<>();
    while (pool.size() < POOL) {
      TestKey k = TestKey.random(r);
      if (seen.add(k)) {
        pool.add(k);
      }
    }
  }

  /**
   * Runs the operations {@code program} encodes on a fresh filter.
   *
   * @param program any bytes
   * @return the number of operations run
   */
  public int run(byte[] program) {
    CuckooFilter f = CuckooFilters.create(initial.spec());
    KeyMultiset model = new KeyMultiset();
    int ops = 0;
    for (int i = 0; i + 1 < program.length; i += 2, ops++) {
      int op = program[i] & 0xFF;
      TestKey k = pool.get((program[i + 1] & 0xFF) % POOL);
      Form form = formOf(k, op >>> 5);
      int step = ops;
      java.util.function.Supplier<String> at =
          () -> "operation " + step + " (opcode " + op + ", " + k + "; " + TestSeed.rerun() + ")";
      switch (op % 10) {
        case 0, 1, 2 -> {
          if (KeyForms.add(f, k, form)) {
            model.add(k);
          } else {
            checkAll(f, model, () -> at.get() + " after a refused add");
          }
        }
        case 3 -> {
          boolean present = model.count(k) > 0;
          boolean added = KeyForms.addIfAbsent(f, k, form);
          assertFalse(present && added, () -> at.get() + ": addIfAbsent added a present key");
          if (added) {
            model.add(k);
          }
        }
        case 4, 5 -> {
          TestKey victim = model.count(k) > 0 ? k : model.distinct().isEmpty() ? null
              : model.distinct().get((program[i + 1] & 0xFF) % model.distinct().size());
          if (victim != null) {
            assertTrue(KeyForms.remove(f, victim, formOf(victim, op >>> 5)), () -> at.get() + ": remove of a present key failed");
            model.remove(victim);
          }
        }
        case 6 -> {
          if (model.count(k) > 0) {
            assertTrue(KeyForms.mightContain(f, k, form), () -> at.get() + ": false negative");
          }
        }
        case 7 -> {
          long c = KeyForms.count(f, k, form);
          assertTrue(c >= model.count(k), () -> at.get() + ": count " + c + " below " + model.count(k));
        }
        case 8 -> {
          if ((op & 0x10) != 0) {
            f.clear();
            model.clear();
          } else {
            f = CuckooFilterContractTest.roundTrip(f);
          }
        }
        default -> {
          checkAll(f, model, at);
        }
      }
      assertEquals(model.total(), f.size(), () -> at.get() + ": size differs from the model");
    }
    int total = ops;
    checkAll(f, model, () -> "after " + total + " operations (" + TestSeed.rerun() + ")");
    return ops;
  }

  private static Form formOf(TestKey k, int choice) {
    Form[] forms = Form.values();
    for (int i = 0; i < forms.length; i++) {
      Form f = forms[(choice + i) % forms.length];
      if (k.has(f)) {
        return f;
      }
    }
    return Form.BYTES;
  }

  static void checkAll(CuckooFilter f, KeyMultiset model, java.util.function.Supplier<String> at) {
    for (TestKey k : model.distinct()) {
      if (!f.mightContain(k.bytes)) {
        throw new AssertionError(at.get() + ": false negative for " + k + " (stored " + model.count(k) + " times)");
      }
      if (f.count(k.bytes) < model.count(k)) {
        throw new AssertionError(at.get() + ": count below multiplicity for " + k);
      }
    }
  }
}
