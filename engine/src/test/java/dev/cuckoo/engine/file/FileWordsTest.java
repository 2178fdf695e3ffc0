package dev.cuckoo.engine.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cuckoo.engine.TableWords;
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
 * Words read and written at their mappings' addresses: big-endian in the file, a read-only file
 * never written, every changed region reported at force, and a table of more than one segment
 * read and written across the segments' edge, whether they lie next to one another or not.
 */
class FileWordsTest {
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
  void wordsAreTheFilesBigEndianLongs() throws IOException {
    Path file = dir.resolve("words");
    ByteBuffer content = ByteBuffer.allocate(8 + 3 * 8);
    content.putLong(8, 0x0102030405060708L).putLong(16, -2L).putLong(24, 42L);
    Files.write(file, content.array());
    FilePayload payload = new FilePayload(file, true);
    TableWords words = FileWords.map(payload, 8, 3, null);
    assertEquals(0x0102030405060708L, words.get(0));
    assertEquals(-2L, words.get(1));
    assertEquals(42L, words.get(2));
    assertEquals(0L, words.window(2 * 64 + 8) >>> 56, "zeros past the last word");
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
    TableWords words = FileWords.map(payload, 0, 8, null);
    assertThrows(RuntimeException.class, () -> words.set(5, 7L));
    assertEquals(0L, words.get(5));
    payload.close();
  }

  @Test
  void wordsOfMoreThanOneSegmentAreReadAndWrittenAcrossTheEdge() throws IOException {
    long length = (1L << FileWords.SEGMENT_SHIFT) + 3;
    Path file = dir.resolve("two-segments");
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      channel.write(ByteBuffer.allocate(1), length * Long.BYTES - 1); // sparse: two pages are ever written
    }
    long edge = 1L << FileWords.SEGMENT_SHIFT;
    for (boolean runs : new boolean[] {true, false}) {
      FilePayload payload = new FilePayload(file, true);
      TableWords words = FileWords.map(payload, 0, length, runs);
      if (!runs) {
        assertEquals(SegmentedWords.class, words.getClass());
      }
      long value = runs ? 0xABCDE12345L : 0x1234567890L;
      words.write(edge * 64 - 20, value, (1L << 40) - 1); // 20 bits before the edge, 20 after
      assertEquals(value, words.window(edge * 64 - 20) & ((1L << 40) - 1), "runs=" + runs);
      words.set(length - 1, runs ? 7L : 9L);
      words.force();
      payload.close();
      ByteBuffer last = ByteBuffer.allocate(16);
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
        channel.read(last, (edge - 1) * Long.BYTES);
        assertEquals((value & 0xFFFFF) << 44, last.getLong(0), "the word before the edge");
        assertEquals(value >>> 20, last.getLong(8), "the word after it");
        ByteBuffer end = ByteBuffer.allocate(8);
        channel.read(end, (length - 1) * Long.BYTES);
        assertEquals(runs ? 7L : 9L, end.getLong(0));
      }
    }
  }
}
