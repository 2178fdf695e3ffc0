package dev.cuckoo.testkit;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM for {@link MappedFilterContractTest}: what a second process does to a mapped file.
 * {@code halt-between} creates a file, adds keys, forces, adds more and halts (no shutdown hooks,
 * no close); {@code halt-after-force} adds, forces and halts; {@code query} opens a file read-only
 * and checks every key; {@code build} creates a file, adds the keys and closes it; {@code
 * read-refused} reads a file larger than the heap and expects the heap check's refusal; {@code
 * convert} converts the file named in place of the config into the file. Exit status 0 is success
 * (a halt exits 0 too), anything else a failure.
 */
public final class MappedFileChild {
  private MappedFileChild() {}

  /**
   * Runs a child JVM on this class path and waits for it.
   *
   * @param args the action, config, file and key count
   * @return its exit status
   * @throws IOException if it cannot start
   * @throws InterruptedException if interrupted while waiting
   */
  public static int run(String... args) throws IOException, InterruptedException {
    return run(List.of(), args);
  }

  /**
   * @param jvmOptions options for the child JVM, such as {@code -Xmx256m}
   * @param args the action, config, file and key count
   * @return its exit status
   * @throws IOException if it cannot start
   * @throws InterruptedException if interrupted while waiting
   */
  public static int run(List<String> jvmOptions, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(MappedFileChild.class.getName());
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).inheritIO().start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IllegalStateException("child JVM did not finish in 5 minutes: " + command);
    }
    return p.exitValue();
  }

  /**
   * @param args the action, config, file and key count
   * @throws IOException if the file cannot be written or read
   */
  public static void main(String[] args) throws IOException {
    if (Boolean.getBoolean("cuckoo.test.sparseFiles")) {
      new SparseWrites().install();
    }
    String action = args[0];
    String config = args[1];
    Path file = Path.of(args[2]);
    long keys = Long.parseLong(args[3]);
    switch (action) {
      case "halt-between", "halt-after-force" -> {
        MappedFilter f = CuckooFilters.createFile(config, file);
        for (long i = 0; i < keys; i++) {
          if (!f.add("key-" + i)) {
            System.exit(2);
          }
        }
        f.force();
        if (action.equals("halt-between")) {
          for (long i = keys; i < keys + 100; i++) {
            f.add("key-" + i);
          }
        }
        Runtime.getRuntime().halt(0);
      }
      case "build" -> {
        try (MappedFilter f = CuckooFilters.createFile(config, file)) {
          for (long i = 0; i < keys; i++) {
            if (!f.add("key-" + i)) {
              System.exit(2);
            }
          }
        }
      }
      case "query" -> {
        try (MappedFilter f = CuckooFilters.open(file)) {
          for (long i = 0; i < keys; i++) {
            if (!f.mightContain("key-" + i)) {
              System.exit(3);
            }
          }
        }
      }
      case "read-refused" -> {
        // config unused; exit 0 if read refuses the file with the message the heap check gives
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
          CuckooFilters.read(in);
          System.exit(7);
        } catch (IllegalArgumentException e) {
          String m = e.getMessage();
          System.out.println(m);
          boolean named = m.contains("bytes") && m.contains("of heap") && m.contains("the heap's maximum")
              && m.contains("CuckooFilters.open") && m.contains("-Xmx");
          System.exit(named ? 0 : 8);
        } catch (OutOfMemoryError e) {
          System.exit(6);
        }
      }
      case "convert" -> {
        // config is the file to convert, file the new one
        System.exit(CuckooFilters.convert(Path.of(config), file) == 3 ? 0 : 9);
      }
      default -> System.exit(4);
    }
  }
}
