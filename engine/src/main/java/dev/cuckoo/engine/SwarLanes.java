package dev.cuckoo.engine;

/**
 * SWAR ("SIMD within a register") search over fingerprints packed side by side in a {@code
 * long}: lanes of {@code width} bits, lane 0 in the lowest bits. The constants of a lane layout
 * are built once with {@link #repeat}; the tests take them as arguments so that with constant
 * arguments they fold into a handful of instructions.
 *
 * <p>The contract, for lanes of width {@code w} (1..64) and the constants {@code lo = repeat(1,
 * w, n)}, {@code hi = lo << (w - 1)} and {@code low = repeat(2^(w-1) - 1, w, n)}: {@link
 * #anyZero} is non-zero exactly when one of the {@code n} lanes of {@code x} is zero, and {@link
 * #zeroLanes} has the top bit of exactly the zero lanes set; bits of {@code x} above the last
 * lane do not change either result. Every method is static and allocation-free.
 */
public final class SwarLanes {

  /*
   * The "determine if a word has a zero byte" tests of [1], generalized from bytes to lanes of
   * any width w (the layout constants: lo has bit 0 of every lane set, hi bit w-1, low every
   * bit but w-1).
   *
   * anyZero: (x - lo) & ~x & hi is non-zero exactly when some lane of x is zero. Lanes below the
   * lowest zero lane are non-zero, so no borrow crosses into it and it yields its top bit;
   * without a zero lane no borrow happens at all and each lane v gives (v-1) & ~v & top = 0.
   * Bits of x above the last lane only ever receive borrows, and hi masks them off.
   *
   * zeroLanes: ~(((x & low) + low) | x | low) & hi has the top bit of exactly the zero lanes.
   * Adding low to the lane's low w-1 bits carries into its top bit unless they were all zero,
   * and cannot carry out of the lane. It is exact per lane, so it counts and locates matches;
   * anyZero is one operation cheaper and serves lookups.
   *
   * A lane equal to a value v is a zero lane of x ^ (v * lo). Fingerprint 0 means an empty
   * slot, so the empty slots of a bucket are its zero lanes.
   *
   * codeMismatch: a lane may hold a code of any length up to w - 1 bits, left-aligned and ended
   * by a marker bit, its lowest set bit (the unary end marker of a variable-length code). Then
   * x ^ (x - 1) has exactly the marker and the bits below it set, and (x ^ p) & ~(x ^ (x - 1))
   * the code bits that differ from p's bits in the same places: zero exactly when the code is a
   * prefix of p's lane. x - lo borrows across lanes only out of a zero lane, which a lane that
   * holds a code never is.
   *
   * [1] S. E. Anderson, "Bit Twiddling Hacks", Stanford University, section "Determine if a
   *     word has a zero byte" (the first test there is credited to Alan Mycroft, 1987).
   */

  private SwarLanes() {}

  /**
   * @param lane the value of one lane
   * @param width lane width in bits, 1..64
   * @param lanes how many lanes, with {@code lanes * width <= 64}
   * @return {@code lane} copied into each of the lanes
   */
  public static long repeat(long lane, int width, int lanes) {
    long x = 0;
    for (int i = 0; i < lanes; i++) {
      x |= lane << (i * width);
    }
    return x;
  }

  /**
   * @param x the lanes
   * @param lo bit 0 of every lane
   * @param hi the top bit of every lane
   * @return non-zero exactly when some lane of {@code x} is zero
   */
  public static long anyZero(long x, long lo, long hi) {
    return (x - lo) & ~x & hi;
  }

  /**
   * {@code anyZero(x, lo, hi) | anyZero(y, lo, hi)}, in one operation fewer: a lookup tests
   * its two buckets with it.
   *
   * @param x the lanes of one word
   * @param y the lanes of another, of the same layout
   * @param lo bit 0 of every lane
   * @param hi the top bit of every lane
   * @return non-zero exactly when some lane of {@code x} or of {@code y} is zero
   */
  public static long anyZero(long x, long y, long lo, long hi) {
    return (((x - lo) & ~x) | ((y - lo) & ~y)) & hi;
  }

  /**
   * For lanes that each hold a left-aligned code ended by a marker bit (the lane's lowest set
   * bit; the bits below it are padding), the bits in which each code differs from the bits of
   * {@code p} above the marker: a lane of the result is zero exactly when its code is a prefix
   * of {@code p}'s lane. Test the result with {@link #anyZero} or {@link #zeroLanes}.
   *
   * @param x the lanes, none of them zero
   * @param p the lanes to compare with, of the same layout
   * @param lo bit 0 of every lane
   * @return the mismatched code bits of each lane
   */
  public static long codeMismatch(long x, long p, long lo) {
    return (x ^ p) & ~(x ^ (x - lo));
  }

  /**
   * @param x the lanes
   * @param low every bit of every lane but its top one
   * @param hi the top bit of every lane
   * @return the top bit of each lane of {@code x} that is zero, and no other bit
   */
  public static long zeroLanes(long x, long low, long hi) {
    return ~(((x & low) + low) | x | low) & hi;
  }
}
