import java.util.ArrayList;
import java.util.SplittableRandom;

/**
 * A model, not the product: how an expandable cuckoo table would fare if it grew by linear
 * hashing (one bucket split at a time) instead of doubling, for issue 22's memory and FPP goals.
 *
 * <p>Run with a JDK 17 and nothing else:
 *
 * <pre>{@code
 * java -Xmx14g docs/models/LinearGrowthModel.java SLOTS FINGERPRINT_BITS LANE_BITS GROW_LOAD KEYS
 * java -Xmx14g docs/models/LinearGrowthModel.java 4 8 16 0.91 16777216   # today's 16-bit lanes
 * java -Xmx14g docs/models/LinearGrowthModel.java 7 10 18 0.93 16777216  # 7 lanes of 18 bits
 * java -Xmx14g docs/models/LinearGrowthModel.java 2 8 16 0.80 16777216   # 2 lanes of 16 bits
 * }</pre>
 *
 * <p>What it models. Buckets are addressed by a key's low hash bits: at base level k with split
 * pointer p, bucket u = h mod 2^k, or, if u < p, u + 2^k·(bit k of h): the layout of linear
 * hashing [Litwin 1980], so that splitting bucket p appends one bucket and moves nothing else.
 * A key's second position is h XOR an odd 64-bit offset chosen by its 7-bit tag, so that both
 * positions split along with the table (as in the expandable filter). An entry pins the low P
 * bits of the position it sits at plus its tag: P is its bucket's level plus the fingerprint
 * bits a lane holds when it is stored, and never grows afterwards (InfiniFilter's rule); it is
 * cut to level + fingerprint bits when the entry moves into a bucket of lower level. An entry
 * whose bits no longer say which child it belongs to is copied into both (Aleph's rule), and one
 * that cannot name its partner bucket is not kicked. The table splits the next bucket whenever
 * the entries exceed GROW_LOAD of the slots or the stash holds more than 4. Memory counts a
 * bucket's bits where buckets tile a 64-bit word (2 lanes of 16 bits: two buckets a word), whole
 * 64-bit words per bucket otherwise; the real table would also round its array up.
 *
 * <p>It prints, at every 4x from 4,096 keys, the load, the false-positive rate measured on
 * 400,000 random absent keys, bits per item and stash, after checking that every key added is
 * found; and at the end the geometric mean and the worst of bits per item sampled 8 times per
 * doubling of the key count.
 */
public class LinearGrowthModel {
  static int slots, fingerprintBits, laneBits, k;
  static long p;
  static double growLoad;
  static long[] table;
  static int[] filled;
  static final long[] OFFSETS = new long[128];
  static long entries, keys;
  static final ArrayList<Long> stash = new ArrayList<>();
  static SplittableRandom random;

  static long buckets() {
    return (1L << k) + p;
  }

  static long bucket(long x) {
    long u = x & ((1L << k) - 1);
    return u < p ? u + (((x >>> k) & 1) << k) : u;
  }

  static int level(long x) {
    return (x & ((1L << k) - 1)) < p ? k + 1 : k;
  }

  static long mask(int bits) {
    return bits >= 64 ? -1L : (1L << bits) - 1;
  }

  /** An entry: the pinned low bits of its position, its tag and how many bits it pins. */
  static long entry(long position, int tag, int bits) {
    bits = Math.min(bits, 50);
    return (position & mask(bits)) << 13 | (long) tag << 6 | bits;
  }

  static int bits(long e) {
    return (int) (e & 63);
  }

  static int tag(long e) {
    return (int) ((e >>> 6) & 127);
  }

  static long position(long e) {
    return e >>> 13;
  }

  /** The entry as bucket {@code b} holds it: at least the bucket's bits, at most a lane's more. */
  static long fitted(long e, long b) {
    int lv = level(b);
    return entry(position(e) | (b & mask(lv)), tag(e), Math.min(Math.max(bits(e), lv), lv + fingerprintBits));
  }

  static boolean put(long b, long e) {
    int c = filled[(int) b];
    if (c == slots) {
      return false;
    }
    table[(int) (b * slots + c)] = fitted(e, b);
    filled[(int) b]++;
    return true;
  }

  /** The entry at its partner position, or -1 if its bits do not name that bucket. */
  static long partner(long e) {
    long x = position(e) ^ (OFFSETS[tag(e)] & mask(bits(e)));
    return level(x) > bits(e) ? -1 : entry(x, tag(e), bits(e));
  }

  static void insert(long e) {
    long b = bucket(position(e));
    if (put(b, e)) {
      return;
    }
    long e2 = partner(e);
    if (e2 != -1 && put(bucket(position(e2)), e2)) {
      return;
    }
    if (e2 != -1 && random.nextBoolean()) {
      e = e2;
      b = bucket(position(e2));
    }
    for (int kick = 0; kick < 500; kick++) {
      int at = (int) (b * slots + random.nextInt(slots));
      long victim = partner(table[at]);
      if (victim == -1) {
        continue;
      }
      table[at] = fitted(e, b);
      long vb = bucket(position(victim));
      if (put(vb, victim)) {
        return;
      }
      e = victim;
      b = vb;
    }
    stash.add(e);
  }

  static void split() {
    long u = p;
    long base = 1L << k;
    long[] moving = new long[filled[(int) u]];
    for (int i = 0; i < moving.length; i++) {
      moving[i] = table[(int) (u * slots + i)];
    }
    filled[(int) u] = 0;
    p++;
    for (long e : moving) {
      if (bits(e) > k) {
        put(bucket(position(e)), e);
      } else {
        put(u, e);
        put(base + u, entry(position(e) | 1L << k, tag(e), k + 1));
        entries++;
      }
    }
    if (p == base) {
      k++;
      p = 0;
    }
  }

  static void retryStash() {
    ArrayList<Long> waiting = new ArrayList<>(stash);
    stash.clear();
    waiting.forEach(LinearGrowthModel::insert);
  }

  static int tagOf(long h) {
    return (int) ((h >>> 56) * 127 >>> 8) + 1;
  }

  static boolean contains(long h) {
    int t = tagOf(h);
    for (long x : new long[] {h, h ^ OFFSETS[t]}) {
      long b = bucket(x);
      for (int i = 0; i < filled[(int) b]; i++) {
        long e = table[(int) (b * slots + i)];
        if (tag(e) == t && position(e) == (x & mask(bits(e)))) {
          return true;
        }
      }
      for (long e : stash) {
        if (tag(e) == t && position(e) == (x & mask(bits(e)))) {
          return true;
        }
      }
    }
    return false;
  }

  public static void main(String[] args) {
    slots = Integer.parseInt(args[0]);
    fingerprintBits = Integer.parseInt(args[1]);
    laneBits = Integer.parseInt(args[2]);
    growLoad = Double.parseDouble(args[3]);
    long end = Long.parseLong(args[4]);
    int start = 4096;
    random = new SplittableRandom(42);
    for (int t = 1; t < 128; t++) {
      OFFSETS[t] = random.nextLong() | 1;
    }
    long maxBuckets = (long) (2 * end / (slots * growLoad)) + 64;
    table = new long[(int) (maxBuckets * slots)];
    filled = new int[(int) maxBuckets];
    k = 63 - Long.numberOfLeadingZeros((long) (start / (slots * growLoad)));
    while (buckets() * slots * growLoad < start) {
      split();
    }
    double bitsPerBucket = 64 % (slots * laneBits) == 0 ? slots * laneBits : Math.ceil(slots * laneBits / 64.0) * 64;
    double logSum = 0;
    double worst = 0;
    int samples = 0;
    long nextSample = start;
    long nextCheck = start;
    SplittableRandom keyHashes = new SplittableRandom(7);
    SplittableRandom absent = new SplittableRandom(99);
    while (keys < end) {
      long h = keyHashes.nextLong();
      insert(entry(h, tagOf(h), 50));
      keys++;
      entries++;
      boolean grew = false;
      while (entries > growLoad * slots * buckets() || stash.size() > 4) {
        split();
        grew = true;
        if (stash.size() > 4) {
          retryStash();
        }
      }
      if (grew && !stash.isEmpty()) {
        retryStash();
      }
      if (keys >= nextSample) {
        double bits = buckets() * bitsPerBucket / keys;
        logSum += Math.log(bits);
        worst = Math.max(worst, bits);
        samples++;
        nextSample = (long) Math.ceil(nextSample * Math.pow(2, 1 / 8.0));
      }
      if (keys == nextCheck) {
        int falsePositives = 0;
        int probes = 400_000;
        for (int i = 0; i < probes; i++) {
          if (contains(absent.nextLong())) {
            falsePositives++;
          }
        }
        SplittableRandom again = new SplittableRandom(7);
        long missing = 0;
        for (long i = 0; i < keys; i++) {
          if (!contains(again.nextLong())) {
            missing++;
          }
        }
        System.out.printf(
            "keys %,d buckets %,d (k=%d p=%d) load %.3f FPP %.4f%% bits/item %.2f stash %d missing %d%n",
            keys, buckets(), k, p, entries / (double) (buckets() * slots), 100.0 * falsePositives / probes,
            buckets() * bitsPerBucket / keys, stash.size(), missing);
        nextCheck *= 4;
      }
    }
    System.out.printf("bits/item geometric mean %.2f, worst %.2f, %d samples%n", Math.exp(logSum / samples), worst, samples);
  }
}
