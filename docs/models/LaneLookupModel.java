import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A model, not the product: what a negative lookup costs in five table layouts an expandable
 * filter could hold 16.7M keys in, with the arrays at the sizes each would have there.
 *
 * <ul>
 *   <li>{@code 16x4 doubling}: one long per bucket, 4 lanes of 16 bits, 2^22 buckets (33.5 MB,
 *       the table just before its doubling), buckets from the hash's top bits: today's
 *       expandable lookup.
 *   <li>{@code 16x4 linear}: the same buckets addressed by linear hashing (low bits, split
 *       pointer, branch-free), 2^22 + 473,140 buckets (37.3 MB, 91% load).
 *   <li>{@code 18x7 linear}: two longs per bucket, 7 lanes of 18 bits (3 in each long and one
 *       split 9 + 9 over their top bits), linear hashing, 2^21 + 484,303 buckets (41.3 MB, 93%).
 *   <li>{@code 16x2 linear}: one int per bucket, 2 lanes of 16 bits, linear hashing, 2^23 +
 *       2,233,056 buckets (42.5 MB, 80%), both buckets' words tested in one SWAR step. Its code
 *       is the key's hash bits above the bucket's in reverse order (the next bit to leave for the
 *       bucket index is the code's top bit, and with low-bit addressing that bit is the lowest
 *       one), reversed through a 256-entry table.
 *   <li>{@code 16x2 power of two}: the same lookup without the split pointer and the reversal,
 *       2^24 buckets (67 MB: the table a doubling filter of 2-lane buckets has at 16.7M keys):
 *       what the bucket size costs apart from linear addressing.
 * </ul>
 *
 * <p>Lanes hold random codes with a marker bit, compared as the expandable filter compares them
 * (SWAR, a code matches when it is a prefix of the key's). The contenders take turns over 7
 * rounds of 9.8M lookups of random keys; it prints each round and the median per-round ratios.
 *
 * <pre>{@code
 * java -Xmx4g docs/models/LaneLookupModel.java
 * }</pre>
 */
public class LaneLookupModel {
  static final long LO16 = 0x0001_0001_0001_0001L;
  static final long HI16 = 0x8000_8000_8000_8000L;
  static final long LO18 = 1L | 1L << 18 | 1L << 36;
  static final long HI18 = LO18 << 17;
  static long[] doubling;
  static long[] linear16;
  static long[] linear18;
  static int[] linear2;
  static int[] power2;
  static int k2 = 23;
  static long p2 = 2_233_056;
  static final int[] TAG_LANE = new int[256];
  static final int[] REVERSED = new int[256];
  static final int DOUBLING_SHIFT = 64 - 22;
  static int k16 = 22;
  static long p16 = 473_140;
  static int k18 = 21;
  static long p18 = 484_303;
  static final long[] BY_TAG = new long[256];
  static final long[] OFFSET = new long[256];
  static final long[] CODE = new long[256];

  static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }

  static long codeMismatch(long x, long p, long lo) {
    return (x ^ p) & ~(x ^ (x - lo));
  }

  static boolean doubling16(long h) {
    long b1 = h >>> DOUBLING_SHIFT;
    long t = BY_TAG[(int) h & 0xFF];
    long p1 = (t & 0xFFFF | (h << 22) >>> 55) * LO16;
    long p2 = p1 ^ (t >>> 16 & 0xFFFF) * LO16;
    long m1 = codeMismatch(doubling[(int) b1], p1, LO16);
    long m2 = codeMismatch(doubling[(int) (b1 ^ t >>> 32)], p2, LO16);
    return ((((m1 - LO16) & ~m1) | ((m2 - LO16) & ~m2)) & HI16) != 0;
  }

  static long bucket(long x, int k, long p) {
    long u = x & ((1L << k) - 1);
    return u | ((x >>> k) & ((u - p) >>> 63)) << k;
  }

  static boolean linear16(long h) {
    int tag = (int) (h >>> 56);
    long x2 = h ^ OFFSET[tag];
    long t = BY_TAG[tag];
    long p1 = (t & 0xFFFF | ((h >>> k16) & 0x1FF) << 1) * LO16;
    long p2 = (t & 0xFFFF | ((x2 >>> k16) & 0x1FF) << 1) * LO16;
    long m1 = codeMismatch(linear16[(int) bucket(h, k16, p16)], p1, LO16);
    long m2 = codeMismatch(linear16[(int) bucket(x2, k16, p16)], p2, LO16);
    return ((((m1 - LO16) & ~m1) | ((m2 - LO16) & ~m2)) & HI16) != 0;
  }

  static boolean linear18(long h) {
    int tag = (int) (h >>> 56);
    long x2 = h ^ OFFSET[tag];
    long c1 = CODE[tag] | ((h >>> k18) & 0x3FF) << 1;
    long c2 = CODE[tag] | ((x2 >>> k18) & 0x3FF) << 1;
    long q1 = c1 * LO18;
    long q2 = c2 * LO18;
    int i1 = (int) (bucket(h, k18, p18) << 1);
    int i2 = (int) (bucket(x2, k18, p18) << 1);
    long y0 = linear18[i1];
    long y1 = linear18[i1 + 1];
    long z0 = linear18[i2];
    long z1 = linear18[i2 + 1];
    long m0 = codeMismatch(y0, q1, LO18);
    long m1 = codeMismatch(y1, q1, LO18);
    long n0 = codeMismatch(z0, q2, LO18);
    long n1 = codeMismatch(z1, q2, LO18);
    long lane6 = (y0 >>> 54) << 9 | (y1 >>> 54);
    long other6 = (z0 >>> 54) << 9 | (z1 >>> 54);
    long r6 = codeMismatch(lane6, c1, 1) & 0x3FFFF;
    long s6 = codeMismatch(other6, c2, 1) & 0x3FFFF;
    long swar = (((m0 - LO18) & ~m0) | ((m1 - LO18) & ~m1) | ((n0 - LO18) & ~n0) | ((n1 - LO18) & ~n1)) & HI18;
    return (swar | (r6 == 0 ? 1 : 0) | (s6 == 0 ? 1 : 0)) != 0;
  }

  /** Two 32-bit buckets as one long, each key's code in both of its halves' lanes. */
  static boolean pair16(long w1, long w2, long c1, long c2) {
    long m = codeMismatch(w1 << 32 | (w2 & 0xFFFF_FFFFL), c1 << 48 | c1 << 32 | c2 << 16 | c2, LO16);
    return ((m - LO16) & ~m & HI16) != 0;
  }

  static boolean linear2(long h) {
    int tag = (int) (h >>> 56);
    long x2 = h ^ OFFSET[tag];
    long mask = (1L << k2) - 1;
    long u1 = h & mask;
    long u2 = x2 & mask;
    long s1 = (u1 - p2) >>> 63;
    long s2 = (u2 - p2) >>> 63;
    int lane = TAG_LANE[tag];
    long c1 = lane | REVERSED[(int) (h >>> (k2 + s1)) & 0xFF];
    long c2 = lane | REVERSED[(int) (x2 >>> (k2 + s2)) & 0xFF];
    return pair16(linear2[(int) (u1 | (h & s1 << k2))], linear2[(int) (u2 | (x2 & s2 << k2))], c1, c2);
  }

  static boolean power2(long h) {
    int tag = (int) (h >>> 56);
    long x2 = h ^ OFFSET[tag];
    long mask = (1L << 24) - 1;
    int lane = TAG_LANE[tag];
    long c1 = lane | ((h >>> 24) & 0x1FE) | 1;
    long c2 = lane | ((x2 >>> 24) & 0x1FE) | 1;
    return pair16(power2[(int) (h & mask)], power2[(int) (x2 & mask)], c1, c2);
  }

  public static void main(String[] args) {
    SplittableRandom random = new SplittableRandom(1);
    doubling = new long[1 << 22];
    Arrays.setAll(doubling, i -> random.nextLong() | LO16);
    linear16 = new long[(int) ((1L << k16) + p16)];
    Arrays.setAll(linear16, i -> random.nextLong() | LO16);
    linear18 = new long[(int) (2 * ((1L << k18) + p18))];
    Arrays.setAll(linear18, i -> (random.nextLong() | LO18 | 1L << 54) & ~(1L << 63));
    linear2 = new int[(int) ((1L << k2) + p2)];
    Arrays.setAll(linear2, i -> random.nextInt() | 0x0001_0001);
    power2 = new int[1 << 24];
    Arrays.setAll(power2, i -> random.nextInt() | 0x0001_0001);
    for (int i = 0; i < 256; i++) {
      TAG_LANE[i] = ((i * 127 >>> 8) + 1) << 9;
      REVERSED[i] = Integer.reverse(i) >>> 23 | 1;
      BY_TAG[i] = random.nextLong() >>> 42 << 32 | (random.nextLong() & 0xFFFF) << 16 | (random.nextInt(127) + 1) << 9 | 1;
      OFFSET[i] = random.nextLong() | 1;
      CODE[i] = (long) (random.nextInt(127) + 1) << 11 | 1;
    }
    String[] names = {"16x4 doubling", "16x4 linear", "18x7 linear", "16x2 linear", "16x2 power of two"};
    int rounds = 7;
    double[][] ns = new double[names.length][rounds];
    long[] keys = new long[1 << 16];
    long hits = 0;
    for (int round = 0; round < rounds; round++) {
      for (int c = 0; c < names.length; c++) {
        long ops = 0;
        long t0 = System.nanoTime();
        for (int rep = 0; rep < 150; rep++) {
          for (int i = 0; i < keys.length; i++) {
            keys[i] = random.nextLong();
          }
          for (long key : keys) {
            long h = mix(key);
            boolean found = switch (c) {
              case 0 -> doubling16(h);
              case 1 -> linear16(h);
              case 2 -> linear18(h);
              case 3 -> linear2(h);
              default -> power2(h);
            };
            if (found) {
              hits++;
            }
          }
          ops += keys.length;
        }
        ns[c][round] = (System.nanoTime() - t0) / (double) ops;
        System.out.printf("round %d %-18s %.1f ns/lookup%n", round, names[c], ns[c][round]);
      }
    }
    for (int c = 1; c < names.length; c++) {
      double[] ratio = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        ratio[r] = ns[c][r] / ns[0][r];
      }
      Arrays.sort(ratio);
      System.out.printf("%s / %s: median %.2f (%.2f-%.2f)%n", names[c], names[0], ratio[rounds / 2], ratio[0], ratio[rounds - 1]);
    }
    System.out.println("(hits " + hits + ")");
  }
}
