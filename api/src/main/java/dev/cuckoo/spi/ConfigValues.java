package dev.cuckoo.spi;

/**
 * The wording of configuration errors, so that every variant rejects a bad value with the same
 * kind of message: the key, the value given, the variant and what is allowed ({@code
 * fingerprintBits=40 is out of range for variant classic: 4..32}). {@link SpecSchema} uses it for
 * the keys it describes; a variant with rules of its own uses it for those.
 */
public final class ConfigValues {
  private ConfigValues() {}

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
}
