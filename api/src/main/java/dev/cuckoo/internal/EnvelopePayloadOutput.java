package dev.cuckoo.internal;

import dev.cuckoo.spi.PayloadOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The writer of a filter file: buffers and checksums every byte, the envelope's and the
 * payload's, and is the {@link PayloadOutput} a variant writes its payload to.
 *
 * <p>It is an {@link OutputStream} too, so that what {@code OutputStream} already does for any
 * stream (a whole array written as a range, {@link DataOutputStream#writeUTF}'s encoding) it does
 * here, and only the buffering and the big-endian numbers are written out below.
 */
public final class EnvelopePayloadOutput extends OutputStream implements PayloadOutput {
  private static final VarHandle LONG_BE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final OutputStream out;
  private final CRC32C crc = new CRC32C();
  private final byte[] buf = new byte[1 << 16];
  private int pos;
  private long written;

  EnvelopePayloadOutput(OutputStream out) {
    this.out = out;
  }

  /** @return the bytes written so far, header included */
  long written() {
    return written + pos;
  }

  int checksum() throws IOException {
    drain();
    return (int) crc.getValue();
  }

  /** Writes the trailing checksum (not covered by itself) and flushes. */
  void finish(int checksum) throws IOException {
    drain();
    byte[] b = {(byte) (checksum >>> 24), (byte) (checksum >>> 16), (byte) (checksum >>> 8), (byte) checksum};
    out.write(b);
    out.flush();
  }

  private void drain() throws IOException {
    if (pos > 0) {
      crc.update(buf, 0, pos);
      out.write(buf, 0, pos);
      written += pos;
      pos = 0;
    }
  }

  private void room(int n) throws IOException {
    if (buf.length - pos < n) {
      drain();
    }
  }

  @Override
  public void writeLongs(long[] src, int off, int len) throws IOException {
    java.util.Objects.checkFromIndexSize(off, len, src.length);
    while (len > 0) {
      room(Long.BYTES);
      int n = Math.min(len, (buf.length - pos) / Long.BYTES);
      for (int i = 0; i < n; i++) {
        LONG_BE.set(buf, pos + i * Long.BYTES, src[off + i]);
      }
      pos += n * Long.BYTES;
      off += n;
      len -= n;
    }
  }

  @Override
  public void write(int b) throws IOException {
    room(1);
    buf[pos++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    java.util.Objects.checkFromIndexSize(off, len, b.length);
    while (len > 0) {
      room(1);
      int n = Math.min(len, buf.length - pos);
      System.arraycopy(b, off, buf, pos, n);
      pos += n;
      off += n;
      len -= n;
    }
  }

  @Override
  public void writeBoolean(boolean v) throws IOException {
    write(v ? 1 : 0);
  }

  @Override
  public void writeByte(int v) throws IOException {
    write(v);
  }

  @Override
  public void writeShort(int v) throws IOException {
    put(v, Short.BYTES);
  }

  @Override
  public void writeInt(int v) throws IOException {
    put(v, Integer.BYTES);
  }

  @Override
  public void writeChar(int v) throws IOException {
    writeShort(v);
  }

  @Override
  public void writeLong(long v) throws IOException {
    room(8);
    LONG_BE.set(buf, pos, v);
    pos += 8;
  }

  /** Writes the low {@code bytes} bytes of {@code v}, big-endian, as {@link java.io.DataOutput} does. */
  private void put(int v, int bytes) throws IOException {
    room(bytes);
    for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) {
      buf[pos++] = (byte) (v >>> shift);
    }
  }

  @Override
  public void writeFloat(float v) throws IOException {
    writeInt(Float.floatToIntBits(v));
  }

  @Override
  public void writeDouble(double v) throws IOException {
    writeLong(Double.doubleToLongBits(v));
  }

  @Override
  public void writeBytes(String s) throws IOException {
    for (int i = 0; i < s.length(); i++) {
      write(s.charAt(i));
    }
  }

  @Override
  public void writeChars(String s) throws IOException {
    for (int i = 0; i < s.length(); i++) {
      writeChar(s.charAt(i));
    }
  }

  @Override
  public void writeUTF(String s) throws IOException {
    new DataOutputStream(this).writeUTF(s);
  }
}
