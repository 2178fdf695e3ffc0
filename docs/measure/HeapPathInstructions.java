import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;

/**
 * Not part of the build: a loop of lookups or inserts on a heap filter, for counting their
 * instructions under {@code valgrind --tool=callgrind}. Run it twice with different pass counts
 * (and {@code -XX:-BackgroundCompilation}, so the passes run C2 code) and divide the difference
 * of the two totals by the extra operations: the JVM's start and the warm-up cancel out.
 * {@code heap-path-instructions.sh} does that for two checkouts side by side.
 *
 * <p>Arguments: a config without capacity, the keys, the measured passes, {@code lookup} or
 * {@code insert}. A lookup pass looks up as many absent keys as the filter holds; an insert pass
 * clears the filter and fills it again.
 */
public class HeapPathInstructions {
  public static void main(String[] a) {
    String config = a[0];
    int keys = Integer.parseInt(a[1]);
    int passes = Integer.parseInt(a[2]);
    boolean inserts = a[3].equals("insert");
    CuckooFilter f = CuckooFilters.create(config + "&capacity=" + keys);
    long sink = 0;
    for (int p = 0; p < 30 + passes; p++) {
      if (inserts) {
        f.clear();
        for (long i = 0; i < keys; i++) {
          sink += f.add(i * 0x9E3779B97F4A7C15L) ? 1 : 0;
        }
      } else {
        if (p == 0) {
          for (long i = 0; i < keys; i++) {
            f.add(i * 0x9E3779B97F4A7C15L);
          }
        }
        for (long i = 0; i < keys; i++) {
          sink += f.mightContain(~i * 0xC2B2AE3D27D4EB4FL) ? 1 : 0;
        }
      }
    }
    System.out.println(sink);
  }
}
