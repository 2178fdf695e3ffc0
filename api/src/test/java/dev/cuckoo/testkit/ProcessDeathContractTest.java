package dev.cuckoo.testkit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.Durability;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer's process may die at any write it makes to its file, and the next open then finds
 * every key it promised: for each config, a writer runs creation, adds past the load limit (kick
 * paths, the stash, refusals), forces, removes, merges, a clear, a close, a reopen and more of
 * the same, while a {@link WriteLog} records every write it makes to its folder (the table's
 * stores, the first page's fields, stash, undo and merge records, the mark, the checksum, the
 * journal, its emptying and removal, the creation's header, zeros and rename). Then, for every
 * number of those writes a death could have left made, the folder is rebuilt as it would be and
 * opened for writing as the next writer would open it: the file must open (none is refused) and
 * hold every key promised by then and not being removed, and verify whole. A key is promised
 * when its add returns ({@code durability=process}) or when the first force after it returns
 * ({@code durability=machine}).
 *
 * <p>A death in the middle of the recovery is tried too: at {@link #SECOND_DEATHS} cuts per
 * config whose recovery has writes to make, the recovery's own writes are logged and the folder
 * is cut again at each of them, and opened a third time.
 */
public abstract class ProcessDeathContractTest {
  /** Cuts per config at which a second death, in the middle of the recovery, is tried. */
  private static final int SECOND_DEATHS = 60;

  @TempDir
  protected Path dir;

  /**
   * @return the configs, with small capacities that the run fills: every table class, striped
   *     and sharded, and {@code durability=machine}
   */
  protected abstract List<String> configs();

  /** A key's life: promised from write {@code promised} on, perhaps gone from write {@code removing} on. */
  private static final class Life {
    final long key;
    int promised = Integer.MAX_VALUE;
    int removing = Integer.MAX_VALUE;
    /** For a machine-durable file: added, and promised at the next force. */
    boolean awaitingForce;

    Life(long key) {
      this.key = key;
    }
  }

  @TestFactory
  Stream<DynamicTest> everyPromisedKeySurvivesADeathAtAnyWrite() {
    return configs().stream().map(config -> DynamicTest.dynamicTest(config, () -> run(config)));
  }

  private void run(String config) throws IOException {
    // Every cut rewrites the folder and opens it: on a tmpfs that is a fifth of the time it takes
    // on a disk, where the page cache's writeback competes with it.
    Path base = inMemory();
    try {
      run(config, base == null ? dir : base);
    } finally {
      if (base != null) {
        delete(base);
      }
    }
  }

  /** @return a new folder on a file system in memory (Linux's /dev/shm), or null where there is none */
  private static Path inMemory() {
    Path shm = Path.of("/dev/shm");
    try {
      return Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "cuckoo-death-") : null;
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }

  private void run(String config, Path dir) throws IOException {
    String tag = Integer.toHexString(config.hashCode());
    Path work = Files.createDirectories(dir.resolve("run-" + tag));
    Path cut = Files.createDirectories(dir.resolve("cut-" + tag));
    Path again = Files.createDirectories(dir.resolve("again-" + tag));
    SplittableRandom random = TestSeed.random("process death at any write: " + config);
    String where = config + ", " + TestSeed.rerun();
    boolean machine = FilterSpec.parse(config).durability() == Durability.MACHINE;
    List<Life> lives = new ArrayList<>();
    WriteLog log = new WriteLog(work);
    Path file = work.resolve("f.cuckoo");
    try (log) {
      log.install();
      new Writer(config, file, log, machine, random, lives).run();
    }

    Life[] byPromise = lives.stream().filter(l -> l.promised != Integer.MAX_VALUE)
        .sorted((a, b) -> Integer.compare(a.promised, b.promised)).toArray(Life[]::new);
    WriteLog.Images images = log.images();
    int opened = 0;
    int seconds = 0;
    int secondCuts = 0;
    int every = Math.max(1, log.size() / SECOND_DEATHS);
    for (int n = 0; n <= log.size(); n++) {
      if (n > 0) {
        images.apply(log.write(n - 1));
      }
      if (!images.has("f.cuckoo")) {
        continue; // created and not yet in place: nothing was promised
      }
      images.writeTo(cut);
      boolean second = n % every == every / 2 && seconds < SECOND_DEATHS;
      WatchedWrites recovering = second ? new WriteLog(cut) : new QuietWrites();
      try (recovering) {
        recovering.install();
        check(cut.resolve("f.cuckoo"), n, byPromise, where, log, "");
      }
      opened++;
      if (second) {
        WriteLog recovery = (WriteLog) recovering;
        if (recovery.size() > 0) {
          seconds++;
          WriteLog.Images base = images.copy();
          for (int m = 0; m < recovery.size(); m++) {
            base.apply(recovery.write(m));
            base.writeTo(again);
            try (QuietWrites quiet = new QuietWrites()) {
              quiet.install();
              check(again.resolve("f.cuckoo"), n, byPromise, where, log, " and again after write " + (m + 1)
                  + " of its recovery's " + recovery.size() + " (" + recovery.write(m) + ")");
            }
            secondCuts++;
          }
        }
      }
      if (opened % 512 == 0) {
        System.gc(); // the closed filters' mappings go with their buffers
      }
    }
    // A machine-durable writer's file changes only inside its forces: fewer writes to cut at.
    assertTrue(opened > (machine ? 40 : 500), where + ": " + opened + " cuts opened");
    System.out.println(config + ": " + log.size() + " writes, " + opened + " cuts opened, " + seconds
        + " recoveries cut again at " + secondCuts + " writes");
    assertTrue(seconds >= SECOND_DEATHS / 3, where + ": " + seconds + " recoveries cut again");
    assertTrue(secondCuts > seconds, where + ": " + secondCuts + " cuts of " + seconds + " recoveries");
  }

  /**
   * A merge into a {@code durability=process} file cut at any of its writes is finished by merging
   * the same filter again (its caller did not see it return; one cut after it returned is not
   * merged again), each of its fingerprints then stored once: the file's items are the
   * target's and the source's, but for one extra copy a cut in the middle of a kick path may
   * leave (an entry in both its slots, which every add risks alike), and every key of both is
   * found. A merge of another filter is refused while one is unfinished, and {@code
   * abandonMerge} lets it go.
   */
  @TestFactory
  Stream<DynamicTest> aMergeCutAtAnyWriteIsFinishedByMergingAgain() {
    return configs().stream().filter(c -> FilterSpec.parse(c).durability() == Durability.PROCESS).limit(3)
        .map(config -> DynamicTest.dynamicTest(config, () -> {
          Path base = inMemory();
          try {
            mergeCut(config, base == null ? dir : base);
          } finally {
            if (base != null) {
              delete(base);
            }
          }
        }));
  }

  private void mergeCut(String config, Path dir) throws IOException {
    String tag = Integer.toHexString(config.hashCode());
    Path work = Files.createDirectories(dir.resolve("merge-" + tag));
    Path cut = Files.createDirectories(dir.resolve("merge-cut-" + tag));
    SplittableRandom random = TestSeed.random("merge cut at any write: " + config);
    String where = config + ", " + TestSeed.rerun();
    Path file = work.resolve("f.cuckoo");
    List<Long> keys = new ArrayList<>();
    try (MappedFilter target = CuckooFilters.createFile(config, file)) {
      for (int i = 0; i < target.capacity() / 2; i++) {
        long key = random.nextLong();
        if (target.add(key)) {
          keys.add(key);
        }
      }
    }
    long before;
    try (MappedFilter target = CuckooFilters.open(file)) {
      before = target.size();
    }
    CuckooFilter source = CuckooFilters.create(config);
    for (int i = 0; i < source.capacity() * 2 / 5; i++) {
      long key = random.nextLong();
      if (source.add(key)) {
        keys.add(key);
      }
    }
    long expected = before + source.size();
    WriteLog log = new WriteLog(work);
    int returned;
    try (log) {
      log.install();
      try (MappedFilter target = CuckooFilters.openWritable(file)) {
        long moved = target.addAll(source);
        returned = log.size();
        assertTrue(moved == source.size(), where + ": the merge fit (" + moved + " of " + source.size() + ")");
      }
    }
    WriteLog.Images images = log.images();
    int extra = 0;
    int unfinished = 0;
    for (int n = 0; n <= log.size(); n++) {
      if (n > 0) {
        images.apply(log.write(n - 1));
      }
      images.writeTo(cut);
      try (QuietWrites quiet = new QuietWrites()) {
        quiet.install();
        try (MappedFilter f = CuckooFilters.openWritable(cut.resolve("f.cuckoo"))) {
          if (f.unfinishedMerge().isPresent()) {
            unfinished++;
            CuckooFilter other = CuckooFilters.create(config);
            other.add(random.nextLong());
            assertThrows(IllegalStateException.class, () -> f.addAll(other), where + ": another merge, cut " + n);
          }
          if (n < returned) { // the writer died before the merge returned: its caller merges again
            long moved = f.addAll(source);
            if (moved != source.size()) {
              fail(where + ": merging again after a cut at write " + n + " moved " + moved + " of " + source.size());
            }
          }
          if (f.size() != expected && f.size() != expected + 1) {
            fail(where + ": after a cut at write " + n + " of the merge and merging again, the file holds " + f.size()
                + " items where the two filters held " + expected + log.around(n));
          }
          extra += f.size() == expected + 1 ? 1 : 0;
          for (long key : keys) {
            if (!f.mightContain(key)) {
              fail(where + ": key " + key + " lost after a cut at write " + n + " of the merge" + log.around(n));
            }
          }
          assertTrue(f.unfinishedMerge().isEmpty(), where + ": a finished merge leaves no record");
          f.verify();
        }
      } catch (IOException e) {
        throw new AssertionError(where + ": the file cut at write " + n + " of the merge was refused: " + e, e);
      }
      if (n % 512 == 511) {
        System.gc();
      }
    }
    assertTrue(unfinished > log.size() / 2, where + ": " + unfinished + " of " + log.size() + " cuts left a merge"
        + " to finish");
    System.out.println(config + ": a merge of " + source.size() + " entries cut at each of its " + log.size()
        + " writes and finished; " + extra + " cuts left one extra copy (a kick path cut short)");

    try (MappedFilter f = CuckooFilters.openWritable(file)) {
      assertTrue(f.unfinishedMerge().isEmpty());
    }
  }

  private static void delete(Path base) throws IOException {
    try (Stream<Path> all = Files.walk(base)) {
      for (Path p : (Iterable<Path>) all.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }

  /**
   * Opens the file left at a cut as the next writer would, and checks every key promised by then
   * and not being removed.
   */
  private static void check(Path file, int n, Life[] byPromise, String where, WriteLog log, String again) {
    try (MappedFilter f = CuckooFilters.openWritable(file)) {
      int lost = 0;
      long first = 0;
      for (Life life : byPromise) {
        if (life.promised > n) {
          break;
        }
        if (n < life.removing && !f.mightContain(life.key)) {
          if (lost++ == 0) {
            first = life.key;
          }
        }
      }
      if (lost > 0) {
        fail(where + ": " + lost + " promised keys (key " + first + " the first) are lost if the writer dies after"
            + " write " + n + " of " + log.size() + again + ":" + log.around(n));
      }
      f.verify();
    } catch (IOException | RuntimeException e) {
      throw new AssertionError(where + ": the file a writer that died after write " + n + " of " + log.size() + again
          + " left was refused or failed: " + e + log.around(n), e);
    }
  }

  /** Writes that make every write and wait for none: a recovery whose process nobody kills. */
  private static final class QuietWrites extends WatchedWrites {
    @Override
    protected void step(Write write) {}
  }

  /** The writer whose writes are logged: one run of operations, and the lives of its keys. */
  private static final class Writer {
    private final String config;
    private final Path file;
    private final WriteLog log;
    private final boolean machine;
    private final SplittableRandom random;
    private final List<Life> lives;
    private final List<Life> live = new ArrayList<>();
    private MappedFilter filter;
    private int refused;
    private int kicked;

    Writer(String config, Path file, WriteLog log, boolean machine, SplittableRandom random, List<Life> lives) {
      this.config = config;
      this.file = file;
      this.log = log;
      this.machine = machine;
      this.random = random;
      this.lives = lives;
    }

    void run() throws IOException {
      filter = CuckooFilters.createFile(config, file);
      fill(3);
      force();
      removeSome(3);
      merge(25);
      fill(2);
      force();
      merge(40);
      clear();
      fill(1);
      close();
      filter = CuckooFilters.openWritable(file);
      fill(2);
      removeSome(4);
      force();
      fill(1);
      merge(10);
      removeSome(5);
      close();
      filter = CuckooFilters.openWritable(file);
      fill(1);
      // and the writer dies here, after its last write, without forcing or closing
      // A machine-durable table is this process's copy until a force: its kicks write nothing to see.
      assertTrue(refused > 0 && (machine || kicked > 0), config + ": the run reached a full table (" + refused
          + " refusals) and kick paths (" + kicked + ")");
    }

    /** Adds new keys until the filter has refused {@code refusals} of them. */
    private void fill(int refusals) {
      for (int r = 0; r < refusals; ) {
        Life life = new Life(random.nextLong());
        int before = log.size();
        if (filter.add(life.key)) {
          kicked += log.size() - before > 2 ? 1 : 0;
          promise(life);
        } else {
          refused++;
          r++;
        }
        if (random.nextInt(400) == 0) {
          force();
        }
      }
    }

    private void promise(Life life) {
      lives.add(life);
      live.add(life);
      if (machine) {
        life.awaitingForce = true;
      } else {
        life.promised = log.size();
      }
    }

    private void removeSome(int oneIn) {
      for (int i = live.size() - 1; i >= 0; i--) {
        if (random.nextInt(oneIn) == 0) {
          Life life = live.remove(i);
          life.removing = Math.min(life.removing, log.size());
          if (!filter.remove(life.key)) {
            fail(config + ": a stored key was not found to remove");
          }
        }
      }
    }

    private void merge(int keys) {
      CuckooFilter other = CuckooFilters.create(config.replace("durability=machine", "durability=process"));
      List<Life> merged = new ArrayList<>();
      for (int i = 0; i < keys; i++) {
        Life life = new Life(random.nextLong());
        if (other.add(life.key)) {
          merged.add(life);
        }
      }
      long moved = filter.addAll(other);
      // A merge moves table entries, not keys in order: only a whole merge says which arrived.
      if (moved == merged.size()) {
        merged.forEach(this::promise);
      } else {
        refused++;
      }
    }

    private void clear() {
      for (Life life : live) {
        life.removing = Math.min(life.removing, log.size());
      }
      live.clear();
      filter.clear();
    }

    private void force() {
      try {
        filter.force();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      forced();
    }

    private void close() throws IOException {
      filter.close();
      forced();
    }

    private void forced() {
      int at = log.size();
      for (Life life : lives) {
        if (life.awaitingForce) {
          life.awaitingForce = false;
          life.promised = at;
        }
      }
    }
  }
}
