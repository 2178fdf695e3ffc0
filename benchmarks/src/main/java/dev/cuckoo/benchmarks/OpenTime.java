package dev.cuckoo.benchmarks;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The time to make a filter file usable in a fresh JVM, and the heap it takes: {@code open}
 * (mapped) against {@code read} (onto the heap), each measured once per JVM, from the call to the
 * first lookup answered. Run one JVM per measurement, alternating, with the file in the page cache:
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.cuckoo.benchmarks.OpenTime write 'classic?capacity=300000000&fingerprintBits=16' /tmp/f.cuckoo
 * for i in 1 2 3; do for m in open read; do
 *   java -Xmx2g -cp benchmarks/target/benchmarks.jar dev.cuckoo.benchmarks.OpenTime $m /tmp/f.cuckoo
 * done; done
 * }</pre>
 *
 * <p>With {@code --after-loading} after the file, the library's providers and hashes are loaded
 * first (a filter of each table variant created and queried), so that the time is the call's
 * alone; without it, the time includes loading the library, as the first call of a process does.
 * With {@code --second-call}, the same call is made once, untimed, before the timed one.
 *
 * <p>{@code create CONFIG FILE} builds one in a file instead ({@code createFile}, 1,000 keys):
 * sparse, for the open time of files larger than the machine's memory.
 *
 * <p>{@code write} builds the filter on the heap with a key per 1,000 of its capacity and writes
 * it: every byte of the file is written (no sparse holes), and the open and read times depend on
 * its size alone. It prints {@code MODE<TAB>ms<TAB>heap
 * growth in bytes<TAB>file bytes}.
 */
public final class OpenTime {
  private OpenTime() {}

  /**
   * @param args {@code write CONFIG FILE}, {@code create CONFIG FILE}, or {@code open FILE} or {@code read FILE}, optionally
   *     followed by {@code --after-loading} or {@code --second-call}
   * @throws IOException if the file cannot be written or read
   */
  public static void main(String[] args) throws IOException {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    if (args[0].equals("write")) {
      Path file = Path.of(args[2]);
      Files.deleteIfExists(file);
      CuckooFilter f = CuckooFilters.create(args[1]);
      for (long i = 0; i < f.capacity() / 1000; i++) {
        f.add(i);
      }
      try (OutputStream o = Files.newOutputStream(file)) {
        f.writeTo(o);
      }
      out.println("wrote " + file + ", " + Files.size(file) + " bytes");
      return;
    }
    if (args[0].equals("create")) {
      Path file = Path.of(args[2]);
      Files.deleteIfExists(file);
      long start = System.nanoTime();
      try (var f = CuckooFilters.createFile(args[1], file)) {
        for (long i = 0; i < 1000; i++) {
          f.add(i);
        }
      }
      out.println(String.format(Locale.ROOT, "created %s, %d bytes (sparse), in %.1f s", file, Files.size(file),
          (System.nanoTime() - start) / 1e9));
      return;
    }
    String mode = args[0];
    Path file = Path.of(args[1]);
    boolean libraryLoaded = args.length > 2 && args[2].equals("--after-loading");
    if (libraryLoaded) {
      // Loads the providers, hashes and the envelope's classes, as a service has at start-up:
      // what is left is the cost of the call itself.
      CuckooFilters.create("classic?capacity=1000").mightContain(1L);
      CuckooFilters.create("semi-sorted?capacity=1000").mightContain(1L);
    }
    if (args.length > 2 && args[2].equals("--second-call")) {
      // The same call once before, untimed: every class it needs is loaded.
      if (mode.equals("open")) {
        CuckooFilters.open(file).close();
      } else {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
          CuckooFilters.read(in);
        }
      }
    }
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    System.gc();
    long heapBefore = memory.getHeapMemoryUsage().getUsed();
    long start = System.nanoTime();
    CuckooFilter f;
    if (mode.equals("open")) {
      f = CuckooFilters.open(file);
    } else {
      try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
        f = CuckooFilters.read(in);
      }
    }
    try {
      boolean found = f.mightContain(0L);
      long nanos = System.nanoTime() - start;
      System.gc();
      long heapGrowth = memory.getHeapMemoryUsage().getUsed() - heapBefore;
      out.println(String.format(Locale.ROOT, "%s\t%.1f\t%d\t%d\t%s", mode, nanos / 1e6, heapGrowth,
          Files.size(file), found));
      if (f instanceof dev.cuckoo.MappedFilter mapped) {
        mapped.close();
      }
    } finally {
      java.lang.ref.Reference.reachabilityFence(f); // so that the heap measured holds it
    }
  }
}
