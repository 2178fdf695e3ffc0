package dev.cuckoo.internal;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The text forms of configuration values, shared by config strings, properties and variant
 * options, so that a number means the same thing wherever it is written. Every failure is an
 * {@link IllegalArgumentException} naming the key and the value.
 */
public final class ConfigText {
  private static final Pattern WHOLE_NUMBER = Pattern.compile("[+-]?[0-9]+(_+[0-9]+)*");
  private static final Pattern HEX_NUMBER = Pattern.compile("0[xX][0-9a-fA-F]{1,16}");
  private static final Pattern DECIMAL =
      Pattern.compile("[+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");

  private ConfigText() {}

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
}
