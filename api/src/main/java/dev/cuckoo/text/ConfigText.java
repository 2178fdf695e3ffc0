package dev.cuckoo.text;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The text forms of configuration names and values, shared by config strings, properties, the
 * spec's builder and variant options, so that a name or a number means the same thing wherever
 * it is written. Every failure is an {@link IllegalArgumentException} naming the key and the
 * value.
 */
public final class ConfigText {
  /*
   * Names, option values, whole and hex numbers, which every spec holds, are checked character by
   * character; only the decimal forms, which a targetFpp or a refusal needs, are regular expressions, compiled at
   * their first use: compiling a pattern costs a fresh JVM milliseconds, and every process's
   * first CuckooFilters.open parses the file's spec.
   */
  private static final class Decimals {
    static final Pattern DECIMAL = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");
    static final Pattern SCIENTIFIC = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)[eE][+-]?[0-9]{1,4}");
  }

  private ConfigText() {}

  /** @return whether the text is {@code [+-]?[0-9]+(_+[0-9]+)*}: digits, '_' only between them */
  private static boolean isWholeNumber(String value) {
    int from = !value.isEmpty() && (value.charAt(0) == '+' || value.charAt(0) == '-') ? 1 : 0;
    if (from == value.length() || !isDigit(value.charAt(from)) || !isDigit(value.charAt(value.length() - 1))) {
      return false;
    }
    for (int i = from + 1; i < value.length() - 1; i++) {
      if (!isDigit(value.charAt(i)) && value.charAt(i) != '_') {
        return false;
      }
    }
    return true;
  }

  /** @return whether the text is {@code 0[xX][0-9a-fA-F]{1,16}} */
  private static boolean isHexNumber(String value) {
    if (value.length() < 3 || value.length() > 18 || value.charAt(0) != '0'
        || (value.charAt(1) != 'x' && value.charAt(1) != 'X')) {
      return false;
    }
    for (int i = 2; i < value.length(); i++) {
      char c = value.charAt(i);
      if (!isDigit(c) && !(c >= 'a' && c <= 'f') && !(c >= 'A' && c <= 'F')) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the text is a name: of a variant or a hash ({@code digitFirst}), or of an option.
   *
   * @param s the text
   * @param digitFirst whether it may start with a digit
   * @return whether it is 1 to 64 letters, digits, '.', '_' or '-', its first a letter, or a
   *     digit if {@code digitFirst}: {@code [A-Za-z0-9][A-Za-z0-9._-]{0,63}} or {@code
   *     [A-Za-z][A-Za-z0-9._-]{0,63}}
   */
  public static boolean isName(String s, boolean digitFirst) {
    if (s.isEmpty() || s.length() > 64 || !(isLetter(s.charAt(0)) || (digitFirst && isDigit(s.charAt(0))))) {
      return false;
    }
    for (int i = 1; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!isLetter(c) && !isDigit(c) && c != '.' && c != '_' && c != '-') {
        return false;
      }
    }
    return true;
  }

  /**
   * @param s the text
   * @return whether it is an option's value: {@code [A-Za-z0-9._:+,-]{1,256}}
   */
  public static boolean isOptionValue(String s) {
    if (s.isEmpty() || s.length() > 256) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!isLetter(c) && !isDigit(c) && ".:_+,-".indexOf(c) < 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean isLetter(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /**
   * Reads a whole number: decimal digits with an optional sign, '_' allowed between digits.
   *
   * @param key the key, for the message
   * @param value the text
   * @return the number
   * @throws IllegalArgumentException if the text is not such a number or does not fit a long
   */
  public static long parseWhole(String key, String value) {
    if (isWholeNumber(value)) {
      try {
        return Long.parseLong(value.replace("_", ""));
      } catch (NumberFormatException overflow) {
        throw new IllegalArgumentException(
            key + "=" + value + " is out of range: at most " + Long.MAX_VALUE, overflow);
      }
    }
    throw new IllegalArgumentException(key + "=" + value + " is not a whole number" + inDigits(value));
  }

  /**
   * What to write instead of a number in scientific notation ({@code 1e6}), which a whole number
   * does not take: a config string is written back with the number in digits, and {@code 1e6}
   * and {@code 1.5e-3} look alike but only one is whole.
   */
  private static String inDigits(String value) {
    if (!Decimals.SCIENTIFIC.matcher(value).matches()) {
      return "";
    }
    BigDecimal d = new BigDecimal(value.startsWith("+") ? value.substring(1) : value);
    try {
      long whole = d.longValueExact();
      return ": scientific notation is not accepted; write it in digits, " + whole;
    } catch (ArithmeticException notWholeOrTooLarge) {
      return " (scientific notation is not accepted either)";
    }
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
    if (isHexNumber(value)) {
      return Long.parseUnsignedLong(value.substring(2).toLowerCase(Locale.ROOT), 16);
    }
    return parseWhole(key, value);
  }

  /**
   * Reads a decimal number such as {@code 0.001}, {@code 1e-3} or {@code -0.5} (the caller checks
   * its range, so that a negative value is reported as out of range rather than as not a number);
   * one too large for a {@code double} (such as {@code 1e999}) is out of range.
   *
   * @param key the key, for the message
   * @param value the text
   * @return the number
   */
  public static double parseDecimal(String key, String value) {
    if (!Decimals.DECIMAL.matcher(value).matches()) {
      throw new IllegalArgumentException(
          key + "=" + value + " is not a decimal number such as 0.001 or 1e-3");
    }
    double d = Double.parseDouble(value);
    if (Double.isInfinite(d)) {
      // Double.toString would write it back as "Infinity", which no config string parses.
      throw new IllegalArgumentException(
          key + "=" + value + " is out of range: " + (d > 0 ? "at most " : "at least -") + Double.MAX_VALUE);
    }
    return d;
  }
}
