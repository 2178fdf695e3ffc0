package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The table of versions in the file-format guide ("Versions"), read off the bytes: the envelope
 * version at offset 4 and a table payload's layout in its first 4 bytes, for new filters and for
 * 0.1.0's files (under {@code files-0.1.0}) written again.
 */
class FileVersionsTest {

  @Test
  void newFilesAreEnvelope3ForTableVariantsWithTheLayoutsTheGuideNames() throws IOException {
    assertVersions(write(CuckooFilters.create("classic?capacity=3000&fingerprintBits=16&bucketSize=4")), 3, 3, 2);
    assertVersions(write(CuckooFilters.create("classic?capacity=2000&fingerprintBits=7&bucketSize=2")), 3, 3, 2);
    assertVersions(write(CuckooFilters.create("semi-sorted?capacity=3000&fingerprintBits=13")), 3, 3, 2);
    assertVersions(write(CuckooFilters.create("expandable?capacity=4096")), 2, 1, 0);
  }

  @Test
  void filesOf0_1_0AreEnvelope1Layout1AndKeepTheirSizingWhereItChanged() throws IOException {
    // Buckets of 4: 0.1.0's table is not layout 2's size, so its sizing field says 1.
    assertVersions(old("classic-16"), 1, 1, 0);
    assertVersions(write(CuckooFilters.read(new ByteArrayInputStream(old("classic-16")))), 3, 3, 1);
    assertVersions(write(CuckooFilters.read(new ByteArrayInputStream(old("semi-sorted-13")))), 3, 3, 1);
    // Buckets of 2: both sizings give the same table, and the current one is named.
    assertVersions(old("classic-7-b2-murmur3"), 1, 1, 0);
    assertVersions(write(CuckooFilters.read(new ByteArrayInputStream(old("classic-7-b2-murmur3")))), 3, 3, 2);
  }

  private static byte[] write(CuckooFilter f) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return out.toByteArray();
  }

  private static byte[] old(String name) throws IOException {
    try (InputStream in = FileVersionsTest.class.getResourceAsStream("files-0.1.0/" + name + ".cuckoo")) {
      return in.readAllBytes();
    }
  }

  /**
   * Checks the envelope version, the int that starts the payload and, in layout 3, the sizing
   * int after it, against the guide's layout.
   */
  private static void assertVersions(byte[] file, int envelope, int payloadLayout, int sizing) {
    ByteBuffer b = ByteBuffer.wrap(file); // big-endian, as the envelope
    int version = b.getShort(4);
    assertEquals(envelope, version, "envelope version");
    int variantLength = b.getShort(6);
    int specLength = b.getInt(8 + variantLength);
    int lengthField = 12 + variantLength + specLength + (version >= 2 ? 32 : 0);
    int payload = version >= 3 ? (int) b.getLong(lengthField + 8) : lengthField + 8;
    String variant = new String(file, 8, variantLength, StandardCharsets.US_ASCII);
    assertEquals(payloadLayout, b.getInt(payload), variant + " payload layout");
    if (payloadLayout == 3) {
      assertEquals(0, payload % 4096, "an aligned payload");
      assertEquals(sizing, b.getInt(payload + 4), variant + " sizing");
    }
  }
}
