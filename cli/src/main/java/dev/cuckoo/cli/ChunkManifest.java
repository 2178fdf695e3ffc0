package dev.cuckoo.cli;

import dev.cuckoo.logstore.LogStore;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The manifest {@code cuckoo store import} writes beside a file's chunks: the file's length, the
 * chunk size and the SHA-1 of every chunk in order, so that {@code export} can look each one up
 * and write the file back byte for byte.
 *
 * <pre>
 * int  magic "CKMF"      int  version 1
 * long file length       int  chunk size      int  chunks n
 * n × 20 bytes           the chunks' SHA-1 digests, in file order
 * </pre>
 *
 * <p>It is stored as one value under {@code manifest/NAME}; the value under {@link #INDEX_KEY}
 * lists the names imported, one per line, the latest last.
 */
final class ChunkManifest {
  static final int MAGIC = 0x434B4D46; // "CKMF"
  static final int VERSION = 1;
  static final int DIGEST_BYTES = 20;
  private static final int HEADER_BYTES = 4 + 4 + 8 + 4 + 4;
  /** The most chunks one manifest lists: it is one value of at most 16 MiB. */
  static final int MAX_CHUNKS = (LogStore.MAX_VALUE_BYTES - HEADER_BYTES) / DIGEST_BYTES;
  /** The key of the list of imported names. */
  static final String INDEX_KEY = "manifest";

  final long fileBytes;
  final int chunkBytes;
  private final byte[] digests;

  ChunkManifest(long fileBytes, int chunkBytes, byte[] digests) {
    this.fileBytes = fileBytes;
    this.chunkBytes = chunkBytes;
    this.digests = digests;
  }

  /** @return the key of a name's manifest */
  static byte[] key(String name) {
    return ("manifest/" + name).getBytes(StandardCharsets.UTF_8);
  }

  /** @return the chunks a file of this length has at this chunk size */
  static long chunksOf(long fileBytes, int chunkBytes) {
    return (fileBytes + chunkBytes - 1) / chunkBytes;
  }

  int chunks() {
    return digests.length / DIGEST_BYTES;
  }

  /** @return the i-th chunk's digest, its key in the store */
  byte[] digest(int i) {
    return Arrays.copyOfRange(digests, i * DIGEST_BYTES, (i + 1) * DIGEST_BYTES);
  }

  /** @return the i-th chunk's length */
  int chunkLength(int i) {
    return (int) Math.min(chunkBytes, fileBytes - (long) i * chunkBytes);
  }

  byte[] toBytes() {
    return ByteBuffer.allocate(HEADER_BYTES + digests.length)
        .putInt(MAGIC).putInt(VERSION).putLong(fileBytes).putInt(chunkBytes).putInt(chunks())
        .put(digests).array();
  }

  /**
   * @param bytes a stored manifest
   * @param name its name, for the error
   * @return the manifest
   * @throws CommandError if the bytes are not a manifest, or one that does not add up
   */
  static ChunkManifest parse(byte[] bytes, String name) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    if (bytes.length < HEADER_BYTES || b.getInt() != MAGIC || b.getInt() != VERSION) {
      throw new CommandError("the manifest of " + name + " is not a cuckoo store manifest (version 1)");
    }
    long fileBytes = b.getLong();
    int chunkBytes = b.getInt();
    int chunks = b.getInt();
    if (fileBytes < 0 || chunkBytes <= 0 || chunks < 0 || chunks != chunksOf(fileBytes, chunkBytes)
        || b.remaining() != (long) chunks * DIGEST_BYTES) {
      throw new CommandError("the manifest of " + name + " is damaged: " + chunks + " chunks of "
          + chunkBytes + " bytes do not make a file of " + fileBytes + " bytes in " + bytes.length + " bytes");
    }
    byte[] digests = new byte[b.remaining()];
    b.get(digests);
    return new ChunkManifest(fileBytes, chunkBytes, digests);
  }
}
