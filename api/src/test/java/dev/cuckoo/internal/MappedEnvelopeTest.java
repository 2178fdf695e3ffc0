package dev.cuckoo.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.testkit.TestSeed;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trailing checksum that {@link MappedEnvelope#seal} writes is the whole file's CRC32C (the
 * mark read as zeros), and a seal after a small change rereads only the regions that changed.
 */
class MappedEnvelopeTest {
  private static final int PAYLOAD_OFFSET = 4096;
  private static final long PAYLOAD = 8L << 20;
  private static final int MARK_OFFSET = PAYLOAD_OFFSET - FilterFile.MARK_BYTES;

  @TempDir
  Path dir;

  /** @return the CRC32C of the file before its checksum, with the mark as zeros */
  private static int fileCrc(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    int end = bytes.length - 4;
    java.util.Arrays.fill(bytes, MARK_OFFSET, MARK_OFFSET + FilterFile.MARK_BYTES, (byte) 0);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, end);
    return (int) crc.getValue();
  }

  private static int storedCrc(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    return ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt();
  }

  private MappedEnvelope envelope(Path file, boolean zeros) throws IOException {
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FilterFile.Header header = new FilterFile.Header(FilterFile.FORMAT_VERSION, "x", "x", null, PAYLOAD, PAYLOAD_OFFSET,
        false, new byte[BootId.BYTES]);
    return new MappedEnvelope(file, channel, dev.cuckoo.internal.io.FileWrites.system(), true, header, false, zeros);
  }

  @Test
  void aSealAfterAFewChangesRereadsOnlyTheirRegions() throws IOException {
    SplittableRandom r = TestSeed.random("mapped envelope seal");
    Path file = dir.resolve("random.cuckoo");
    byte[] content = new byte[(int) (PAYLOAD_OFFSET + PAYLOAD + 4)];
    r.nextBytes(content);
    Files.write(file, content);
    MappedEnvelope e = envelope(file, false);
    e.beginChange();
    e.seal();
    assertEquals(fileCrc(file), storedCrc(file), "first seal; " + TestSeed.rerun());
    MappedByteBuffer table = e.map(0, PAYLOAD);
    for (int round = 0; round < 20; round++) {
      long before = e.checksummedBytes();
      e.beginChange();
      int changes = r.nextInt(1, 4);
      for (int i = 0; i < changes; i++) {
        int at = r.nextInt(0, (int) PAYLOAD - 8);
        table.putLong(at, r.nextLong());
        e.changed(at, 8);
      }
      if (r.nextBoolean()) {
        e.write(r.nextLong(0, PAYLOAD - 16), ByteBuffer.wrap(new byte[16]));
        changes++;
      }
      table.force();
      e.seal();
      assertEquals(fileCrc(file), storedCrc(file), "seal after round " + round + "; " + TestSeed.rerun());
      long reread = e.checksummedBytes() - before;
      assertTrue(reread <= 2L * changes * RegionChecksums.MIN_REGION_BYTES,
          reread + " bytes reread for " + changes + " changes; " + TestSeed.rerun());
    }
    e.verifyChecksum();
    e.close();
  }

  @Test
  void aNewFileOfZerosIsSealedReadingOnlyItsHeaderAndWhatChanged() throws IOException {
    Path file = dir.resolve("new.cuckoo");
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      c.write(ByteBuffer.wrap("a header".getBytes(java.nio.charset.StandardCharsets.US_ASCII)), 0);
      c.write(ByteBuffer.allocate(1), PAYLOAD_OFFSET + PAYLOAD + 3);
    }
    MappedEnvelope e = envelope(file, true);
    e.write(0, ByteBuffer.wrap(new byte[] {1, 2, 3}));
    MappedByteBuffer table = e.map(0, PAYLOAD);
    table.putLong((int) PAYLOAD - 8, -1L);
    e.changed(PAYLOAD - 8, 8);
    table.force();
    e.seal();
    assertEquals(fileCrc(file), storedCrc(file));
    assertTrue(e.checksummedBytes() <= 3L * RegionChecksums.MIN_REGION_BYTES, e.checksummedBytes() + " bytes read");
    e.verifyChecksum();
    e.close();
  }

  @Test
  void aChangeNotReportedIsCaughtByVerify() throws IOException {
    Path file = dir.resolve("unreported.cuckoo");
    byte[] content = new byte[(int) (PAYLOAD_OFFSET + PAYLOAD + 4)];
    Files.write(file, content);
    MappedEnvelope e = envelope(file, false);
    e.beginChange();
    e.seal();
    e.map(0, PAYLOAD).putLong(1 << 20, 42L);
    assertThrows(CorruptFilterException.class, e::verifyChecksum);
    e.close();
  }
}
