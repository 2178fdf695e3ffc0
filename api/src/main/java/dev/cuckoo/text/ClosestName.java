package dev.cuckoo.text;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** Suggests the known name a mistyped one was meant to be, for error messages. */
public final class ClosestName {
  private ClosestName() {}

  /**
   * The known name a mistyped one was most likely meant to be: the closest by edit distance
   * (ignoring case), if it is at most 2 edits away and closer than half the given name's
   * length, so that {@code capacty} suggests {@code capacity} but {@code xyz} suggests nothing.
   *
   * @param given the name that was not found
   * @param known the names that exist
   * @return the suggestion, if one is close enough
   */
  public static Optional<String> closest(String given, Collection<String> known) {
    String g = given.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String name : known) {
      int d = editDistance(g, name.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        best = name;
        bestDistance = d;
      }
    }
    return bestDistance <= 2 && 2 * bestDistance < given.length() ? Optional.of(best) : Optional.empty();
  }

  /**
   * @param given the name that was not found
   * @param known the names that exist
   * @return {@code "; did you mean 'x'?"} for the {@link #closest} name, or {@code ""}
   */
  public static String didYouMean(String given, Collection<String> known) {
    return closest(given, known).map(name -> "; did you mean '" + name + "'?").orElse("");
  }

  /** Levenshtein distance: the fewest insertions, deletions and substitutions from a to b. */
  private static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] t = previous;
      previous = current;
      current = t;
    }
    return previous[b.length()];
  }
}
