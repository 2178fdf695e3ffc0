package dev.cuckoo.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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
 * against a mapped file and is killed after a random number of its reports; the next process
 * recovers the file ({@link CuckooFilters#recover}) and finds every key the reports say was
 * stored and not (perhaps) removed, and the next child carries on writing the same file. {@link
 * #kills()} kills per config, 25 by default (so 50 between classic's and semi-sorted's
 * subclasses); {@code -Dcuckoo.crash.kills=N} runs the long version.
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
    long midKick = 0;
    for (int kill = 0; kill < kills; kill++) {
      long seed = random.nextLong();
      KillChild.Script script = new KillChild.Script(seed, OPS);
      int after = random.nextInt(OPS / KillChild.BATCH) + 1;
      Process child = start(config, file, seed);
      List<String> reports = new ArrayList<>();
      try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
          StandardCharsets.UTF_8))) {
        String line;
        while (reports.size() < after && (line = out.readLine()) != null && !line.equals("end")) {
          reports.add(line);
        }
        child.toHandle().destroyForcibly(); // SIGKILL, leaving what the child wrote readable
        child.waitFor();
        while ((line = out.readLine()) != null) {
          if (!line.equals("end")) {
            reports.add(line); // written before it died: those operations had returned
          }
        }
      }
      assertEquals(137, child.exitValue(), where + ": kill " + kill + ": the child ended by itself (see its output)");
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
      midKick += last < OPS - 1 ? 1 : 0;
      boolean wasRecovered = CuckooFilters.recover(file);
      recovered += wasRecovered ? 1 : 0;
      try (MappedFilter filter = CuckooFilters.open(file)) {
        int lost = 0;
        for (long key : required) {
          lost += filter.mightContain(key) ? 0 : 1;
        }
        if (lost > 0) {
          fail(where + ": kill " + kill + " (after operation " + last + " of " + OPS + " was reported): " + lost + " of "
              + required.size() + " keys whose add had returned are lost");
        }
        filter.verify();
      }
    }
    assertTrue(recovered >= kills / 2, where + ": " + recovered + " of " + kills + " kills left a file to recover");
    assertTrue(midKick >= kills / 2, where + ": " + midKick + " of " + kills + " kills landed before the run's end");
  }

  private static Process start(String config, Path file, long seed) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(KillChild.class.getName());
    command.add(config);
    command.add(file.toString());
    command.add(Long.toString(seed));
    command.add(Integer.toString(OPS));
    return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }
}
