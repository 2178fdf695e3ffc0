package dev.cuckoo.spi;

import dev.cuckoo.CorruptFilterException;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.IOException;

/**
 * A variant's payload inside a filter file, as a big-endian {@link DataInput} bounded to the
 * payload's declared length. Reading past that length, or past the end of the file, throws
 * {@link CorruptFilterException} (never {@link java.io.EOFException}).
 *
 * <p>A forged file can declare any sizes it likes, checksum and all, and the declared payload
 * length is itself only a claim until the bytes arrive. A variant therefore checks every size it
 * reads against {@link #requireRemaining} and reads its arrays with {@link #readLongArray} or
 * {@link #readByteArray}, which never allocate much more than the input has actually
 * delivered.
 */
public final class PayloadInput implements DataInput {
  /** Arrays up to this many bytes are allocated whole before they are read. */
  public static final int DIRECT_READ_BYTES = 64 << 20;

  private final EnvelopeReader reader;
  private final String variant;
  private final long length;
  private long remaining;

  PayloadInput(EnvelopeReader reader, String variant, long length) {
    this.reader = reader;
    this.variant = variant;
    this.length = length;
    this.remaining = length;
  }

  /** @return the bytes of the payload not read yet */
  public long remaining() {
    return remaining;
  }

  /**
   * Checks that the payload still holds at least {@code bytes} bytes, before the caller
   * allocates room for them.
   *
   * @param bytes how many bytes the caller is about to read
   * @param what what they are, for the message (e.g. {@code "a table of 4096 longs"})
   * @throws CorruptFilterException if fewer remain
   */
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

  /**
   * Reads an array of {@code length} big-endian longs, allocating no more than the input has
   * shown it holds: up to {@value #DIRECT_READ_BYTES} bytes are allocated at once (after {@link
   * #requireRemaining}); a larger array is read in parts into an array that grows as the parts
   * arrive, so a forged file that declares a huge array but ends early costs at most twice what
   * it actually held. A genuine large array costs one extra copy while it grows.
   *
   * @param length how many longs
   * @param what what they are, for the message
   * @return the array
   * @throws CorruptFilterException if the payload or the file ends first
   * @throws IOException if reading fails
   */
  public long[] readLongArray(int length, String what) throws IOException {
    return readLongArray(length, length, what);
  }

  /**
   * Reads an array of {@code length} bytes, allocating as {@link #readLongArray} does.
   *
   * @param length how many bytes
   * @param what what they are, for the message
   * @return the array
   * @throws CorruptFilterException if the payload or the file ends first
   * @throws IOException if reading fails
   */
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

  /**
   * Reads {@code len} big-endian longs into {@code dst}, faster than one {@link #readLong()} at
   * a time.
   *
   * @param dst where to store them
   * @param off the first index to fill
   * @param len how many to read
   * @throws IOException if the payload or the file ends first
   */
  public void readLongs(long[] dst, int off, int len) throws IOException {
    java.util.Objects.checkFromIndexSize(off, len, dst.length);
    consume((long) len * Long.BYTES);
    reader.readLongs(dst, off, len);
  }

  /**
   * Reads {@code count} big-endian longs into a new array of {@code length} longs, the rest
   * zero. Unlike allocating the array and calling {@link #readLongs(long[], int, int)}, it
   * allocates in step with the bytes that actually arrive: a forged file that declares a huge
   * payload but ends early makes it allocate at most twice what the file holds, plus 64 MiB,
   * before it fails with {@link CorruptFilterException}. An array of up to 2^23 longs (64 MiB)
   * is allocated at once and read in place.
   *
   * @param count how many longs to read
   * @param length the array's length, at least {@code count}
   * @param what what they are, for the message (e.g. {@code "a table of 4096 longs"})
   * @return the array
   * @throws CorruptFilterException if fewer than {@code 8 * count} payload bytes remain (checked
   *     before anything is allocated) or the file ends first
   * @throws IllegalArgumentException if {@code count < 0} or {@code length < count}
   * @throws IOException if reading fails
   */
  public long[] readLongArray(int count, int length, String what) throws IOException {
    if (count < 0 || length < count) {
      throw new IllegalArgumentException("cannot read " + count + " longs into an array of " + length);
    }
    requireRemaining((long) count * Long.BYTES, what);
    long[] a = new long[count <= DIRECT_READ_BYTES / Long.BYTES ? length : DIRECT_READ_BYTES / Long.BYTES];
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

  /**
   * Not supported: payloads are binary.
   *
   * @throws UnsupportedOperationException always
   */
  @Override
  public String readLine() {
    throw new UnsupportedOperationException("payloads are binary; use readUTF");
  }

  @Override
  public String readUTF() throws IOException {
    return DataInputStream.readUTF(this);
  }
}
