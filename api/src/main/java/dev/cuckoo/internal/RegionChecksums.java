package dev.cuckoo.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.BitSet;
import java.util.zip.CRC32C;

/**
 * The checksum of a version 3 file being written in place, kept by region so that a seal rereads
 * only what changed.
 *
 * <p>The checksum covers the whole file, so one that reread it all would take as long as reading
 * the file (some 20 s at 10 GB) however little changed. Instead the file is cut into regions of a
 * power of two bytes, each with its CRC32C once known, and the file's is the regions' combined
 * ({@link Crc32cCombine}): {@link #checksum} rereads only the regions reported {@link #changed}
 * since, and those never read. A new file's regions past its header are zeros, whose CRC needs no
 * reading. Nothing is trusted that was not read from the file or computed from what was written
 * to it: a region damaged underneath is caught by the next {@link #verify}, which rereads all.
 *
 * <p>Regions are read through the channel, not a mapping: a page the file system cannot back (a
 * hole in a full file system, a file truncated underneath) then fails the read with an {@link
 * IOException} rather than faulting inside the JVM's CRC routine, which would crash it.
 */
final class RegionChecksums {
  /** The smallest region: a change costs at most this much rereading. */
  static final long MIN_REGION_BYTES = 1L << 16;
  /** The most regions a file is cut into, to bound the memory their CRCs take (5 MB). */
  private static final long MAX_REGIONS = 1L << 20;
  /** Bytes read at a time. */
  private static final int READ_BYTES = 1 << 20;

  /** The bytes covered: the whole file before its checksum. */
  private final long end;
  /** Where the mark is, whose bytes count as zeros. */
  private final long markOffset;
  /** Log2 of the bytes of a region. */
  private final int regionShift;
  /** Each region's CRC32C (the mark read as zeros), where {@link #known}. */
  private final int[] regionCrcs;
  private final BitSet known;
  /** Regions changed since the last checksum. */
  private final BitSet changed;
  /** Bytes read to compute checksums, for tests. */
  private long read;

  /**
   * @param end the bytes the checksum covers
   * @param markOffset where the file's mark is
   * @param zerosFrom where the file is known to hold zeros from (a new file's payload), or {@code
   *     end} if nothing is known
   */
  RegionChecksums(long end, long markOffset, long zerosFrom) {
    this.end = end;
    this.markOffset = markOffset;
    int shift = Long.numberOfTrailingZeros(MIN_REGION_BYTES);
    while ((end + (1L << shift) - 1) >>> shift > MAX_REGIONS && shift < 30) {
      shift++;
    }
    this.regionShift = shift;
    int count = Math.toIntExact(Math.max(1, (end + (1L << shift) - 1) >>> shift));
    this.regionCrcs = new int[count];
    this.known = new BitSet(count);
    this.changed = new BitSet(count);
    int firstZero = (int) ((zerosFrom + (1L << shift) - 1) >>> shift);
    int full = (int) (end >>> shift);
    if (firstZero < full) {
      int crcOfZeros = Crc32cCombine.ofZeros(1L << shift);
      for (int r = firstZero; r < full; r++) {
        regionCrcs[r] = crcOfZeros;
      }
      known.set(firstZero, full);
    }
  }

  /** Reports bytes {@code [position, position + bytes)} of the file as changed. */
  void changed(long position, long bytes) {
    if (bytes > 0) {
      changed.set((int) (position >>> regionShift), (int) ((position + bytes - 1) >>> regionShift) + 1);
    }
  }

  /**
   * @param channel the file
   * @param file the file's path, for messages
   * @return the file's checksum, rereading the regions changed since the last call and those never
   *     read; the changes are forgotten only once it returns
   * @throws IOException if reading fails
   */
  int checksum(FileChannel channel, java.nio.file.Path file) throws IOException {
    BitSet stale = (BitSet) changed.clone();
    BitSet unknown = new BitSet(regionCrcs.length);
    unknown.set(0, regionCrcs.length);
    unknown.andNot(known);
    stale.or(unknown);
    read(channel, file, stale);
    changed.clear();
    return combined();
  }

  /**
   * @param channel the file
   * @param file the file's path, for messages
   * @return the file's checksum, every region reread
   * @throws IOException if reading fails
   */
  int verify(FileChannel channel, java.nio.file.Path file) throws IOException {
    BitSet all = new BitSet(regionCrcs.length);
    all.set(0, regionCrcs.length);
    read(channel, file, all);
    return combined();
  }

  /** @return the bytes read so far to compute checksums */
  long bytesRead() {
    return read;
  }

  /** @return the CRC32C of the whole file before its checksum, from every region's */
  private int combined() {
    long regionBytes = 1L << regionShift;
    int shift = Crc32cCombine.shiftFor(regionBytes);
    int last = regionCrcs.length - 1;
    int crc = 0; // the CRC of no bytes
    for (int r = 0; r < last; r++) {
      crc = Crc32cCombine.combineShifted(crc, regionCrcs[r], shift);
    }
    return Crc32cCombine.combine(crc, regionCrcs[last], end - ((long) last << regionShift));
  }

  /** Reads the regions in {@code which} and records their CRCs. */
  private void read(FileChannel channel, java.nio.file.Path file, BitSet which) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocateDirect((int) Math.min(READ_BYTES, Math.max(1L << regionShift, 8)));
    CRC32C crc = new CRC32C();
    for (int r = which.nextSetBit(0); r >= 0; r = which.nextSetBit(r + 1)) {
      long from = (long) r << regionShift;
      long to = Math.min(end, from + (1L << regionShift));
      crc.reset();
      for (long at = from; at < to; ) {
        buffer.clear().limit((int) Math.min(buffer.capacity(), to - at));
        if (!ChannelReads.readFully(channel, buffer, at)) {
          throw new dev.cuckoo.CorruptFilterException(file + " ends at " + (at + buffer.position())
              + ", inside what its header says it holds (truncated underneath?)");
        }
        buffer.flip();
        zeroMark(buffer, at);
        crc.update(buffer);
        at += buffer.limit();
      }
      read += to - from;
      regionCrcs[r] = (int) crc.getValue();
      known.set(r);
    }
  }

  /** Reads the part of the mark inside the bytes at {@code at} as zeros. */
  private void zeroMark(ByteBuffer bytes, long at) {
    long lo = Math.max(markOffset, at);
    long hi = Math.min(markOffset + FilterFile.MARK_BYTES, at + bytes.limit());
    for (long i = lo; i < hi; i++) {
      bytes.put((int) (i - at), (byte) 0);
    }
  }
}
