package dev.cuckoo.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer killed with SIGKILL at a random moment loses no key whose add had returned: a child
 * JVM ({@link KillChild}) runs adds (at a load where most kick), removes, merges and forces
 * against a mapped file and is killed, half the time after a random number of its reports, half
 * the time in the middle of a force or of its close (after it said it began one, a random few
 * milliseconds later); the next process recovers the file ({@link CuckooFilters#recover}),
 * finishes a merge the kill cut short by merging the same filter again, and finds every key the
 * reports say was stored and not (perhaps) removed; the next child carries on writing the same
 * file. {@link #kills()} kills per config, 25 by default (so 50 between classic's and
 * semi-sorted's subclasses); {@code -Dcuckoo.crash.kills=N} runs the long version, which must
 * land at least a third of its kills inside a force or a close.
 */
public abstract class ProcessKillContractTest {
  /** Operations per child: enough that the first fills the table and the next ones churn it full. */
  private static final int OPS = 40_000;

  @TempDir
  protected Path dir;

  /** @return the configs, each with a capacity the runs fill */
  protected abstract List<String> configs();

  /** @return kills in all, shared among the configs */
  protected int kills() {
    return Integer.getInteger("cuckoo.crash.kills", 25);
  }

  @TestFactory
  Stream<DynamicTest> aWriterKilledAtARandomMomentLosesNoKeyWhoseAddReturned() {
    int each = Math.max(1, (kills() + configs().size() - 1) / configs().size()); // at least kills() in all
    return configs().stream().map(config -> DynamicTest.dynamicTest(config, () -> run(config, each)));
  }

  private void run(String config, int kills) throws Exception {
    Path file = dir.resolve("killed-" + Integer.toHexString(config.hashCode()) + ".cuckoo");
    SplittableRandom random = TestSeed.random("kills: " + config);
    String where = config + ", " + TestSeed.rerun();
    Set<Long> required = new HashSet<>();
    int recovered = 0;
    int midRun = 0;
    int inForce = 0;
    int finishedMerges = 0;
    for (int kill = 0; kill < kills; kill++) {
      long seed = random.nextLong();
      boolean aimed = random.nextBoolean();
      int forces = aimed ? 40 : 1; // per 10,000 operations
      KillChild.Script script = new KillChild.Script(seed, OPS, forces);
      int after = random.nextInt(OPS / KillChild.BATCH) + 1;
      int scriptForces = 0;
      for (int op = 0; op < OPS; op++) {
        scriptForces += script.kind(op) == KillChild.Script.FORCE ? 1 : 0;
      }
      int atForce = random.nextInt(scriptForces + 1); // the close, if it is scriptForces
      long delayNanos = random.nextLong(500_000); // a force takes a few milliseconds: half a millisecond in, at most
      Process child = start(config, file, seed, forces);
      List<String> reports = new ArrayList<>();
      String lastLine = "";
      try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
          StandardCharsets.UTF_8))) {
        String line;
        int forcesSeen = 0;
        while ((line = out.readLine()) != null && !line.equals("end")) {
          lastLine = line;
          if (line.startsWith("F ") || line.equals("C")) {
            if (aimed && (line.equals("C") || forcesSeen++ == atForce)) {
              java.util.concurrent.locks.LockSupport.parkNanos(delayNanos);
              break;
            }
          } else if (!line.startsWith("f ") && !line.equals("c")) {
            reports.add(line);
            if (!aimed && reports.size() >= after) {
              break;
            }
          }
        }
        child.toHandle().destroyForcibly(); // SIGKILL, leaving what the child wrote readable
        child.waitFor();
        while ((line = out.readLine()) != null) {
          if (!line.equals("end")) {
            lastLine = line; // written before it died: those operations had returned
            if (!line.startsWith("F ") && !line.startsWith("f ") && !line.equals("C") && !line.equals("c")) {
              reports.add(line);
            }
          }
        }
      }
      assertEquals(137, child.exitValue(), where + ": kill " + kill + ": the child ended by itself (see its output)");
      inForce += lastLine.startsWith("F ") || lastLine.equals("C") ? 1 : 0;
      int last = -1;
      BitSet refused = new BitSet();
      for (String report : reports) {
        String[] fields = report.split(" ");
        last = Integer.parseInt(fields[0]);
        for (int i = 1; i < fields.length; i++) {
          refused.set(Integer.parseInt(fields[i]));
        }
      }
      BitSet removed = new BitSet();
      for (int op = 0; op < OPS; op++) {
        int kind = script.kind(op);
        if (op <= last) {
          if (kind == KillChild.Script.ADD && !refused.get(op)) {
            required.add(script.key(op));
          } else if (kind == KillChild.Script.REMOVE) {
            int target = script.target(op);
            if (!refused.get(target) && !removed.get(target)) {
              removed.set(target);
              required.remove(script.key(target));
            }
          } else if (kind == KillChild.Script.MERGE && !refused.get(op)) {
            required.addAll(script.mergeKeys(op));
          }
        } else if (kind == KillChild.Script.REMOVE) {
          required.remove(script.key(script.target(op))); // may have run after the last report
        }
      }
      midRun += last < OPS - 1 ? 1 : 0;
      boolean wasRecovered = CuckooFilters.recover(file).isPresent();
      recovered += wasRecovered ? 1 : 0;
      try (MappedFilter filter = CuckooFilters.openWritable(file)) {
        if (filter.unfinishedMerge().isPresent()) {
          // The kill cut a merge short: merging the same filter again finishes it.
          boolean finished = false;
          for (int op = last + 1; op < OPS && !finished; op++) {
            if (script.kind(op) == KillChild.Script.MERGE) {
              try {
                List<Long> keys = script.mergeKeys(op);
                if (filter.addAll(script.mergeSource(config, op)) == keys.size()) {
                  required.addAll(keys);
                }
                finished = true;
              } catch (IllegalStateException anotherMerge) {
                // not this one
              }
            }
          }
          assertTrue(finished, where + ": kill " + kill + " cut a merge short that no merge of the script finishes");
          finishedMerges++;
        }
      }
      try (MappedFilter filter = CuckooFilters.open(file)) {
        int lost = 0;
        for (long key : required) {
          lost += filter.mightContain(key) ? 0 : 1;
        }
        if (lost > 0) {
          fail(where + ": kill " + kill + " (after operation " + last + " of " + OPS + " was reported, the last line"
              + " '" + lastLine + "'): " + lost + " of " + required.size() + " keys whose add had returned are lost");
        }
        filter.verify();
      }
    }
    System.out.println(config + ": " + kills + " kills, " + inForce + " inside a force or close, " + recovered
        + " left a file to recover, " + finishedMerges + " cut a merge short that the next process finished");
    assertTrue(recovered >= kills / 4, where + ": " + recovered + " of " + kills + " kills left a file to recover");
    assertTrue(midRun >= kills / 4, where + ": " + midRun + " of " + kills + " kills landed before the run's end");
    if (kills >= 100) {
      assertTrue(inForce >= kills / 3, where + ": " + inForce + " of " + kills + " kills landed inside a force or"
          + " close");
    }
  }

  /**
   * A merge killed halfway is finished by merging the same filter again: a child makes a file of
   * {@value #MERGE_KEYS} keys, forces it and merges a filter of as many others into it, and is
   * killed with SIGKILL a random moment into the merge; the test recovers the file, merges the same
   * filter again, and finds every key of both and the items of both, each fingerprint stored once
   * (but for the one extra copy a kill in the middle of a kick path may leave).
   */
  @TestFactory
  Stream<DynamicTest> aMergeKilledHalfwayIsFinishedByMergingAgain() {
    int each = Math.max(1, Integer.getInteger("cuckoo.crash.mergeKills", 4));
    return configs().stream().limit(1).map(config -> DynamicTest.dynamicTest(config, () -> {
      String mergeConfig = config.replaceAll("capacity=[0-9]+", "capacity=" + (3 * MERGE_KEYS));
      SplittableRandom random = TestSeed.random("merge kills: " + config);
      String where = mergeConfig + ", " + TestSeed.rerun();
      int midMerge = 0;
      for (int kill = 0; kill < each; kill++) {
        long seed = random.nextLong();
        Path file = dir.resolve("merge-killed-" + kill + ".cuckoo");
        List<String> command = javaCommand();
        command.addAll(List.of("merge", mergeConfig, file.toString(), Long.toString(seed), Integer.toString(MERGE_KEYS)));
        Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String last = "";
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
            StandardCharsets.UTF_8))) {
          String line = out.readLine();
          assertEquals("M", line, where + ": the child did not begin its merge");
          java.util.concurrent.locks.LockSupport.parkNanos(random.nextLong(40_000_000)); // up to 40 ms into it
          child.toHandle().destroyForcibly();
          child.waitFor();
          while ((line = out.readLine()) != null) {
            last = line;
          }
        }
        midMerge += last.startsWith("m ") ? 0 : 1;
        CuckooFilter source = KillChild.mergeSource(mergeConfig, seed, MERGE_KEYS);
        List<Long> base = KillChild.mergeBase(seed, MERGE_KEYS);
        long expected;
        try (MappedFilter before = CuckooFilters.createFile(mergeConfig, dir.resolve("expected-" + kill + ".cuckoo"))) {
          for (long key : base) {
            before.add(key);
          }
          expected = before.size() + source.size();
        }
        try (MappedFilter f = CuckooFilters.openWritable(file)) {
          if (!last.startsWith("m ")) {
            assertEquals(source.size(), f.addAll(source), where + ": merging again finishes the merge");
          }
          assertTrue(f.size() == expected || f.size() == expected + 1, where + ": kill " + kill + ": " + f.size()
              + " items after the merge was finished, where the two filters held " + expected);
          for (long key : base) {
            assertTrue(f.mightContain(key), where + ": a key of the file lost");
          }
          SplittableRandom keys = new SplittableRandom(~seed);
          for (int i = 0; i < MERGE_KEYS; i++) {
            assertTrue(f.mightContain(keys.nextLong()), where + ": a key of the merged filter lost");
          }
          f.verify();
        }
      }
      System.out.println(mergeConfig + ": " + each + " merges killed, " + midMerge + " in the middle of the merge");
      assertTrue(midMerge >= each / 2, where + ": " + midMerge + " of " + each + " kills landed inside the merge");
    }));
  }

  /** Keys of a merge's file, and of the filter merged into it. */
  private static final int MERGE_KEYS = 200_000;

  private static List<String> javaCommand() {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(KillChild.class.getName());
    return command;
  }

  private static Process start(String config, Path file, long seed, int forces) throws IOException {
    List<String> command = javaCommand();
    command.add(config);
    command.add(file.toString());
    command.add(Long.toString(seed));
    command.add(Integer.toString(OPS));
    command.add(Integer.toString(forces));
    return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }
}
