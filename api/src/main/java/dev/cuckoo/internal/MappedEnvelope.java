package dev.cuckoo.internal;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.spi.MappedPayload;
import dev.cuckoo.spi.PayloadInput;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The payload of a version 3 filter file opened for mapping ({@link FilterFile#open}), and the
 * envelope's part of keeping it consistent: the state field and the trailing checksum.
 */
final class MappedEnvelope implements MappedPayload {
  /** Bytes checksummed per mapping: a file of any length is read in pieces a buffer can hold. */
  private static final long CHECKSUM_CHUNK = 1L << 30;

  private final Path path;
  private final FileChannel channel;
  private final boolean writable;
  private final long payloadOffset;
  private final long payloadLength;
  private final long stateOffset;

  MappedEnvelope(Path path, FileChannel channel, boolean writable, long payloadOffset, long payloadLength,
      long stateOffset) {
    this.path = path;
    this.channel = channel;
    this.writable = writable;
    this.payloadOffset = payloadOffset;
    this.payloadLength = payloadLength;
    this.stateOffset = stateOffset;
  }

  @Override
  public Path path() {
    return path;
  }

  @Override
  public boolean writable() {
    return writable;
  }

  @Override
  public long length() {
    return payloadLength;
  }

  private void requireInside(long at, long bytes) {
    if (at < 0 || bytes < 0 || bytes > payloadLength - at) {
      throw new IllegalArgumentException(
          "bytes [" + at + ", " + at + " + " + bytes + ") are not inside a payload of " + payloadLength);
    }
  }

  @Override
  public MappedByteBuffer map(long at, long bytes) throws IOException {
    requireInside(at, bytes);
    return channel.map(writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY,
        payloadOffset + at, bytes);
  }

  @Override
  public PayloadInput read(long at, int bytes) throws IOException {
    requireInside(at, bytes);
    ByteBuffer buffer = ByteBuffer.allocate(bytes);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, payloadOffset + at + buffer.position()) < 0) {
        throw new CorruptFilterException(path + " ends inside its payload");
      }
    }
    EnvelopeReader reader = new EnvelopeReader(new ByteArrayInputStream(buffer.array()));
    reader.allow(bytes);
    return new EnvelopePayloadInput(reader, path.toString(), bytes);
  }

  @Override
  public void write(long at, ByteBuffer bytes) throws IOException {
    requireInside(at, bytes.remaining());
    long position = payloadOffset + at;
    while (bytes.hasRemaining()) {
      position += channel.write(bytes, position);
    }
  }

  @Override
  public void beginChange() throws IOException {
    writeState(FilterFile.DIRTY);
    channel.force(false);
  }

  @Override
  public void seal() throws IOException {
    channel.force(false);
    ByteBuffer crc = ByteBuffer.allocate(4).putInt(0, checksum());
    channel.write(crc, payloadOffset + payloadLength);
    channel.force(false);
    writeState(FilterFile.CLEAN);
    channel.force(false);
  }

  @Override
  public void verifyChecksum() throws IOException {
    ByteBuffer stored = ByteBuffer.allocate(4);
    channel.read(stored, payloadOffset + payloadLength);
    int computed = checksum();
    if (stored.getInt(0) != computed) {
      throw new CorruptFilterException(String.format(
          "%s is damaged: checksum mismatch, stored CRC32C 0x%08X, computed 0x%08X", path, stored.getInt(0), computed));
    }
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  private void writeState(int state) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(4).putInt(0, state);
    channel.write(b, stateOffset);
  }

  /** @return the CRC32C of the file before its checksum, with the state read as clean */
  private int checksum() throws IOException {
    CRC32C crc = new CRC32C();
    long end = payloadOffset + payloadLength;
    for (long at = 0; at < end; at += CHECKSUM_CHUNK) {
      long n = Math.min(CHECKSUM_CHUNK, end - at);
      MappedByteBuffer chunk = channel.map(FileChannel.MapMode.READ_ONLY, at, n);
      if (at <= stateOffset && stateOffset < at + n) {
        int state = (int) (stateOffset - at);
        crc.update(chunk.slice(0, state));
        crc.update(new byte[4]);
        crc.update(chunk.slice(state + 4, (int) n - state - 4));
      } else {
        crc.update(chunk);
      }
    }
    return (int) crc.getValue();
  }
}
