package dev.cuckoo.spi;

import java.io.DataOutput;
import java.io.IOException;

/**
 * Where a variant writes its payload inside a filter file: a big-endian {@link DataOutput}
 * (buffered and checksummed by the file writer), handed to {@link
 * AbstractCuckooFilter#writePayload}.
 */
public interface PayloadOutput extends DataOutput {

  /**
   * Writes {@code len} longs big-endian, faster than one {@link #writeLong} at a time.
   *
   * @param src the longs
   * @param off the first index to write
   * @param len how many
   * @throws IOException if writing fails
   */
  void writeLongs(long[] src, int off, int len) throws IOException;
}
