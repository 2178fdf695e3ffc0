import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.MappedFilter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A measurement, not the product: what {@code CuckooFilters.createFile} costs for a file of a
 * given size, now that a new file takes all its blocks when it is made (zeros written over its
 * whole length, so that no store into its mapping meets a full disk later). Run it against the
 * jars of a build before that change too, whose files were sparse, to see the difference.
 *
 * <pre>{@code
 * CP=cli/target/cuckoo.jar
 * javac -cp $CP -d /tmp/create-cost docs/measure/CreateFileCost.java
 * java -cp /tmp/create-cost:$CP CreateFileCost /path/on/the/disk 1 10 50
 * }</pre>
 *
 * <p>For each size in GiB it creates a 16-bit {@code classic} filter whose file is about that
 * large in the folder given, closes it, and prints the seconds from the call to the closed file,
 * with the file's length and the bytes the file system gave it ({@code du}), then removes it. The
 * page cache is dropped between sizes where this process may ({@code /proc/sys/vm/drop_caches}).
 */
public final class CreateFileCost {
  private CreateFileCost() {}

  public static void main(String[] args) throws Exception {
    Path folder = Path.of(args[0]);
    for (int i = 1; i < args.length; i++) {
      double gib = Double.parseDouble(args[i]);
      long bytes = (long) (gib * (1L << 30));
      long capacity = (long) (bytes / 2.075); // 16-bit fingerprints in buckets of 4 at 96.5%: 2.07 bytes a key
      String config = "classic?fingerprintBits=16&capacity=" + capacity;
      Path file = folder.resolve("create-cost-" + args[i] + ".cuckoo");
      Files.deleteIfExists(file);
      dropCaches();
      long start = System.nanoTime();
      try (MappedFilter f = CuckooFilters.createFile(config, file)) {
        f.add("one key");
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      long length = Files.size(file);
      String used = du(file);
      System.out.printf("%s GiB asked: %,d bytes, createFile + one add + close %.2f s (%.0f MB/s), du %s%n",
          args[i], length, seconds, length / seconds / 1e6, used);
      Files.delete(file);
    }
    FilterSpec.parse("classic"); // the library is loaded: its start is not counted twice
  }

  private static void dropCaches() {
    try {
      new ProcessBuilder("sync").inheritIO().start().waitFor();
      Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "3");
    } catch (Exception notAllowed) {
      // where it may not, the page cache holds what it holds
    }
  }

  private static String du(Path file) {
    try {
      Process p = new ProcessBuilder("du", "-h", file.toString()).start();
      String out = new String(p.getInputStream().readAllBytes()).trim();
      p.waitFor();
      return out.split("\\s+")[0];
    } catch (Exception e) {
      return "?";
    }
  }
}
