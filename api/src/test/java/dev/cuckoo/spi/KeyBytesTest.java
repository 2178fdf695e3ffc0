package dev.cuckoo.spi;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cuckoo.testkit.TestSeed;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The default {@code hashChars} and {@code hashLong} hash exactly the bytes of the key rule. */
class KeyBytesTest {
  /** Records what it was asked to hash. */
  private static final class Recorder implements HashStrategy {
    byte[] last;

    @Override
    public String name() {
      return "recorder";
    }

    @Override
    public long hashBytes(byte[] bytes, int offset, int length) {
      last = Arrays.copyOfRange(bytes, offset, offset + length);
      return length;
    }
  }

  @Test
  void charsAreHashedAsTheirUtf8Bytes() {
    SplittableRandom r = TestSeed.random("strings as UTF-8");
    Recorder rec = new Recorder();
    for (int i = 0; i < 20_000; i++) {
      StringBuilder sb = new StringBuilder();
      int n = r.nextInt(i % 100 == 0 ? 30_000 : 40);
      for (int j = 0; j < n; j++) {
        switch (r.nextInt(5)) {
          case 0 -> sb.append((char) r.nextInt(0x80));
          case 1 -> sb.append((char) r.nextInt(0x80, 0x800));
          case 2 -> sb.append((char) r.nextInt(0x800, 0x10000)); // includes lone surrogates
          case 3 -> sb.appendCodePoint(r.nextInt(0x10000, 0x110000));
          default -> sb.append(r.nextBoolean() ? '\uD800' : '\uDFFF');
        }
      }
      String s = sb.toString();
      byte[] expected = s.getBytes(UTF_8);
      assertEquals(expected.length, rec.hashChars(s), TestSeed.rerun());
      assertArrayEquals(expected, rec.last, TestSeed.rerun() + ", string of " + n + " chars");
      rec.hashChars(sb);
      assertArrayEquals(expected, rec.last, "a StringBuilder is the same key; " + TestSeed.rerun());
    }
  }

  @Test
  void longsAreHashedAsTheirLittleEndianBytes() {
    SplittableRandom r = TestSeed.random("longs as little-endian bytes");
    Recorder rec = new Recorder();
    for (int i = 0; i < 1_000; i++) {
      long v = r.nextLong();
      rec.hashLong(v);
      assertArrayEquals(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array(), rec.last,
          () -> "long " + v + "; " + TestSeed.rerun());
    }
  }
}
