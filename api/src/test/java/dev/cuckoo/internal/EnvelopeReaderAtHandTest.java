package dev.cuckoo.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/**
 * When the reader lets a table be allocated whole before its bytes arrive: only when its stream
 * says they are there. A file's stream (sun.nio.ch.ChannelInputStream) says {@code
 * Integer.MAX_VALUE} for 2 GiB and more, which only a file has ready.
 */
class EnvelopeReaderAtHandTest {

  /** A stream that says it has {@code available} bytes ready and has none. */
  private static InputStream saying(int available) {
    return new InputStream() {
      @Override
      public int read() {
        return -1;
      }

      @Override
      public int available() {
        return available;
      }
    };
  }

  @Test
  void anArraysBytesAreAtHandUpToItsLength() throws IOException {
    EnvelopeReader r = new EnvelopeReader(new ByteArrayInputStream(new byte[1000]));
    assertTrue(r.atHand(1000));
    assertFalse(r.atHand(1001));
  }

  @Test
  void aStreamThatCannotTellHasNothingAtHand() throws IOException {
    assertFalse(new EnvelopeReader(saying(0)).atHand(1));
    assertFalse(new EnvelopeReader(saying(1 << 20)).atHand((1 << 20) + 1));
  }

  @Test
  void aFileOfTwoGibibytesAndMoreIsTakenAtItsWord() throws IOException {
    assertTrue(new EnvelopeReader(saying(Integer.MAX_VALUE)).atHand(5L << 30));
  }
}
