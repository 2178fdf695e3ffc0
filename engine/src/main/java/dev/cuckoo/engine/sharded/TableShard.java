package dev.cuckoo.engine.sharded;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.FilterShard;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.engine.CuckooSizing;
import dev.cuckoo.engine.FingerprintStash;
import dev.cuckoo.engine.FingerprintStore;
import dev.cuckoo.engine.KickPath;
import dev.cuckoo.engine.PlainFingerprintStore;
import dev.cuckoo.engine.file.TablePayload;
import dev.cuckoo.spi.PayloadOutput;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * One shard of a table-based filter built apart ({@link FilterShard}): a {@link ShardedTable}
 * over the shard's own table, its stash and a single-threaded store; and {@link #join}, which
 * turns the S shards' bytes into the payload of the whole filter ({@link TablePayload}, layout 3).
 *
 * <p>A shard's bytes ({@link #writeTo}; big-endian):
 *
 * <pre>
 * size  field
 * 8     magic "CKOFSHRD"
 * 4     shard format, 1
 * 4     index i
 * 4     S, the shards
 * 4     L, then L bytes: the whole filter's resolved spec as its config string, UTF-8
 * 8     items stored
 * 8     W_s, the shard's table in longs (the filter's W / S)
 * 4     n, stashed fingerprints; then n × (8-byte bucket of the whole table, 4-byte fingerprint)
 * 4     CRC32C of every byte above
 * 8·W_s the shard's table: buckets [i·m_s, (i+1)·m_s) of the whole table, in its payload layout
 * 4     CRC32C of the table's bytes
 * </pre>
 *
 * <p>Since every shard's table is a whole number of longs ({@link
 * CuckooSizing#SHARD_BUCKET_MULTIPLE}), the whole table's words are the shards' words one after
 * the other: the join copies them, and adds up the items and stashes for the first page.
 */
public final class TableShard implements FilterShard {
  /** "CKOFSHRD". */
  static final long MAGIC = 0x434B4F4653485244L;
  static final int FORMAT = 1;
  private static final int COPY_BYTES = 1 << 16;

  private final FilterSpec spec;
  private final int index;
  private final ShardedTable table;
  private final FingerprintStash stash;
  private final FingerprintStore store;
  private final long tableWords;
  private final TablePayload.Words words;

  /**
   * @param spec the whole filter's resolved spec (its {@code maxKicks} and {@code seed} drive the
   *     kick path; its {@code concurrency} is ignored: a shard is built by one thread)
   * @param table the shard, from {@link ShardedTable#shard}
   * @param tableWords W_s, the longs of the shard's table in the payload layout
   * @param words writes those longs
   */
  public TableShard(FilterSpec spec, ShardedTable table, long tableWords, TablePayload.Words words) {
    this.spec = Objects.requireNonNull(spec, "spec");
    this.table = table;
    this.index = (int) (table.firstBucket() / table.shardBuckets());
    this.stash = new FingerprintStash(FingerprintStash.DEFAULT_SLOTS);
    this.store = new PlainFingerprintStore(table, stash,
        new KickPath(spec.maxKicks().getAsInt(), spec.seed().orElse(0L)), 0);
    this.tableWords = tableWords;
    this.words = words;
  }

  @Override
  public int index() {
    return index;
  }

  @Override
  public int shards() {
    return table.shards();
  }

  @Override
  public FilterSpec spec() {
    return spec;
  }

  @Override
  public boolean addHash(long keyHash) {
    int shard = table.shardOf(keyHash);
    if (shard != index) {
      throw new IllegalArgumentException("key hash " + Long.toHexString(keyHash) + " belongs to shard " + shard
          + ", not to shard " + index + " of " + shards() + ": route keys by ShardRouter.shardOf");
    }
    return store.add(keyHash);
  }

  @Override
  public long items() {
    return store.size();
  }

  @Override
  public long tableBytes() {
    return tableWords * Long.BYTES;
  }

  @Override
  public void writeTo(OutputStream out) throws IOException {
    CRC32C crc = new CRC32C();
    StreamOutput o = new StreamOutput(new CheckedOutputStream(new BufferedOutputStream(unclosed(out), COPY_BYTES), crc));
    byte[] specBytes = spec.toString().getBytes(StandardCharsets.UTF_8);
    o.writeLong(MAGIC);
    o.writeInt(FORMAT);
    o.writeInt(index);
    o.writeInt(shards());
    o.writeInt(specBytes.length);
    o.write(specBytes);
    o.writeLong(store.size());
    o.writeLong(tableWords);
    stash.writeTo(o);
    o.writeInt((int) crc.getValue());
    crc.reset();
    words.writeTo(o);
    o.writeInt((int) crc.getValue());
    o.flush();
  }

  @Override
  public String toString() {
    return "shard " + index + " of " + shards() + " (" + spec + "): " + items() + " items";
  }

  /**
   * Refuses a shard whose table is more than one array holds: a shard is built on the heap of
   * one task, even when the joined filter is a file past any array.
   *
   * @param spec the whole filter's resolved spec
   * @param shardWords the words one shard's table takes
   * @param maxWords the most one array of the variant's table holds
   * @throws IllegalArgumentException naming the shard count that would do
   */
  public static void requireHeapShard(FilterSpec spec, long shardWords, long maxWords) {
    if (shardWords > maxWords) {
      int shards = CuckooSizing.shardsOf(spec);
      long enough = Math.min(CuckooSizing.MAX_SHARDS, (long) shards * (shardWords / maxWords + 1));
      throw new IllegalArgumentException("a shard of " + spec + " takes " + shardWords + " longs, more than the "
          + maxWords + " one array holds, and a shard is built on the heap: give " + FilterSpec.SHARDS + "="
          + enough + " or more");
    }
  }

  /** The stream without its close: writing a shard leaves the caller's stream open. */
  private static OutputStream unclosed(OutputStream out) {
    return new FilterOutputStream(out) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        flush();
      }
    };
  }

  /** A table's words, written as the envelope writes them: big-endian, in chunks. */
  private static final class StreamOutput extends DataOutputStream implements PayloadOutput {
    private final byte[] chunk = new byte[COPY_BYTES];

    StreamOutput(OutputStream out) {
      super(out);
    }

    @Override
    public void writeLongs(long[] src, int off, int len) throws IOException {
      Objects.checkFromIndexSize(off, len, src.length);
      for (int done = 0; done < len; ) {
        int n = Math.min(len - done, COPY_BYTES / Long.BYTES);
        ByteBuffer.wrap(chunk).asLongBuffer().put(src, off + done, n);
        write(chunk, 0, n * Long.BYTES);
        done += n;
      }
    }
  }

  /** What a shard's header says, and the checksum that sealed it. */
  private record Header(long items, FingerprintStash stash, int checksum) {}

  /**
   * Writes the payload of the filter whose shards {@code source} gives: the first page of layout 3
   * with the items and stashes of every shard, then every shard's table in order.
   *
   * @param spec the whole filter's resolved spec
   * @param slots the slots per bucket
   * @param fingerprintBits the fingerprint width
   * @param shards S
   * @param tableBuckets the whole table's buckets, {@code S·m_s}
   * @param tableWords the whole table's longs W, a multiple of S
   * @param source opens each shard's bytes (twice)
   * @param out where to write the payload, {@link TablePayload#alignedLength}{@code (W)} bytes
   * @throws CorruptFilterException if a shard is missing or duplicated, of another spec, or
   *     damaged
   * @throws IOException if the stashes together overflow the filter's, or reading or writing fails
   */
  public static void join(FilterSpec spec, int slots, int fingerprintBits, int shards, long tableBuckets,
      long tableWords, FilterShard.Source source, PayloadOutput out) throws IOException {
    long shardWords = tableWords / shards;
    if (shardWords * shards != tableWords || tableBuckets % shards != 0) {
      throw new IllegalStateException(tableWords + " longs of " + tableBuckets + " buckets do not split into "
          + shards + " shards");
    }
    Header[] headers = new Header[shards];
    FingerprintStash stash = new FingerprintStash(FingerprintStash.DEFAULT_SLOTS);
    int stashed = 0;
    long items = 0;
    for (int i = 0; i < shards; i++) {
      try (InputStream in = open(source, i)) {
        CRC32C crc = new CRC32C();
        headers[i] = header(new DataInputStream(new CheckedInputStream(new BufferedInputStream(in), crc)), crc, spec,
            i, shards, slots, fingerprintBits, tableBuckets, shardWords);
      }
      items += headers[i].items();
      FingerprintStash s = headers[i].stash();
      for (int k = 0; k < s.size(); k++) {
        stashed++;
        stash.add(s.bucket(k), s.fingerprint(k));
      }
    }
    if (stashed > stash.slots()) {
      throw new IOException("the shards' stashes hold " + stashed + " fingerprints together, more than the filter's"
          + " stash of " + stash.slots() + ": build the shards again with a larger capacity (capacity="
          + (spec.capacity().getAsLong() + spec.capacity().getAsLong() / 5 + 1) + ", say) or fewer keys");
    }
    out.write(TablePayload.state(spec.capacity().getAsLong(), slots, fingerprintBits, shards, tableBuckets, items,
        tableWords, stash));
    byte[] chunk = new byte[COPY_BYTES];
    for (int i = 0; i < shards; i++) {
      try (InputStream raw = open(source, i)) {
        CRC32C crc = new CRC32C();
        DataInputStream in = new DataInputStream(new CheckedInputStream(new BufferedInputStream(raw, COPY_BYTES), crc));
        Header again = header(in, crc, spec, i, shards, slots, fingerprintBits, tableBuckets, shardWords);
        if (again.checksum() != headers[i].checksum()) {
          throw new CorruptFilterException("shard " + i + " changed between the join's two reads of it");
        }
        crc.reset();
        for (long left = shardWords * Long.BYTES; left > 0; ) {
          int n = (int) Math.min(left, chunk.length);
          in.readFully(chunk, 0, n);
          out.write(chunk, 0, n);
          left -= n;
        }
        int computed = (int) crc.getValue();
        int stored = in.readInt();
        if (stored != computed || in.read() != -1) {
          throw new CorruptFilterException("shard " + i + (stored != computed ? "'s table fails its checksum"
              : " has bytes after its table") + ": the shard is damaged; build it again");
        }
      } catch (EOFException e) {
        throw new CorruptFilterException("shard " + i + " ends before its table does: the shard is truncated", e);
      }
    }
  }

  private static InputStream open(FilterShard.Source source, int i) throws IOException {
    return Objects.requireNonNull(source.open(i), "the shard source returned no stream for shard " + i);
  }

  private static Header header(DataInputStream in, CRC32C crc, FilterSpec spec, int index, int shards, int slots,
      int fingerprintBits, long tableBuckets, long shardWords) throws IOException {
    String what = "shard " + index;
    try {
      if (in.readLong() != MAGIC) {
        throw new CorruptFilterException(what + " is not a filter shard (its magic differs)");
      }
      int format = in.readInt();
      if (format != FORMAT) {
        throw new CorruptFilterException(what + " has shard format " + format + ": this library reads " + FORMAT);
      }
      int declared = in.readInt();
      int declaredShards = in.readInt();
      if (declaredShards != shards) {
        throw new CorruptFilterException(what + " is one of " + declaredShards + " shards, not of " + shards);
      }
      if (declared != index) {
        throw new CorruptFilterException("the source of shard " + index + " holds shard " + declared
            + ": a shard is missing or given twice");
      }
      int length = in.readInt();
      String expected = spec.toString();
      if (length < 0 || length > 4 * expected.length() + 4) {
        throw new CorruptFilterException(what + " declares a spec of " + length + " bytes; " + spec + " expected");
      }
      byte[] specBytes = new byte[length];
      in.readFully(specBytes);
      String declaredSpec = new String(specBytes, StandardCharsets.UTF_8);
      if (!declaredSpec.equals(expected)) {
        throw new CorruptFilterException(what + " is of " + declaredSpec + ", not of " + expected);
      }
      long shardBuckets = tableBuckets / shards;
      long items = in.readLong();
      long room = shardBuckets * slots + FingerprintStash.DEFAULT_SLOTS;
      if (items < 0 || items > room) {
        throw new CorruptFilterException(what + " declares " + items + " items, out of range for its " + room
            + " slots");
      }
      long words = in.readLong();
      if (words != shardWords) {
        throw new CorruptFilterException(what + " declares a table of " + words + " longs; its spec gives "
            + shardWords);
      }
      FingerprintStash stash = FingerprintStash.read(in, FingerprintStash.DEFAULT_SLOTS, tableBuckets,
          fingerprintBits, spec.variant());
      for (int k = 0; k < stash.size(); k++) {
        if (stash.bucket(k) / shardBuckets != index) {
          throw new CorruptFilterException(what + " stashes a fingerprint at bucket " + stash.bucket(k)
              + ", outside its buckets " + index * shardBuckets + ".." + ((index + 1) * shardBuckets - 1));
        }
      }
      int computed = (int) crc.getValue();
      if (in.readInt() != computed) {
        throw new CorruptFilterException(what + "'s header fails its checksum: the shard is damaged");
      }
      return new Header(items, stash, computed);
    } catch (EOFException e) {
      throw new CorruptFilterException(what + " ends inside its header: the shard is truncated", e);
    }
  }
}
