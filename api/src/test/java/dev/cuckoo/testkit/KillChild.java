package dev.cuckoo.testkit;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A writer for {@link ProcessKillContractTest} to kill: runs one {@link Script} of adds, removes,
 * merges and forces against a mapped file (created, or opened for writing, which recovers it),
 * and reports on standard output, after every batch of operations has returned, the last
 * operation done and the operations refused since the report before. It then waits to be killed.
 */
public final class KillChild {
  /** Operations between reports. */
  static final int BATCH = 32;

  private KillChild() {}

  /**
   * @param args config, file, run seed, operations
   * @throws IOException if the file cannot be created or opened
   * @throws InterruptedException never: the child waits to be killed
   */
  public static void main(String[] args) throws IOException, InterruptedException {
    String config = args[0];
    Path file = Path.of(args[1]);
    Script script = new Script(Long.parseLong(args[2]), Integer.parseInt(args[3]));
    MappedFilter filter = Files.exists(file) ? CuckooFilters.openWritable(file) : CuckooFilters.createFile(config, file);
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, "UTF-8");
    boolean[] refused = new boolean[script.ops()];
    boolean[] removed = new boolean[script.ops()];
    StringBuilder line = new StringBuilder();
    for (int op = 0; op < script.ops(); op++) {
      boolean done = switch (script.kind(op)) {
        case Script.ADD -> filter.add(script.key(op));
        case Script.REMOVE -> {
          int target = script.target(op);
          if (refused[target] || removed[target]) {
            yield true;
          }
          removed[target] = true;
          yield filter.remove(script.key(target)) || fail("stored key of operation " + target + " not found");
        }
        case Script.MERGE -> {
          CuckooFilter other = CuckooFilters.create(config);
          List<Long> keys = script.mergeKeys(op);
          keys.forEach(other::add);
          yield filter.addAll(other) == keys.size();
        }
        default -> {
          filter.force();
          yield true;
        }
      };
      if (!done) {
        refused[op] = true;
        line.append(' ').append(op);
      }
      if (op % BATCH == BATCH - 1 || op == script.ops() - 1) {
        out.println(op + line.toString());
        out.flush();
        line.setLength(0);
      }
    }
    out.println("end");
    out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }

  private static boolean fail(String why) {
    System.err.println(why);
    Runtime.getRuntime().halt(3);
    return false;
  }

  /**
   * One run's operations, the same in the child and in the test: adds of new keys, removes of a
   * key an earlier add of the run stored, merges of a small filter, forces.
   */
  static final class Script {
    static final int ADD = 0;
    static final int REMOVE = 1;
    static final int MERGE = 2;
    static final int FORCE = 3;
    /** Keys a merge brings. */
    static final int MERGED = 12;

    private final long seed;
    private final int[] kinds;
    private final int[] targets;

    Script(long seed, int ops) {
      this.seed = seed;
      this.kinds = new int[ops];
      this.targets = new int[ops];
      SplittableRandom random = new SplittableRandom(seed);
      List<Integer> adds = new ArrayList<>();
      for (int op = 0; op < ops; op++) {
        int roll = random.nextInt(10_000);
        if (roll < 1) {
          kinds[op] = FORCE; // a few a run: each waits for the disk
        } else if (roll < 80) {
          kinds[op] = MERGE;
        } else if (roll < 2500 && !adds.isEmpty()) {
          kinds[op] = REMOVE;
          targets[op] = adds.get(random.nextInt(adds.size()));
        } else {
          kinds[op] = ADD;
          adds.add(op);
        }
      }
    }

    int ops() {
      return kinds.length;
    }

    int kind(int op) {
      return kinds[op];
    }

    /** @return the add a remove removes the key of */
    int target(int op) {
      return targets[op];
    }

    /** @return the key an add adds */
    long key(int op) {
      return new SplittableRandom(seed ^ (op * 0x9E3779B97F4A7C15L)).nextLong();
    }

    /** @return the keys a merge brings */
    List<Long> mergeKeys(int op) {
      SplittableRandom random = new SplittableRandom(~seed ^ (op * 0x9E3779B97F4A7C15L));
      List<Long> keys = new ArrayList<>();
      for (int i = 0; i < MERGED; i++) {
        keys.add(random.nextLong());
      }
      return keys;
    }
  }
}
