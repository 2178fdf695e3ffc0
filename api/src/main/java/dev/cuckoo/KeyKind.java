package dev.cuckoo;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What kind of value a filter's keys were made from: the value of the config key {@value
 * FilterSpec#KEYS}, which the filter's file remembers. The library's one key rule turns a string
 * into its UTF-8 bytes, a 64-bit integer into its 8 little-endian bytes, and takes bytes as
 * they are, so the number {@code 42} and the string {@code "42"} are different keys: a filter
 * built from one kind answers "absent" for every key of another. Recording the kind lets a
 * caller that knows its keys' kind refuse the mismatch instead ({@code cuckoo-spark} does, on the
 * driver); the filter itself looks up any key it is given.
 *
 * <p>A filter whose spec does not name a kind (every filter created before the key existed, and
 * any created without it) accepts lookups of every kind, as before.
 */
public enum KeyKind {
  /** Text, keyed by its UTF-8 bytes. */
  STRING,
  /** Byte strings, keyed as they are. */
  BINARY,
  /** 64-bit integers (and narrower ones, widened), keyed by their 8 little-endian bytes. */
  LONG;

  /** @return the value as config strings write it: {@code string}, {@code binary} or {@code long} */
  public String configValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** @return {@link #configValue()} */
  @Override
  public String toString() {
    return configValue();
  }

  /**
   * Reads the value of a config string's {@value FilterSpec#KEYS} key.
   *
   * @param text {@code string}, {@code binary} or {@code long}
   * @return the kind
   * @throws IllegalArgumentException naming the text and the values allowed
   */
  public static KeyKind parse(String text) {
    for (KeyKind k : values()) {
      if (k.configValue().equals(text)) {
        return k;
      }
    }
    throw new IllegalArgumentException(FilterSpec.KEYS + "=" + text + " is not a kind of key: " + allowed());
  }

  /** @return the config values, comma-separated */
  static String allowed() {
    return Arrays.stream(values()).map(KeyKind::configValue).collect(Collectors.joining(", "));
  }
}
