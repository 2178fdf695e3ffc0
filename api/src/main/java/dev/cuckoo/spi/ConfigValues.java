package dev.cuckoo.spi;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The text forms of configuration values, shared by config strings, properties and variant
 * options, so that a number means the same thing wherever it is written. Every failure is an
 * {@link IllegalArgumentException} naming the key and the value.
 */
public final class ConfigValues {
  private static final Pattern WHOLE_NUMBER = Pattern.compile("[+-]?[0-9]+(_+[0-9]+)*");
  private static final Pattern HEX_NUMBER = Pattern.compile("0[xX][0-9a-fA-F]{1,16}");
  private static final Pattern DECIMAL =
      Pattern.compile("[+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");

  private ConfigValues() {}

  /**
   * Reads a whole number: decimal digits with an optional sign, '_' allowed between digits.
   *
   * @param key the key, for the message
   * @param value the text
   * @return the number
   * @throws IllegalArgumentException if the text is not such a number or does not fit a long
   */
  public static long parseWhole(String key, String value) {
    if (WHOLE_NUMBER.matcher(value).matches()) {
      try {
        return Long.parseLong(value.replace("_", ""));
      } catch (NumberFormatException overflow) {
        throw new IllegalArgumentException(
            key + "=" + value + " is out of range: at most " + Long.MAX_VALUE, overflow);
      }
    }
    throw new IllegalArgumentException(key + "=" + value + " is not a whole number");
  }

  /**
   * Reads a whole number that must fit an int; see {@link #parseWhole}.
   *
   * @param key the key, for the message
   * @param value the text
   * @return the number
   */
  public static int parseInt(String key, String value) {
    long v = parseWhole(key, value);
    if (v != (int) v) {
      throw new IllegalArgumentException(
          key + "=" + value + " is out of range: " + Integer.MIN_VALUE + ".." + Integer.MAX_VALUE);
    }
    return (int) v;
  }

  /**
   * Reads a whole number, or a hex one written {@code 0x...} (up to 16 digits, taken as an
   * unsigned 64-bit value), as seeds often are.
   *
   * @param key the key, for the message
   * @param value the text
   * @return the number
   */
  public static long parseWholeOrHex(String key, String value) {
    if (HEX_NUMBER.matcher(value).matches()) {
      return Long.parseUnsignedLong(value.substring(2).toLowerCase(Locale.ROOT), 16);
    }
    return parseWhole(key, value);
  }

  /**
   * Reads a non-negative decimal number such as {@code 0.001} or {@code 1e-3}; one too large for
   * a {@code double} (such as {@code 1e999}) is out of range.
   *
   * @param key the key, for the message
   * @param value the text
   * @return the number
   */
  public static double parseDecimal(String key, String value) {
    if (!DECIMAL.matcher(value).matches()) {
      throw new IllegalArgumentException(
          key + "=" + value + " is not a decimal number such as 0.001 or 1e-3");
    }
    double d = Double.parseDouble(value);
    if (Double.isInfinite(d)) {
      // Double.toString would write it back as "Infinity", which no config string parses.
      throw new IllegalArgumentException(
          key + "=" + value + " is out of range: at most " + Double.MAX_VALUE);
    }
    return d;
  }

  /**
   * The standard message for a value outside what a variant allows.
   *
   * @param key the key
   * @param value the value given
   * @param variant the variant
   * @param allowed what is allowed, e.g. {@code 4..32}
   * @return the exception to throw
   */
  public static IllegalArgumentException outOfRange(
      String key, Object value, String variant, String allowed) {
    return new IllegalArgumentException(
        key + "=" + value + " is out of range for variant " + variant + ": " + allowed);
  }

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
