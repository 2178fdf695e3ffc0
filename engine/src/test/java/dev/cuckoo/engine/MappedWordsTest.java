package dev.cuckoo.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cuckoo.spi.MappedPayload;
import dev.cuckoo.spi.PayloadInput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Words read and written at their mappings' addresses: big-endian in the file, every index
 * checked, a read-only file never written, and every changed region reported at force.
 */
class MappedWordsTest {
  @TempDir
  Path dir;

  /** A payload that is a whole file, recording what it is told changed. */
  private static final class FilePayload implements MappedPayload {
    final Path path;
    final FileChannel channel;
    final boolean writable;
    final List<long[]> changes = new ArrayList<>();

    FilePayload(Path path, boolean writable) throws IOException {
      this.path = path;
      this.writable = writable;
      this.channel = writable ? FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)
          : FileChannel.open(path, StandardOpenOption.READ);
    }

    @Override public Path path() { return path; }
    @Override public boolean writable() { return writable; }
    @Override public long length() {
      try {
        return channel.size();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    @Override public MappedByteBuffer map(long at, long bytes) throws IOException {
      return channel.map(writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY, at, bytes);
    }
    @Override public PayloadInput read(long at, int bytes) { throw new UnsupportedOperationException(); }
    @Override public void write(long at, ByteBuffer bytes) { throw new UnsupportedOperationException(); }
    @Override public void changed(long at, long bytes) { changes.add(new long[] {at, bytes}); }
    @Override public void beginChange() {}
    @Override public void seal() {}
    @Override public void verifyChecksum() {}
    @Override public void close() throws IOException { channel.close(); }
  }

  @Test
  void wordsAreTheFilesBigEndianLongsAndEveryIndexIsChecked() throws IOException {
    Path file = dir.resolve("words");
    ByteBuffer content = ByteBuffer.allocate(8 + 3 * 8);
    content.putLong(8, 0x0102030405060708L).putLong(16, -2L).putLong(24, 42L);
    Files.write(file, content.array());
    FilePayload payload = new FilePayload(file, true);
    MappedWords words = MappedWords.map(payload, 8, 3);
    assertEquals(0x0102030405060708L, words.get(0));
    assertEquals(-2L, words.get(1));
    assertEquals(42L, words.get(2));
    assertThrows(IndexOutOfBoundsException.class, () -> words.get(3));
    assertThrows(IndexOutOfBoundsException.class, () -> words.get(-1));
    assertThrows(IndexOutOfBoundsException.class, () -> words.set(3, 1L));
    words.set(2, 0x1122334455667788L);
    words.force();
    assertArrayEquals(new long[] {8, 8 * 3}, payload.changes.get(0), "the one region (all three words), from where they start");
    assertEquals(1, payload.changes.size());
    words.force();
    assertEquals(1, payload.changes.size(), "nothing changed since");
    payload.close();
    assertEquals(0x1122334455667788L, ByteBuffer.wrap(Files.readAllBytes(file)).getLong(24));
  }

  @Test
  void aReadOnlyFileIsNeverWritten() throws IOException {
    Path file = dir.resolve("read-only");
    Files.write(file, new byte[64]);
    FilePayload payload = new FilePayload(file, false);
    MappedWords words = MappedWords.map(payload, 0, 8);
    assertThrows(RuntimeException.class, () -> words.set(5, 7L));
    assertEquals(0L, words.get(5));
    payload.close();
  }
}
