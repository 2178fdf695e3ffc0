package dev.cuckoo.testkit;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A key as the filter sees it (its bytes under the key-encoding rule) together with the other
 * forms that encode to the same bytes: a {@code long} for 8-byte keys, text for valid UTF-8. The
 * model compares keys by bytes only, so two strings that encode alike are one key.
 */
public final class TestKey {
  final byte[] bytes;
  final String text; // null: no text form
  final Long number; // null: no long form
  private final int hash;

  private TestKey(byte[] bytes, String text, Long number) {
    this.bytes = bytes;
    this.text = text;
    this.number = number;
    this.hash = Arrays.hashCode(bytes);
  }

  /** @return the key that {@code add(long)} adds */
  public static TestKey ofLong(long v) {
    return new TestKey(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array(), textOf(littleEndian(v)), v);
  }

  /** @return the key that {@code add(CharSequence)} adds */
  public static TestKey ofText(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return new TestKey(b, s, b.length == 8 ? ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong() : null);
  }

  /** @return the key that {@code add(byte[])} adds */
  public static TestKey ofBytes(byte[] b) {
    byte[] copy = b.clone();
    return new TestKey(copy, textOf(copy), copy.length == 8 ? ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).getLong() : null);
  }

  /** A random key: a long, a string (any Unicode, lone surrogates too) or raw bytes. */
  public static TestKey random(SplittableRandom r) {
    switch (r.nextInt(3)) {
      case 0 -> {
        return ofLong(r.nextLong());
      }
      case 1 -> {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(24);
        for (int i = 0; i < n; i++) {
          int kind = r.nextInt(10);
          if (kind < 6) {
            sb.append((char) (' ' + r.nextInt(95)));
          } else if (kind < 8) {
            sb.append((char) (0x80 + r.nextInt(0xD000)));
          } else if (kind < 9) {
            sb.appendCodePoint(0x10000 + r.nextInt(0x100000));
          } else {
            sb.append((char) (0xD800 + r.nextInt(0x800)));
          }
        }
        return ofText(sb.toString());
      }
      default -> {
        byte[] b = new byte[r.nextInt(33)];
        for (int i = 0; i < b.length; i++) {
          b[i] = (byte) r.nextInt();
        }
        return ofBytes(b);
      }
    }
  }

  private static byte[] littleEndian(long v) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
  }

  private static String textOf(byte[] b) {
    try {
      CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b));
      return chars.toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** The forms a key can be passed in. */
  public enum Form {
    BYTES,
    STRING,
    BUILDER,
    LONG
  }

  /** @return a random form this key has */
  public Form randomForm(SplittableRandom r) {
    while (true) {
      Form f = Form.values()[r.nextInt(4)];
      if (has(f)) {
        return f;
      }
    }
  }

  /** @return whether the key can be passed in this form */
  public boolean has(Form f) {
    return switch (f) {
      case BYTES -> true;
      case STRING, BUILDER -> text != null;
      default -> number != null;
    };
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TestKey other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("key[");
    for (byte b : bytes) {
      sb.append(String.format("%02x", b));
    }
    return sb.append(']').toString();
  }
}
