package dev.cuckoo.expandable;

/**
 * How wide the lanes of an expandable filter are at each size: the extra fingerprint bits each
 * generation of keys gets, so that the false-positive rate stays at or below a target however
 * far the filter grows ({@code targetFpp}), or none at all (a filter of one lane width, whose rate
 * rises with each doubling).
 *
 * <p>Immutable; {@link #extBits} is a table lookup.
 */
final class LaneSchedule {

  /*
   * Why widening new entries holds the rate flat (InfiniFilter [1], section 4, makes the same
   * argument for its fingerprint growth regimes; Aleph [2] spends the budget for a known final
   * size). Call the keys added while the table has 2^g buckets generation g. A doubling moves
   * one fingerprint bit of every entry into the bucket index, so an entry of generation g, in a
   * table of 2^G buckets, matches a key of its bucket with probability 2^(G-g) / (T·2^f_g), T the
   * tags and f_g the fingerprint bits it was given; and it shares its bucket with 2^(G-g) times
   * fewer of its generation than when the generation was added. The two cancel: generation g adds
   * c_g / (T·2^f_g) to the rate at every later size, c_g = 2·(its entries)/2^g, at most b·α (a
   * generation fills the table from α/2 to α) and 2·b·α for the first table (from empty). The
   * rate after generation G is therefore at most the sum over g <= G, and it stays below a target
   * X at every size when the sum over every generation the filter can reach does.
   *
   * A lane of w bits gives a new entry f = w - 8 fingerprint bits; the layout (LaneTable) keeps
   * 16 bits of every lane in one word per bucket for the lookup's one SWAR test and the lane's
   * x = w - 16 other bits after all those words. The schedule gives generation g x_g extra
   * bits: the fewest that still leave room, in the budget, for every later generation at x_g + 1
   * (so x never falls by more than the first table's extra bit and grows by at most one a
   * doubling). Spending
   * equal shares of the budget on every generation is what minimizes the total width (a
   * Lagrangian argument: the rate's derivative in x_g is proportional to the share); the
   * integer widths take the smaller one first, so that a filter that stops early uses narrower
   * lanes.
   *
   * Without a size hint every generation up to the largest table counts. Given the keys the
   * filter is expected to reach (expectedKeys), only generations up to that size share the
   * budget, as Aleph's predictive mode does, plus two shares at x_T kept for all the later
   * ones, which take x_T, x_T + 1, x_T + 2, ... (the sum of their shares is two shares at x_T),
   * until lanes are 32 bits wide; past that the rate rises again by a generation's share per
   * doubling.
   *
   * [1] N. Dayan, I. Bercea, P. Reviriego, R. Pagh, "InfiniFilter: Expanding Filters to
   *     Infinity and Beyond", SIGMOD 2023.
   * [2] N. Dayan, I. Bercea, R. Pagh, "Aleph Filter: To Infinity in Constant Time", PVLDB 17(11),
   *     2024.
   */

  /** Bits of a lane kept in the bucket's word: tag, and the first code bits. */
  static final int HEAD_BITS = 16;
  /** The most bits a lane takes beside its head: lanes are at most 32 bits. */
  static final int MAX_EXT_BITS = 16;
  /** The largest table a schedule plans for: 2^30 buckets of 4, past 2^32 keys. */
  static final int PLANNED_K = 30;
  /** The share of the target the bound may reach: the rest absorbs the sampling of a measurement. */
  static final double MARGIN = 0.9;

  /** The schedule of a filter of one lane width. */
  static final LaneSchedule FIXED = new LaneSchedule(0, 0, 0, new int[PLANNED_K + 2]);

  /** The target rate, or 0 for a fixed lane width. */
  final double targetFpp;
  /** The keys the filter is expected to reach, or 0 if not known. */
  final long expectedKeys;
  /** log2 of the first table's bucket count. */
  final int startK;
  /** Extra bits of the table of 2^k buckets, by k (0..PLANNED_K + 1). */
  private final int[] ext;

  private LaneSchedule(double targetFpp, long expectedKeys, int startK, int[] ext) {
    this.targetFpp = targetFpp;
    this.expectedKeys = expectedKeys;
    this.startK = startK;
    this.ext = ext;
  }

  /**
   * The schedule that holds the rate at or below {@code targetFpp}.
   *
   * @param targetFpp the rate, strictly between 0 and 1
   * @param expectedKeys the keys the filter is expected to reach, or 0 if not known
   * @param slots slots a bucket (4)
   * @param startK log2 of the first table's bucket count
   * @return the schedule
   * @throws IllegalArgumentException if even 32-bit lanes cannot hold the rate that low
   */
  static LaneSchedule flat(double targetFpp, long expectedKeys, int slots, int startK) {
    double load = ExpandableFilter.growLoad(slots);
    // A generation's share of the rate at x = 0: c_g / (T · 2^(HEAD_BITS - 8)).
    double unit = slots * load / (LaneTable.TAGS * (double) (1 << (HEAD_BITS - 8)));
    int horizon = PLANNED_K;
    if (expectedKeys > 0) {
      horizon = startK;
      while (horizon < PLANNED_K && ExpandableFilter.growAt(slots, horizon) < expectedKeys) {
        horizon++;
      }
    }
    // Generation startK fills its table from empty: two shares. A hint keeps two more shares
    // for every generation past it (the tail).
    // ... unless the generations past the hint are too few to be worth two shares.
    boolean tail = expectedKeys > 0 && PLANNED_K - horizon > 2;
    if (!tail) {
      horizon = PLANNED_K;
    }
    int units = horizon - startK + 1 + (tail ? 1 : 0);
    double[] weight = new double[units];
    java.util.Arrays.fill(weight, unit);
    weight[0] = 2 * unit;
    if (tail) {
      weight[units - 1] = 2 * unit;
    }
    double budget = MARGIN * targetFpp;
    int[] chosen = new int[units];
    double spent = 0;
    for (int g = 0; g < units; g++) {
      int x = 0;
      while (x < MAX_EXT_BITS && spent + share(weight[g], x) + rest(weight, g + 1, x + 1) > budget) {
        x++;
      }
      chosen[g] = x;
      spent += share(weight[g], x);
    }
    if (spent > budget) {
      throw new IllegalArgumentException("targetFpp=" + targetFpp + " is below what an expandable filter holds flat with"
          + " 32-bit lanes (about " + String.format(java.util.Locale.ROOT, "%.1e", spent / MARGIN) + ")");
    }
    int[] ext = new int[PLANNED_K + 2];
    for (int k = 0; k < ext.length; k++) {
      int g = k - startK;
      int x;
      if (g < 0) {
        x = chosen[0];
      } else if (k <= horizon) {
        x = chosen[g];
      } else if (tail) {
        x = Math.min(MAX_EXT_BITS, chosen[units - 1] + (k - horizon - 1)); // the tail, one bit a doubling
      } else {
        x = chosen[units - 1];
      }
      ext[k] = x;
    }
    return new LaneSchedule(targetFpp, expectedKeys, startK, ext);
  }

  private static double share(double weight, int x) {
    return Math.scalb(weight, -x);
  }

  private static double rest(double[] weight, int from, int x) {
    double s = 0;
    for (int g = from; g < weight.length; g++) {
      s += share(weight[g], x);
    }
    return s;
  }

  /** @return whether lanes widen as the table grows */
  boolean isFlat() {
    return targetFpp > 0;
  }

  /**
   * @param k log2 of a table's bucket count
   * @return the bits a lane of that table takes beside its head
   */
  int extBits(int k) {
    return ext[Math.min(k, ext.length - 1)];
  }

  /**
   * The rate this schedule's bound allows once the table has grown to 2^k buckets: what {@code
   * targetFpp} promises at every size, shown by size in the guide.
   *
   * @param slots slots a bucket
   * @param k log2 of the bucket count, at least {@link #startK}
   * @return the bound
   */
  double rateBound(int slots, int k) {
    double unit = slots * ExpandableFilter.growLoad(slots) / (LaneTable.TAGS * (double) (1 << (HEAD_BITS - 8)));
    double s = share(2 * unit, extBits(startK));
    for (int g = startK + 1; g <= k; g++) {
      s += share(unit, extBits(g));
    }
    return s;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("ext bits by k:");
    for (int k = startK; k < ext.length; k++) {
      b.append(' ').append(k).append('=').append(ext[k]);
    }
    return b.toString();
  }
}
