package dev.cuckoo.testkit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.internal.FilterFile;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Files that are well formed, checksum and all, but whose payload lies, for a variant's tests
 * of its reader: build them field by field with {@link #file}, and check with {@link #rejected}
 * that reading fails with {@link CorruptFilterException} without allocating what they claim.
 * {@link #tablePayload} writes the payload layout that table-based variants share.
 */
public final class ForgedFiles {

  /** Writes a payload, field by field. */
  @FunctionalInterface
  public interface Fields {
    /**
     * @param out where to write
     * @throws IOException if writing fails
     */
    void write(DataOutput out) throws IOException;
  }

  private ForgedFiles() {}

  private static FilterSpec resolve(String spec) {
    FilterSpec parsed = FilterSpec.parse(spec);
    return CuckooFilters.variant(parsed.variant()).resolve(parsed);
  }

  /**
   * @param spec a config string; the variant it names must be installed
   * @param payloadLength the payload length the envelope declares
   * @param fields what the payload holds
   * @return a checksum-valid file of the resolved spec whose payload is what {@code fields} write
   * @throws IOException if writing fails
   */
  public static byte[] file(String spec, long payloadLength, Fields fields) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FilterFile.write(out, resolve(spec), payloadLength, fields::write);
    return out.toByteArray();
  }

  /**
   * A file whose envelope declares a payload of {@code payloadLength} bytes but ends after the
   * {@code head} fields and {@code zeros} zero bytes: no length check can tell before the bytes
   * run out, and no checksum is reached.
   *
   * @param spec a config string; the variant it names must be installed
   * @param payloadLength the payload length the envelope declares
   * @param head the first fields of the payload
   * @param zeros how many zero bytes follow them before the file ends
   * @return the file
   * @throws IOException if writing fails
   */
  public static byte[] truncated(String spec, long payloadLength, Fields head, int zeros) throws IOException {
    FilterSpec resolved = resolve(spec);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    byte[] specText = resolved.toString().getBytes(StandardCharsets.UTF_8);
    byte[] name = resolved.variant().getBytes(StandardCharsets.US_ASCII);
    out.writeInt(FilterFile.MAGIC);
    out.writeShort(FilterFile.UNALIGNED_VERSION);
    out.writeShort(name.length);
    out.write(name);
    out.writeInt(specText.length);
    out.write(specText);
    for (long h : FilterFile.hashCheck(dev.cuckoo.CuckooFilters.hashOf(resolved))) {
      out.writeLong(h);
    }
    out.writeLong(payloadLength);
    head.write(out);
    out.write(new byte[zeros]);
    return bytes.toByteArray();
  }

  /**
   * @param file a filter file
   * @return where its payload starts: after the header fields and the payload length
   */
  public static int payloadOffset(byte[] file) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(file);
    int version = b.getShort(4) & 0xFFFF;
    int variantLength = b.getShort(6) & 0xFFFF;
    int specLength = b.getInt(8 + variantLength);
    int check = version >= 2 ? FilterFile.HASH_CHECK_BYTES : 0;
    return 12 + variantLength + specLength + check + Long.BYTES;
  }

  /**
   * Recomputes a file's trailing CRC32C after the caller changed bytes before it, so that only
   * the fields, not the checksum, say what is wrong.
   *
   * @param file a filter file, changed in place
   */
  public static void fixChecksum(byte[] file) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(file, 0, file.length - 4);
    java.nio.ByteBuffer.wrap(file).putInt(file.length - 4, (int) crc.getValue());
  }

  /**
   * The payload layout of table-based variants ({@code classic}, {@code semi-sorted}): layout,
   * bucket count, items, table length in longs, the table, then the stash count (no entries).
   * When {@code words} lies, the table is still written in full, so the declared length holds.
   *
   * @return the fields
   */
  public static Fields tablePayload(int layout, long buckets, long size, long words, long[] table, int stashed) {
    return out -> {
      out.writeInt(layout);
      out.writeLong(buckets);
      out.writeLong(size);
      out.writeLong(words);
      for (long word : table) {
        out.writeLong(word);
      }
      out.writeInt(stashed);
    };
  }

  /**
   * Checks that a table payload declaring 2^40 buckets, items or table longs, or 2^31-1 stash
   * entries, is rejected with a message naming the declared count, before anything is allocated
   * for it ({@link #rejected}).
   *
   * @param spec a config string of a table-based variant
   * @param length the payload length of the true file, whose table is {@code table}
   * @param layout the payload layout the bucket count is true for
   * @param buckets the true bucket count
   * @param table the true table, {@code words} longs
   * @throws IOException if writing fails
   */
  public static void hugeCountsRejected(String spec, long length, int layout, long buckets, long[] table)
      throws IOException {
    long huge = 1L << 40;
    int words = table.length;
    String[] declared = {
        rejected(file(spec, length, tablePayload(layout, huge, 1, words, table, 0))).getMessage(),
        rejected(file(spec, length, tablePayload(layout, buckets, huge, words, table, 0))).getMessage(),
        rejected(file(spec, length, tablePayload(layout, buckets, 1, huge, table, 0))).getMessage()};
    for (String m : declared) {
      assertTrue(m.contains("declares " + huge) || m.contains("of " + huge), m);
    }
    String stash = rejected(file(spec, length, tablePayload(layout, buckets, 1, words, table, Integer.MAX_VALUE))).getMessage();
    assertTrue(stash.contains("declares " + Integer.MAX_VALUE + " stashed fingerprints") && stash.contains("0..8"), stash);
  }

  /**
   * Reads the file, expecting rejection, and checks that rejecting it allocated less than 8 MiB.
   *
   * @param file the file
   * @return the exception, for its message
   */
  public static CorruptFilterException rejected(byte[] file) {
    return rejected(file, 8L << 20);
  }

  /**
   * Reads the file, expecting rejection, and checks that rejecting it allocated less than
   * {@code limit} bytes: for a {@link #truncated} file, what the bytes it holds justify.
   *
   * @param file the file
   * @param limit the bytes rejecting it may allocate
   * @return the exception, for its message
   */
  public static CorruptFilterException rejected(byte[] file, long limit) {
    long before = AllocationMeter.threadAllocatedBytes();
    CorruptFilterException e =
        assertThrows(CorruptFilterException.class, () -> CuckooFilters.read(new ByteArrayInputStream(file)));
    long allocated = AllocationMeter.threadAllocatedBytes() - before;
    assertTrue(allocated < limit, allocated + " bytes allocated to reject a file of " + file.length + " bytes");
    return e;
  }
}
