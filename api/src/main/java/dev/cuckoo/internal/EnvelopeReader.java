package dev.cuckoo.internal;

import dev.cuckoo.CorruptFilterException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Reads a filter file: buffered, checksummed as it goes, and never pulling a byte from the
 * stream beyond what the fields read so far declare, so a file can be followed by other data in
 * the same stream. A file that ends early is a {@link CorruptFilterException} naming where.
 */
public final class EnvelopeReader {
  private final InputStream in;
  private final CRC32C crc = new CRC32C();
  private final byte[] buf;
  /*
   * Longs are read through a big-endian view of the buffer, which compiles to the same load as a
   * byte-array VarHandle, not through one: the JDK builds a VarHandle's classes at run time, and
   * this reader is the first thing CuckooFilters.open runs.
   */
  private final ByteBuffer view;
  private int pos;
  private int lim;
  private long pullable;
  private long consumed;
  private String section = "header";

  /** @param in the stream the file is read from */
  public EnvelopeReader(InputStream in) {
    this(in, 1 << 16);
  }

  /**
   * @param in the stream the file is read from
   * @param bufferBytes the most read from the stream at once, at least 8: 64 KiB for a whole
   *     file, less for a header or a page, which the reader then does not allocate for
   */
  EnvelopeReader(InputStream in, int bufferBytes) {
    this.in = in;
    this.buf = new byte[bufferBytes];
    this.view = ByteBuffer.wrap(buf);
  }

  /**
   * Declares that {@code n} more bytes belong to the file.
   *
   * @param n how many
   */
  public void allow(long n) {
    pullable = n > Long.MAX_VALUE - pullable ? Long.MAX_VALUE : pullable + n;
  }

  /**
   * @param n a number of bytes
   * @return whether the stream has at least {@code n} more bytes ready, counting those already
   *     buffered: {@link InputStream#available} of a file's stream is what is left of the file,
   *     and of a byte array's, what is left of the array; a stream that cannot tell says fewer.
   *     A file's stream says {@link Integer#MAX_VALUE} for 2 GiB and more: only a file has that
   *     much ready, so it is taken at its word for a table larger than it can say
   */
  boolean atHand(long n) throws IOException {
    if (lim - pos >= n) {
      return true;
    }
    int available = in.available();
    return available == Integer.MAX_VALUE || (long) (lim - pos) + available >= n;
  }

  void section(String name) {
    section = name;
  }

  long consumed() {
    return consumed;
  }

  int checksum() {
    return (int) crc.getValue();
  }

  private void need(int n) throws IOException {
    if (lim - pos >= n) {
      return;
    }
    if (pos > 0) {
      System.arraycopy(buf, pos, buf, 0, lim - pos);
      lim -= pos;
      pos = 0;
    }
    while (lim < n) {
      int want = (int) Math.min(buf.length - lim, pullable);
      if (want <= 0) {
        throw new IllegalStateException("reader asked for bytes beyond the declared file length");
      }
      int r = in.read(buf, lim, want);
      if (r < 0) {
        throw new CorruptFilterException(
            "filter file is truncated: it ends after " + (consumed + lim - pos) + " bytes, inside the "
                + section);
      }
      lim += r;
      pullable -= r;
    }
  }

  private void take(int n) {
    crc.update(buf, pos, n);
    pos += n;
    consumed += n;
  }

  int readUnsignedByte() throws IOException {
    need(1);
    int v = buf[pos] & 0xFF;
    take(1);
    return v;
  }

  int readUnsignedShort() throws IOException {
    need(2);
    int v = ((buf[pos] & 0xFF) << 8) | (buf[pos + 1] & 0xFF);
    take(2);
    return v;
  }

  int readInt() throws IOException {
    need(4);
    int v = peekInt();
    take(4);
    return v;
  }

  private int peekInt() {
    return ((buf[pos] & 0xFF) << 24) | ((buf[pos + 1] & 0xFF) << 16) | ((buf[pos + 2] & 0xFF) << 8)
        | (buf[pos + 3] & 0xFF);
  }

  long readLong() throws IOException {
    need(8);
    long v = view.getLong(pos);
    take(8);
    return v;
  }

  /** Reads the trailing checksum, which is not part of what it covers. */
  int readChecksum() throws IOException {
    need(4);
    int v = peekInt();
    pos += 4;
    consumed += 4;
    return v;
  }

  void readFully(byte[] dst, int off, int len) throws IOException {
    while (len > 0) {
      int n = Math.min(len, buf.length);
      need(n);
      System.arraycopy(buf, pos, dst, off, n);
      take(n);
      off += n;
      len -= n;
    }
  }

  void readLongs(long[] dst, int off, int len) throws IOException {
    while (len > 0) {
      int n = Math.min(len, buf.length / Long.BYTES);
      need(n * Long.BYTES);
      for (int i = 0; i < n; i++) {
        dst[off + i] = view.getLong(pos + i * Long.BYTES);
      }
      take(n * Long.BYTES);
      off += n;
      len -= n;
    }
  }

  /**
   * Reads {@code n} bytes that must be zero.
   *
   * @throws CorruptFilterException if one is not
   */
  void requireZeros(long n) throws IOException {
    while (n > 0) {
      int k = (int) Math.min(n, buf.length);
      need(k);
      for (int i = 0; i < k; i++) {
        if (buf[pos + i] != 0) {
          throw new CorruptFilterException("filter file has a non-zero byte at offset " + (consumed + i)
              + ", in the " + section);
        }
      }
      take(k);
      n -= k;
    }
  }

  void skip(long n) throws IOException {
    while (n > 0) {
      int k = (int) Math.min(n, buf.length);
      need(k);
      take(k);
      n -= k;
    }
  }
}
