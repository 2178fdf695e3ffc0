package dev.cuckoo.text;

/**
 * The key-encoding rule's UTF-8, exactly as {@code String.getBytes(UTF_8)} writes it (an
 * unpaired surrogate becomes {@code '?'}), into an array the caller owns, so that a key's bytes
 * cost no allocation: the hash strategies' scratch arrays and a {@code KeySink} share it.
 */
public final class Utf8 {
  private Utf8() {}

  /**
   * @param s characters
   * @return the bytes their UTF-8 takes
   * @throws IllegalArgumentException if that is more than an array holds
   */
  public static int length(CharSequence s) {
    long len = 0;
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        len += 1;
      } else if (c < 0x800) {
        len += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        len += 4;
        i++;
      } else {
        len += Character.isSurrogate(c) ? 1 : 3;
      }
    }
    if (len > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "key of " + n + " chars takes " + len + " UTF-8 bytes: more than a Java array holds");
    }
    return (int) len;
  }

  /**
   * @param s characters
   * @param out an array with room for at least {@code 3 * s.length()} bytes from {@code at}
   *     (or {@link #length} of them)
   * @param at where to start writing
   * @return the index after the last byte written
   */
  public static int encode(CharSequence s, byte[] out, int at) {
    int n = s.length();
    int j = at;
    int i = 0;
    while (i < n) {
      char c = s.charAt(i++);
      if (c < 0x80) {
        out[j++] = (byte) c;
      } else if (c < 0x800) {
        out[j++] = (byte) (0xC0 | (c >> 6));
        out[j++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        char d = i < n ? s.charAt(i) : 0;
        if (Character.isHighSurrogate(c) && i < n && Character.isLowSurrogate(d)) {
          i++;
          int cp = Character.toCodePoint(c, d);
          out[j++] = (byte) (0xF0 | (cp >> 18));
          out[j++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
          out[j++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
          out[j++] = (byte) (0x80 | (cp & 0x3F));
        } else {
          out[j++] = (byte) '?';
        }
      } else {
        out[j++] = (byte) (0xE0 | (c >> 12));
        out[j++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        out[j++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return j;
  }
}
