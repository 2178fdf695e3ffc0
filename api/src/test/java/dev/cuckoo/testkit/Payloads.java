package dev.cuckoo.testkit;

import dev.cuckoo.internal.EnvelopePayloadInput;
import dev.cuckoo.internal.EnvelopeReader;
import dev.cuckoo.spi.PayloadInput;
import java.io.ByteArrayInputStream;

/** Payloads for tests of a variant's or the engine's readers, without a whole filter file. */
public final class Payloads {
  private Payloads() {}

  /**
   * @param bytes the payload's bytes
   * @param declared the payload length the envelope would declare (may exceed the bytes, as in a
   *     truncated file)
   * @return the payload, as a provider's {@code read} is handed it
   */
  public static PayloadInput input(byte[] bytes, long declared) {
    EnvelopeReader reader = new EnvelopeReader(new ByteArrayInputStream(bytes));
    reader.allow(declared);
    return new EnvelopePayloadInput(reader, "test", declared);
  }
}
