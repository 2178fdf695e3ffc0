package dev.cuckoo.engine.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.engine.BitStringTable;
import dev.cuckoo.engine.FingerprintStash;
import dev.cuckoo.engine.TableFilter;
import dev.cuckoo.engine.TableProvider;
import dev.cuckoo.engine.TableWords;
import dev.cuckoo.testkit.TestSeed;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * A writer's process may die between any two of its stores, and the file then holds every key
 * whose add had returned: for each variant's configs, a filter over {@link StoreLogWords} is
 * filled past its load limit (adds whose kick paths run long, stashed fingerprints, refused
 * adds), emptied in part, merged into and filled again; then, at every point of that run a
 * process could have died at, the words and the stash a file would hold are recovered as the
 * next writer recovers them and every key added and not yet being removed is looked up. This is
 * issue 42's "every fingerprint in at least one slot at every instant", checked instant by
 * instant rather than at the moments a kill happens to land on.
 */
public abstract class ProcessDeathContractTest {

  /** @return the configs to run: small tables, so that the run reaches every case */
  protected abstract List<String> configs();

  /** @return the variant's provider */
  protected abstract TableProvider provider();

  /**
   * @param heap a heap filter of the config, for its shape
   * @param words the storage
   * @return a table of that shape over the storage
   */
  protected abstract BitStringTable wrap(TableFilter heap, TableWords words);

  /** A key's life in the run: stored from event {@code added}, being removed from event {@code removing}. */
  private record Life(long key, int added, int removing) {}

  @TestFactory
  Stream<DynamicTest> everyAddThatReturnedSurvivesADeathBetweenAnyTwoStores() {
    return configs().stream().map(config -> DynamicTest.dynamicTest(config, () -> run(config)));
  }

  private void run(String config) {
    TableFilter heap = (TableFilter) CuckooFilters.create(config);
    StoreLogWords words = new StoreLogWords(heap.table().words().length());
    FingerprintStash stash = new FingerprintStash(FingerprintStash.DEFAULT_SLOTS);
    stash.keepIn(words.keeper());
    TableFilter filter = TableFilter.compose(heap.spec(), wrap(heap, words), stash, 0, null, provider());
    SplittableRandom random = TestSeed.random("process death: " + config);
    String where = config + ", " + TestSeed.rerun();

    List<Life> lives = new ArrayList<>();
    List<Integer> live = new ArrayList<>(); // indexes into lives of keys stored and not removed
    int refused = 0;
    int kicks = 0;
    for (int phase = 0; phase < 5; phase++) {
      if (phase == 3) {
        // A clear, then the table filled again: a death in the middle of it loses only keys it was clearing.
        for (int i = 0; i < lives.size(); i++) {
          Life life = lives.get(i);
          if (life.removing() == Integer.MAX_VALUE) {
            lives.set(i, new Life(life.key(), life.added(), words.events()));
          }
        }
        live.clear();
        filter.clear();
      }
      int refusals = 0;
      while (refusals < (phase == 1 ? 1 : 3)) {
        int op = random.nextInt(100);
        if ((phase == 1 && op < 40) || op < 8) {
          if (!live.isEmpty()) {
            int pick = live.remove(random.nextInt(live.size()));
            Life life = lives.get(pick);
            lives.set(pick, new Life(life.key(), life.added(), words.events()));
            if (!filter.remove(life.key())) {
              fail(where + ": remove of stored key " + life.key() + " returned false");
            }
          }
          if (phase == 1 && live.size() < lives.size() / 2) {
            refusals++;
          }
        } else if (phase == 2 && op < 50) {
          CuckooFilter other = CuckooFilters.create(config);
          List<Long> keys = new ArrayList<>();
          for (int i = 0; i < 30; i++) {
            long key = random.nextLong();
            if (other.add(key)) {
              keys.add(key);
            }
          }
          long moved = filter.addAll(other);
          // A merge moves table entries, not keys in order: only a whole merge says which arrived.
          if (moved == keys.size()) {
            for (long key : keys) {
              live.add(lives.size());
              lives.add(new Life(key, words.events(), Integer.MAX_VALUE));
            }
          } else {
            refusals++;
          }
          if (lives.size() > 3 * heap.slots()) {
            refusals = 3;
          }
        } else {
          long key = random.nextLong();
          int before = words.events();
          if (filter.add(key)) {
            kicks += words.events() - before > 2 ? 1 : 0;
            live.add(lives.size());
            lives.add(new Life(key, words.events(), Integer.MAX_VALUE));
          } else {
            refused++;
            refusals++;
          }
        }
      }
    }
    assertTrue(refused > 0 && kicks > 0, where + ": the run reached a full table (" + refused + " refusals) and kick"
        + " paths (" + kicks + ")");

    Life[] byAdded = lives.toArray(new Life[0]);
    Arrays.sort(byAdded, (x, y) -> Integer.compare(x.added(), y.added()));
    int[] checked = {0};
    words.forEachCut((n, table, stashAt) -> {
      TableFilter recovered = recover(heap, table, stashAt);
      for (Life life : byAdded) {
        if (life.added() > n) {
          break;
        }
        if (n < life.removing() && !recovered.mightContain(life.key())) {
          fail(where + ": key " + life.key() + ", added by event " + life.added() + ", is lost if the writer dies"
              + " after event " + n + " of " + words.events() + ":" + words.around(n));
        }
      }
      checked[0]++;
    });
    assertTrue(checked[0] > 1000, where + ": " + checked[0] + " points checked");
  }

  private TableFilter recover(TableFilter heap, long[] table, long[][] stashAt) {
    BitStringTable recovered = wrap(heap, TableWords.onHeap(table));
    try {
      recovered.requireEncoding("recovered table");
    } catch (IOException e) {
      throw new AssertionError(e.getMessage(), e);
    }
    FingerprintStash stash = new FingerprintStash(FingerprintStash.DEFAULT_SLOTS);
    for (long[] entry : stashAt) {
      stash.add(entry[0], (int) entry[1], entry[2]);
    }
    return TableFilter.recovered(heap.spec(), recovered, stash, null, provider());
  }
}
