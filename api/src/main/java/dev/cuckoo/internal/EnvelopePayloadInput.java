package dev.cuckoo.internal;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.spi.PayloadInput;
import java.io.DataInputStream;
import java.io.IOException;

/**
 * The {@link PayloadInput} of a filter file being read: the payload's bytes from the {@link
 * EnvelopeReader}, bounded to the declared length, big-endian.
 */
public final class EnvelopePayloadInput implements PayloadInput {
  private final EnvelopeReader reader;
  private final String variant;
  private final long length;
  private long remaining;

  /**
   * @param reader the file's reader, positioned at the payload
   * @param variant the variant's name, for messages
   * @param length the payload's declared length
   */
  public EnvelopePayloadInput(EnvelopeReader reader, String variant, long length) {
    this.reader = reader;
    this.variant = variant;
    this.length = length;
    this.remaining = length;
  }

  @Override
  public long remaining() {
    return remaining;
  }

  @Override
  public void requireRemaining(long bytes, String what) throws CorruptFilterException {
    if (bytes < 0 || bytes > remaining) {
      throw new CorruptFilterException(
          "payload of variant " + variant + " declares " + what + " (" + bytes + " bytes), but only "
              + remaining + " of its " + length + " bytes remain");
    }
  }

  private void consume(long bytes) throws CorruptFilterException {
    if (bytes > remaining) {
      throw new CorruptFilterException(
          "payload of variant " + variant + " ends early: " + length
              + " bytes declared, its contents need more");
    }
    remaining -= bytes;
  }

  @Override
  public byte[] readByteArray(int length, String what) throws IOException {
    requireRemaining(length, what);
    byte[] a = new byte[Math.min(length, DIRECT_READ_BYTES)];
    readFully(a, 0, a.length);
    while (a.length < length) {
      int filled = a.length;
      a = java.util.Arrays.copyOf(a, (int) Math.min(length, 2L * filled));
      readFully(a, filled, a.length - filled);
    }
    return a;
  }

  @Override
  public void readLongs(long[] dst, int off, int len) throws IOException {
    java.util.Objects.checkFromIndexSize(off, len, dst.length);
    consume((long) len * Long.BYTES);
    reader.readLongs(dst, off, len);
  }

  /** {@inheritDoc} Within the declared payload, and ready in the stream the file is read from. */
  @Override
  public boolean atHand(long bytes) throws IOException {
    return bytes >= 0 && bytes <= remaining && reader.atHand(bytes);
  }

  @Override
  public long[] readLongArray(int count, int length, String what) throws IOException {
    if (count < 0 || length < count) {
      throw new IllegalArgumentException("cannot read " + count + " longs into an array of " + length);
    }
    requireRemaining((long) count * Long.BYTES, what);
    boolean atOnce = count <= DIRECT_READ_BYTES / Long.BYTES || atHand((long) count * Long.BYTES);
    long[] a = new long[atOnce ? length : DIRECT_READ_BYTES / Long.BYTES];
    int filled = 0;
    while (filled < count) {
      if (filled == a.length) {
        a = java.util.Arrays.copyOf(a, (int) Math.min(length, 2L * a.length));
      }
      int n = Math.min(count - filled, a.length - filled);
      readLongs(a, filled, n);
      filled += n;
    }
    return a.length == length ? a : java.util.Arrays.copyOf(a, length);
  }

  @Override
  public void readFully(byte[] b) throws IOException {
    readFully(b, 0, b.length);
  }

  @Override
  public void readFully(byte[] b, int off, int len) throws IOException {
    java.util.Objects.checkFromIndexSize(off, len, b.length);
    consume(len);
    reader.readFully(b, off, len);
  }

  @Override
  public int skipBytes(int n) throws IOException {
    int k = (int) Math.max(0, Math.min(n, remaining));
    consume(k);
    reader.skip(k);
    return k;
  }

  @Override
  public boolean readBoolean() throws IOException {
    return readUnsignedByte() != 0;
  }

  @Override
  public byte readByte() throws IOException {
    return (byte) readUnsignedByte();
  }

  @Override
  public int readUnsignedByte() throws IOException {
    consume(1);
    return reader.readUnsignedByte();
  }

  @Override
  public short readShort() throws IOException {
    return (short) readUnsignedShort();
  }

  @Override
  public int readUnsignedShort() throws IOException {
    consume(2);
    return reader.readUnsignedShort();
  }

  @Override
  public char readChar() throws IOException {
    return (char) readUnsignedShort();
  }

  @Override
  public int readInt() throws IOException {
    consume(4);
    return reader.readInt();
  }

  @Override
  public long readLong() throws IOException {
    consume(8);
    return reader.readLong();
  }

  @Override
  public float readFloat() throws IOException {
    return Float.intBitsToFloat(readInt());
  }

  @Override
  public double readDouble() throws IOException {
    return Double.longBitsToDouble(readLong());
  }

  @Override
  public String readLine() {
    throw new UnsupportedOperationException("payloads are binary; use readUTF");
  }

  @Override
  public String readUTF() throws IOException {
    return DataInputStream.readUTF(this);
  }
}
