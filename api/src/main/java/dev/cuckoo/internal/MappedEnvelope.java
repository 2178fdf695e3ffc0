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
 * The payload of a version 3 filter file opened for mapping ({@link MappedFiles#open}), and the
 * envelope's part of keeping it consistent: the state field and the trailing checksum.
 *
 * <p>The checksum covers the whole file, so a {@link #seal} that reread it all would take as long
 * as reading the file (some 20 s at 10 GB) however little changed. Instead the file is cut into
 * regions of a power of two bytes, each with its CRC32C once known, and the file's is the regions'
 * combined ({@link Crc32cCombine}): a seal rereads only the regions reported {@link #changed} (or
 * written through {@link #write}) since the last, and those never read yet. A new file's regions
 * past its header are zeros, whose CRC needs no reading; a file opened for writing learns its
 * regions' CRCs at its first seal (one pass, as before) or {@link #verifyChecksum}. Nothing is
 * trusted that was not read from this file or computed from what was written to it: a region
 * damaged underneath is caught by the next {@code verifyChecksum}, which rereads everything.
 */
final class MappedEnvelope implements MappedPayload {
  /** Bytes mapped at a time to compute checksums: a file of any length is read in pieces a buffer can hold. */
  private static final long CHECKSUM_CHUNK = 1L << 30;
  /** The smallest region: a change costs at most this much rereading. */
  static final long MIN_REGION_BYTES = 1L << 16;
  /** The most regions a file is cut into, to bound the memory their CRCs take (5 MB). */
  private static final long MAX_REGIONS = 1L << 20;

  private final Path path;
  private final FileChannel channel;
  private final boolean writable;
  private final long payloadOffset;
  private final long payloadLength;
  private final long stateOffset;
  /** Whether the file was just created: zeros after its first {@code payloadOffset} bytes. */
  private final boolean zeros;
  /** Whether the file was marked as being changed when opened, for the variant to recover. */
  private boolean wasBeingChanged;
  /** Log2 of the bytes of a region. */
  private int regionShift;
  /** Each region's CRC32C (the state field read as clean), where {@link #known}; null until needed. */
  private int[] regionCrcs;
  private java.util.BitSet known;
  /** Regions changed since the last seal. */
  private java.util.BitSet changed;
  /** Bytes read to compute checksums, for tests. */
  private long checksummed;

  MappedEnvelope(Path path, FileChannel channel, boolean writable, long payloadOffset, long payloadLength,
      long stateOffset, boolean zeros) {
    this.path = path;
    this.channel = channel;
    this.writable = writable;
    this.payloadOffset = payloadOffset;
    this.payloadLength = payloadLength;
    this.stateOffset = stateOffset;
    this.zeros = zeros;
  }

  /** Opened to recover a file its writer left marked as being changed: see {@link #wasBeingChanged}. */
  void toRecover() {
    wasBeingChanged = true;
  }

  @Override
  public boolean wasBeingChanged() {
    return wasBeingChanged;
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
  public MappedByteBuffer mapPrivate(long at, long bytes) throws IOException {
    requireInside(at, bytes);
    if (!writable) {
      throw new UnsupportedOperationException(path + " is open read-only: it has no pages of its own to change");
    }
    return channel.map(FileChannel.MapMode.PRIVATE, payloadOffset + at, bytes);
  }

  /** Bytes of a journal before its ranges: magic, payload offset and length, range count. */
  private static final int JOURNAL_HEAD = 4 + 8 + 8 + 4;
  /** "CKJ1": the first bytes of a journal. */
  private static final int JOURNAL_MAGIC = 0x434B4A31;

  /** @return the journal beside a filter file */
  static Path journalOf(Path path) {
    return path.resolveSibling(path.getFileName() + ".journal");
  }

  /**
   * {@inheritDoc}
   *
   * <p>The journal: "CKJ1", the payload's offset and length in the file (so that a journal is
   * never replayed into another file), the count of ranges, each range's offset, length and
   * bytes, then the CRC32C of all of it. It is created once and kept, emptied after each commit:
   * a new file's name would need its directory forced before it could be trusted.
   */
  @Override
  public void commit(long[] at, ByteBuffer[] bytes) throws IOException {
    Path journal = journalOf(path);
    boolean created = !java.nio.file.Files.exists(journal);
    try (FileChannel j = MappedFiles.opened(journal, FileChannel.open(journal, java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE))) {
      j.truncate(0);
      CRC32C crc = new CRC32C();
      // Ranges are mostly single pages: gathered into a buffer, the journal takes a write a MiB.
      ByteBuffer out = ByteBuffer.allocateDirect(JOURNAL_BUFFER);
      out.putInt(JOURNAL_MAGIC).putLong(payloadOffset).putLong(payloadLength).putInt(at.length);
      long position = 0;
      for (int i = 0; i < at.length; i++) {
        requireInside(at[i], bytes[i].remaining());
        if (out.remaining() < 12) {
          position = drain(j, position, out, crc);
        }
        out.putLong(at[i]).putInt(bytes[i].remaining());
        ByteBuffer range = bytes[i].duplicate();
        while (range.hasRemaining()) {
          if (!out.hasRemaining()) {
            position = drain(j, position, out, crc);
          }
          int n = Math.min(out.remaining(), range.remaining());
          out.put(range.slice(range.position(), n));
          range.position(range.position() + n);
        }
      }
      position = drain(j, position, out, crc);
      append(j, position, ByteBuffer.allocate(4).putInt(0, (int) crc.getValue()), null);
      j.force(true);
    }
    if (created) {
      forceDirectory(journal);
    }
    beginChange();
    for (int i = 0; i < at.length; i++) {
      write(at[i], bytes[i].duplicate());
    }
    seal();
    // Done: a file that is not marked is never replayed into, so the journal need not reach the disk empty.
    try (FileChannel j = MappedFiles.opened(journal, FileChannel.open(journal, java.nio.file.StandardOpenOption.WRITE))) {
      j.truncate(0);
    }
  }

  /** Bytes of the journal gathered before a write. */
  private static final int JOURNAL_BUFFER = 1 << 20;

  /** Writes what the buffer gathered and empties it. */
  private static long drain(FileChannel channel, long position, ByteBuffer out, CRC32C crc) throws IOException {
    out.flip();
    long end = append(channel, position, out, crc);
    out.clear();
    return end;
  }

  private static long append(FileChannel channel, long position, ByteBuffer bytes, CRC32C crc) throws IOException {
    if (crc != null) {
      crc.update(bytes.duplicate());
    }
    while (bytes.hasRemaining()) {
      position += channel.write(bytes, position);
    }
    return position;
  }

  /** Makes a new file's name durable: its directory, forced. */
  private static void forceDirectory(Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    try (FileChannel d = FileChannel.open(dir, java.nio.file.StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException | UnsupportedOperationException notOnThisSystem) {
      // Some systems cannot open a directory; there a new name is as durable as they make it.
    }
  }

  /**
   * Replays the journal of a file marked as being changed whose writer used {@link #commit}: the
   * journal is checked whole (magic, this payload, its CRC) and its ranges written, then the file
   * is sealed.
   *
   * @throws CorruptFilterException if there is no whole journal for this file
   * @throws IOException if reading or writing fails
   */
  void replayJournal() throws IOException {
    Path journal = journalOf(path);
    String refused = path + " was being changed when its writer or its machine stopped, in the middle of a force";
    if (!java.nio.file.Files.exists(journal)) {
      throw new CorruptFilterException(refused + ", and its journal " + journal + " is missing: it cannot be"
          + " recovered; rebuild it, or use the copy written before");
    }
    try (FileChannel j = MappedFiles.opened(journal, FileChannel.open(journal, java.nio.file.StandardOpenOption.READ))) {
      long size = j.size();
      if (size < JOURNAL_HEAD + 4 || !journalIsWhole(j, size)) {
        throw new CorruptFilterException(refused + " (" + (size == 0 ? "the file was created and never forced"
            : "before its journal was whole") + "), and its journal " + journal + " holds no whole change: it"
            + " cannot be recovered; rebuild it, or use the copy written before");
      }
      ByteBuffer head = ByteBuffer.allocate(JOURNAL_HEAD);
      j.read(head, 0);
      head.flip();
      head.getInt();
      if (head.getLong() != payloadOffset || head.getLong() != payloadLength) {
        throw new CorruptFilterException(refused + ", and its journal " + journal + " is of another file");
      }
      int count = head.getInt();
      long position = JOURNAL_HEAD;
      for (int i = 0; i < count; i++) {
        ByteBuffer range = ByteBuffer.allocate(12);
        readFully(j, range, position);
        long at = range.getLong(0);
        int length = range.getInt(8);
        position += 12;
        ByteBuffer bytes = ByteBuffer.allocate(Math.min(length, 1 << 20));
        for (int done = 0; done < length; ) {
          bytes.clear().limit(Math.min(bytes.capacity(), length - done));
          readFully(j, bytes, position + done);
          bytes.flip();
          write(at + done, bytes);
          done += bytes.limit();
        }
        position += length;
      }
    }
    seal();
  }

  /** @return whether the journal's CRC matches its bytes and its ranges fill it exactly */
  private boolean journalIsWhole(FileChannel j, long size) throws IOException {
    CRC32C crc = new CRC32C();
    ByteBuffer chunk = ByteBuffer.allocate(1 << 16);
    for (long at = 0; at < size - 4; ) {
      chunk.clear().limit((int) Math.min(chunk.capacity(), size - 4 - at));
      readFully(j, chunk, at);
      chunk.flip();
      crc.update(chunk);
      at += chunk.limit();
    }
    ByteBuffer stored = ByteBuffer.allocate(4);
    readFully(j, stored, size - 4);
    if (stored.getInt(0) != (int) crc.getValue()) {
      return false;
    }
    ByteBuffer head = ByteBuffer.allocate(JOURNAL_HEAD);
    readFully(j, head, 0);
    if (head.getInt(0) != JOURNAL_MAGIC) {
      return false;
    }
    long position = JOURNAL_HEAD;
    for (int i = 0; i < head.getInt(20); i++) {
      ByteBuffer range = ByteBuffer.allocate(12);
      if (position + 12 > size - 4) {
        return false;
      }
      readFully(j, range, position);
      long at = range.getLong(0);
      int length = range.getInt(8);
      if (at < 0 || length < 0 || length > payloadLength - at) {
        return false;
      }
      position += 12L + length;
    }
    return position == size - 4;
  }

  private void readFully(FileChannel channel, ByteBuffer into, long at) throws IOException {
    while (into.hasRemaining()) {
      if (channel.read(into, at + into.position()) < 0) {
        throw new CorruptFilterException(path + ": its journal ends early");
      }
    }
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
    EnvelopeReader reader = new EnvelopeReader(new ByteArrayInputStream(buffer.array()), Math.max(bytes, Long.BYTES));
    reader.allow(bytes);
    return new EnvelopePayloadInput(reader, path.toString(), bytes);
  }

  @Override
  public void write(long at, ByteBuffer bytes) throws IOException {
    requireInside(at, bytes.remaining());
    long position = payloadOffset + at;
    markChanged(position, bytes.remaining());
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
  public void changed(long at, long bytes) {
    requireInside(at, bytes);
    markChanged(payloadOffset + at, bytes);
  }

  @Override
  public void seal() throws IOException {
    channel.force(false);
    ByteBuffer crc = ByteBuffer.allocate(4).putInt(0, sealedChecksum());
    channel.write(crc, payloadOffset + payloadLength);
    channel.force(false);
    writeState(FilterFile.CLEAN);
    channel.force(false);
  }

  @Override
  public void verifyChecksum() throws IOException {
    ByteBuffer stored = ByteBuffer.allocate(4);
    channel.read(stored, payloadOffset + payloadLength);
    regions();
    java.util.BitSet all = new java.util.BitSet(regionCrcs.length);
    all.set(0, regionCrcs.length);
    computeRegions(all);
    int computed = combinedRegions();
    if (stored.getInt(0) != computed) {
      throw new CorruptFilterException(String.format(
          "%s is damaged: checksum mismatch, stored CRC32C 0x%08X, computed 0x%08X", path, stored.getInt(0), computed));
    }
  }

  /** {@inheritDoc} An empty journal goes with it: a file renamed after it is closed leaves none behind. */
  @Override
  public void close() throws IOException {
    channel.close();
    if (writable) {
      Path journal = journalOf(path);
      if (java.nio.file.Files.exists(journal) && java.nio.file.Files.size(journal) == 0) {
        java.nio.file.Files.deleteIfExists(journal); // only a marked file is replayed into: nothing is lost
      }
    }
  }

  /** @return the bytes read so far to compute checksums */
  long checksummedBytes() {
    return checksummed;
  }

  private long end() {
    return payloadOffset + payloadLength;
  }

  /** Cuts the file into regions, on first need: a read-only file that is never verified needs none. */
  private void regions() {
    if (regionCrcs != null) {
      return;
    }
    long end = end();
    int shift = Long.numberOfTrailingZeros(MIN_REGION_BYTES);
    while ((end + (1L << shift) - 1) >>> shift > MAX_REGIONS && (1L << shift) < CHECKSUM_CHUNK) {
      shift++;
    }
    regionShift = shift;
    int count = Math.toIntExact((end + (1L << shift) - 1) >>> shift);
    regionCrcs = new int[count];
    known = new java.util.BitSet(count);
    changed = new java.util.BitSet(count);
    if (zeros) {
      // Past the header a new file is zeros: every region but the header's and the last (shorter) has one CRC.
      int firstZero = (int) ((payloadOffset + (1L << shift) - 1) >>> shift);
      int full = (int) (end >>> shift);
      int crcOfZeros = Crc32cCombine.ofZeros(1L << shift);
      for (int r = firstZero; r < full; r++) {
        regionCrcs[r] = crcOfZeros;
      }
      if (firstZero < full) {
        known.set(firstZero, full);
      }
    }
  }

  private void markChanged(long position, long bytes) {
    if (bytes == 0) {
      return;
    }
    regions();
    changed.set((int) (position >>> regionShift), (int) ((position + bytes - 1) >>> regionShift) + 1);
  }

  /**
   * The file's checksum from its regions' CRCs, rereading those changed since the last seal and
   * those never read, then forgetting the changes.
   */
  private int sealedChecksum() throws IOException {
    regions();
    java.util.BitSet stale = (java.util.BitSet) changed.clone();
    stale.or(complement(known, regionCrcs.length));
    computeRegions(stale);
    changed.clear();
    return combinedRegions();
  }

  private static java.util.BitSet complement(java.util.BitSet set, int length) {
    java.util.BitSet c = new java.util.BitSet(length);
    c.set(0, length);
    c.andNot(set);
    return c;
  }

  /** @return the CRC32C of the whole file before its checksum, from every region's */
  private int combinedRegions() {
    long regionBytes = 1L << regionShift;
    int shift = Crc32cCombine.shiftFor(regionBytes);
    int last = regionCrcs.length - 1;
    int crc = 0; // the CRC of no bytes
    for (int r = 0; r < last; r++) {
      crc = Crc32cCombine.combineShifted(crc, regionCrcs[r], shift);
    }
    return Crc32cCombine.combine(crc, regionCrcs[last], end() - ((long) last << regionShift));
  }

  /** Reads the regions in {@code which} and records their CRCs, mapping the file a chunk at a time. */
  private void computeRegions(java.util.BitSet which) throws IOException {
    long end = end();
    long regionBytes = 1L << regionShift;
    int perChunk = (int) (CHECKSUM_CHUNK >>> regionShift);
    int r = which.nextSetBit(0);
    while (r >= 0) {
      long chunkStart = ((long) (r / perChunk) * perChunk) << regionShift;
      long chunkLength = Math.min(CHECKSUM_CHUNK, end - chunkStart);
      MappedByteBuffer chunk = channel.map(FileChannel.MapMode.READ_ONLY, chunkStart, chunkLength);
      int chunkEnd = (int) ((chunkStart + chunkLength + regionBytes - 1) >>> regionShift);
      for (; r >= 0 && r < chunkEnd; r = which.nextSetBit(r + 1)) {
        long from = ((long) r << regionShift) - chunkStart;
        long length = Math.min(regionBytes, chunkLength - from);
        regionCrcs[r] = crc(chunk, chunkStart, (int) from, (int) length);
        known.set(r);
      }
    }
  }

  /** @return the CRC32C of bytes {@code [from, from + length)} of a chunk at {@code chunkStart}, the state read as clean */
  private int crc(MappedByteBuffer chunk, long chunkStart, int from, int length) {
    checksummed += length;
    CRC32C crc = new CRC32C();
    // The part of the state field inside these bytes, if any, counts as zeros.
    long state = stateOffset - chunkStart;
    int lo = (int) Math.max(from, Math.min(state, from + length));
    int hi = (int) Math.max(lo, Math.min(state + 4, from + length));
    crc.update(chunk.slice(from, lo - from));
    crc.update(new byte[hi - lo]);
    crc.update(chunk.slice(hi, from + length - hi));
    return (int) crc.getValue();
  }

  private void writeState(int state) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(4).putInt(0, state);
    channel.write(b, stateOffset);
  }
}
