package dev.cuckoo.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code durability=machine}, a power loss at any moment keeps every key added before the
 * last force that returned: each trial runs adds (at a load where kicks and refusals happen),
 * removes and forces against a new file on a {@link StagedMachine}, cuts the power at a random
 * write or force (most land inside a force: the journal, the mark, the pages, the seal), leaves
 * the disk as a power loss may (each page written since its file's last force kept or lost),
 * then opens the file as the next boot would and looks up every key forced and not removed
 * since. {@link #trials()} trials, spread over the configs; {@code -Dcuckoo.crash.trials=N} runs
 * the long version.
 */
public abstract class MachineCrashContractTest {
  /** Operations per trial. */
  private static final int OPS = 600;
  /** Cuts are drawn from the first this many writes and forces: past a trial's last, the cut comes after it. */
  private static final int CUTS = 900;

  @TempDir
  protected Path dir;

  /** @return configs with {@code durability=machine} and a small capacity, which the trials fill */
  protected abstract List<String> configs();

  /** @return trials in all, shared among the configs */
  protected int trials() {
    return Integer.getInteger("cuckoo.crash.trials", 500);
  }

  @TestFactory
  Stream<DynamicTest> aPowerLossAtAnyMomentKeepsEveryForcedKey() {
    int each = Math.max(1, (trials() + configs().size() - 1) / configs().size()); // at least trials() in all
    return configs().stream().map(config -> DynamicTest.dynamicTest(config, () -> {
      SplittableRandom seeds = TestSeed.random("power loss: " + config);
      int recovered = 0;
      int checked = 0;
      for (int t = 0; t < each; t++) {
        int outcome = trial(config, seeds.nextLong(), t);
        recovered += outcome == 2 ? 1 : 0;
        checked += outcome > 0 ? 1 : 0;
      }
      assertTrue(checked >= each * 3 / 4, config + ": " + checked + " of " + each + " trials had forced keys to check");
      assertTrue(recovered >= each / 8, config + ": " + recovered + " of " + each
          + " trials cut a force short and replayed its journal");
    }));
  }

  /** @return 0 if nothing had been forced, 1 if the file was consistent, 2 if it was recovered */
  private int trial(String config, long seed, int t) throws IOException {
    Path file = dir.resolve("power-" + Integer.toHexString(config.hashCode()) + "-" + t + ".cuckoo");
    SplittableRandom random = new SplittableRandom(seed);
    String where = config + ", trial " + t + " (seed " + seed + "; " + TestSeed.rerun() + ")";
    Set<Long> live = new HashSet<>();
    List<Long> liveList = new ArrayList<>();
    Set<Long> required = null;
    boolean wasChanging;
    try (StagedMachine machine = StagedMachine.start()) {
      machine.cut(random.nextInt(CUTS));
      try {
        MappedFilter filter = CuckooFilters.createFile(config, file);
        for (int op = 0; op < OPS; op++) {
          int roll = random.nextInt(100);
          if (roll < 5) {
            filter.force();
            required = new HashSet<>(live);
          } else if (roll < 20 && !liveList.isEmpty()) {
            long key = liveList.remove(random.nextInt(liveList.size()));
            live.remove(key);
            if (required != null) {
              required.remove(key); // removed after the last force: it may be gone or not
            }
            if (!filter.remove(key)) {
              fail(where + ": a stored key was not found to remove");
            }
          } else {
            long key = random.nextLong();
            if (filter.add(key)) {
              live.add(key);
              liveList.add(key);
            }
          }
        }
        filter.force();
        required = new HashSet<>(live);
        // Nothing after the last force: the cut lands between forces, where the file is untouched.
        machine.cut(machine.operations());
        filter.add(random.nextLong());
        filter.force();
      } catch (StagedMachine.PowerCut cut) {
        // the machine stopped here
      }
      machine.crash(random);
      wasChanging = isMarked(file);
    }
    if (required == null) {
      try (MappedFilter opened = CuckooFilters.open(file)) {
        assertTrue(opened.size() >= 0);
        return 0; // a file whose creation reached the disk: empty, and consistent
      } catch (CorruptFilterException | java.nio.file.NoSuchFileException refused) {
        return 0; // created and never forced: nothing was promised
      }
    }
    try (MappedFilter opened = CuckooFilters.open(file)) {
      int lost = 0;
      for (long key : required) {
        lost += opened.mightContain(key) ? 0 : 1;
      }
      if (lost > 0) {
        fail(where + ": " + lost + " of " + required.size() + " forced keys lost to a power cut");
      }
      opened.verify();
    } catch (CorruptFilterException e) {
      throw new AssertionError(where + ": a file with forced keys was refused after a power cut: " + e.getMessage(), e);
    }
    return wasChanging ? 2 : 1;
  }

  /** @return whether the file's header says it was being changed: a force was cut short */
  private static boolean isMarked(Path file) {
    try {
      return Files.size(file) > 0 && dev.cuckoo.internal.MappedFiles.headerOf(file).dirty();
    } catch (IOException e) {
      return false;
    }
  }
}
