import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A measurement, not the product: what a fresh JVM's first {@code CuckooFilters.open} costs,
 * from the call to the first lookup of a string key answered, in time, heap and classes loaded.
 * The library's start-up is what it measures, not the file's: a small file (2 MB) maps in
 * microseconds.
 *
 * <p>Compile it into a jar and put that first on the class path, as an application's own
 * classes are (the JDK's machinery for reading jars is then loaded before the clock starts, and
 * the library's jars are opened after it); not as a source file ({@code java FirstOpen.java}),
 * whose compiler would load in the same JVM much of what the first open pays for. Then run one
 * JVM per measurement, with the file in the page cache:
 *
 * <pre>{@code
 * CP=cli/target/cuckoo.jar   # or the jars of api, engine, classic, hashing and zero-allocation-hashing
 * javac -cp $CP -d /tmp/first-open docs/measure/FirstOpen.java && jar cf /tmp/first-open.jar -C /tmp/first-open .
 * java -cp /tmp/first-open.jar:$CP FirstOpen make /tmp/first-open.cuckoo
 * for i in 1 2 3 4 5; do java -cp /tmp/first-open.jar:$CP FirstOpen /tmp/first-open.cuckoo; done
 * }</pre>
 *
 * <p>With a second argument, {@code opened}, it first asks the class loader for a resource no jar
 * has, which opens every jar of the class path before the clock starts, as a running application
 * has opened them by the time it opens a filter; without it, a class path whose library jars come
 * after the others is opened by the class loader inside the measurement, to find the library's
 * first class:
 *
 * <pre>{@code
 * java -cp /tmp/first-open.jar:$OTHER_JARS:$CP FirstOpen /tmp/first-open.cuckoo opened
 * }</pre>
 *
 * <p>It prints the milliseconds from the call to the answer, and the CPU time of the thread
 * (less disturbed by other processes on a busy machine); the heap the thread allocated meanwhile
 * and what of it is still in use after a collection; the classes loaded, the JDK's included; and
 * the collections that ran meanwhile. The management beans that measure this are made before the
 * clock starts, which loads the JDK's machinery for lambdas, as nearly any application has.
 */
public final class FirstOpen {
  private FirstOpen() {}

  public static void main(String[] args) throws Exception {
    if (args[0].equals("make")) {
      // A 16-bit classic filter of 2 MB, built in the file and closed (forced and clean).
      Path file = Path.of(args[1]);
      Files.deleteIfExists(file);
      try (MappedFilter f = CuckooFilters.createFile("classic?capacity=1000000&fingerprintBits=16", file)) {
        for (int i = 0; i < 100_000; i++) {
          f.add("https://example.com/" + i);
        }
      }
      System.out.println("made " + file + ", " + Files.size(file) + " bytes");
      return;
    }
    Path file = Path.of(args[0]);
    if (args.length > 1 && args[1].equals("opened")) {
      FirstOpen.class.getClassLoader().getResource("META-INF/first-open/none");
    }
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    System.gc();
    long collections = collections();
    long classesBefore = classes.getTotalLoadedClassCount();
    long heapBefore = memory.getHeapMemoryUsage().getUsed();
    long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
    long cpuBefore = threads.getCurrentThreadCpuTime();
    long start = System.nanoTime();

    MappedFilter f = CuckooFilters.open(file);
    boolean found = f.mightContain("https://example.com/1");

    long nanos = System.nanoTime() - start;
    long cpuNanos = threads.getCurrentThreadCpuTime() - cpuBefore;
    long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
    long classesAfter = classes.getTotalLoadedClassCount();
    long collectionsDuring = collections() - collections;
    System.gc();
    long retained = memory.getHeapMemoryUsage().getUsed() - heapBefore;
    f.close();
    System.out.println("ms " + nanos / 100_000 / 10.0
        + "\tcpu_ms " + cpuNanos / 100_000 / 10.0
        + "\tallocated_kb " + allocated / 1024
        + "\tretained_kb " + retained / 1024
        + "\tclasses " + (classesAfter - classesBefore)
        + "\tgcs_during " + collectionsDuring
        + "\tfound " + found);
  }

  private static long collections() {
    long n = 0;
    for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += gc.getCollectionCount();
    }
    return n;
  }
}
