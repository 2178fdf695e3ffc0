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
 * operation done and the operations refused since the report before; before and after each
 * force, {@code F op} and {@code f op}; at the end, {@code C} and {@code c} around its close, then
 * {@code end}. It then waits to be killed.
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
    if (args[0].equals("merge")) {
      merge(args[1], Path.of(args[2]), Long.parseLong(args[3]), Integer.parseInt(args[4]));
      return;
    }
    String config = args[0];
    Path file = Path.of(args[1]);
    Script script = new Script(Long.parseLong(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
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
          List<Long> keys = script.mergeKeys(op);
          yield filter.addAll(script.mergeSource(config, op)) == keys.size();
        }
        default -> {
          out.println("F " + op);
          out.flush();
          filter.force();
          out.println("f " + op);
          out.flush();
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
    out.println("C");
    out.flush();
    filter.close();
    out.println("c");
    out.println("end");
    out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }

  /**
   * Makes a file holding {@code keys} keys, forces it, says {@code M}, merges a filter of as many
   * other keys into it, says {@code m}, and waits to be killed: the test kills it in the middle
   * of the merge.
   */
  private static void merge(String config, Path file, long seed, int keys) throws IOException, InterruptedException {
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, "UTF-8");
    MappedFilter filter = CuckooFilters.createFile(config, file);
    for (long key : mergeBase(seed, keys)) {
      filter.add(key);
    }
    filter.force();
    CuckooFilter source = mergeSource(config, seed, keys);
    out.println("M");
    out.flush();
    long moved = filter.addAll(source);
    out.println("m " + moved);
    out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }

  /** @return the keys a merge's file holds before it, for a seed */
  static List<Long> mergeBase(long seed, int keys) {
    SplittableRandom random = new SplittableRandom(seed);
    List<Long> base = new ArrayList<>();
    for (int i = 0; i < keys; i++) {
      base.add(random.nextLong());
    }
    return base;
  }

  /** @return the filter a merge brings in, for a seed: its own keys, made the same way by the child and the test */
  static CuckooFilter mergeSource(String config, long seed, int keys) {
    SplittableRandom random = new SplittableRandom(~seed);
    CuckooFilter source = CuckooFilters.create(config);
    for (int i = 0; i < keys; i++) {
      source.add(random.nextLong());
    }
    return source;
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
      this(seed, ops, 1);
    }

    /**
     * @param forces forces per 10,000 operations
     */
    Script(long seed, int ops, int forces) {
      this.seed = seed;
      this.kinds = new int[ops];
      this.targets = new int[ops];
      SplittableRandom random = new SplittableRandom(seed);
      List<Integer> adds = new ArrayList<>();
      for (int op = 0; op < ops; op++) {
        int roll = random.nextInt(10_000);
        if (roll < forces) {
          kinds[op] = FORCE; // each waits for the disk
        } else if (roll < forces + 79) {
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

    /**
     * @return the filter a merge brings its keys in: made the same way by the child and by the
     *     test, so that a merge cut short is finished by merging the test's own
     */
    CuckooFilter mergeSource(String config, int op) {
      CuckooFilter other = CuckooFilters.create(config);
      mergeKeys(op).forEach(other::add);
      return other;
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
