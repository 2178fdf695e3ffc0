import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import org.fastfilter.cuckoo.Cuckoo8;
import java.util.SplittableRandom;

/**
 * A measurement, not the product: n random long keys inserted, then n positive and n negative
 * lookups, three passes in one JVM, for one of our configs (its capacity given, so the load a
 * fill reaches can be chosen) or FastFilter's {@code Cuckoo8} sized as FastFilter sizes it
 * ({@code n / 0.95} slots). Run each contender in a fresh JVM, alternating, and compare the third
 * passes.
 *
 * <pre>{@code
 * CP=benchmarks/target/benchmarks.jar
 * javac -cp $CP -d /tmp/eqload docs/measure/EqualLoad.java
 * java -Xmx4g -XX:+UseParallelGC -cp $CP:/tmp/eqload EqualLoad 'classic?fingerprintBits=8&capacity=10157895' 10000000
 * java -Xmx4g -XX:+UseParallelGC -cp $CP:/tmp/eqload EqualLoad ff 10000000
 * }</pre>
 */
public class EqualLoad {
  public static void main(String[] a) {
    String who = a[0];
    int n = Integer.parseInt(a[1]);
    long[] keys = new SplittableRandom(42).longs(n).toArray();
    long[] absent = new SplittableRandom(43).longs(n).toArray();
    for (int round = 0; round < 3; round++) {
      long t0, t1, t2, t3; int hits = 0;
      if (who.equals("ff")) {
        Cuckoo8 f = new Cuckoo8((int) Math.ceil(n / 0.95));
        t0 = System.nanoTime();
        for (long k : keys) f.insert(k);
        t1 = System.nanoTime();
        for (long k : keys) hits += f.mayContain(k) ? 1 : 0;
        t2 = System.nanoTime();
        for (long k : absent) hits += f.mayContain(k) ? 1 : 0;
        t3 = System.nanoTime();
      } else {
        CuckooFilter f = CuckooFilters.create(who);
        t0 = System.nanoTime();
        for (long k : keys) f.add(k);
        t1 = System.nanoTime();
        for (long k : keys) hits += f.mightContain(k) ? 1 : 0;
        t2 = System.nanoTime();
        for (long k : absent) hits += f.mightContain(k) ? 1 : 0;
        t3 = System.nanoTime();
      }
      System.out.printf("%s round %d insert %.1f pos %.1f neg %.1f (%d)%n", who, round,
          (t1 - t0) / (double) n, (t2 - t1) / (double) n, (t3 - t2) / (double) n, hits);
    }
  }
}
