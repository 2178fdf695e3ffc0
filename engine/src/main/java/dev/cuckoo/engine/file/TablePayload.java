package dev.cuckoo.engine.file;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.engine.CuckooSizing;
import dev.cuckoo.engine.FingerprintStash;
import dev.cuckoo.engine.TableWords;
import dev.cuckoo.spi.ConfigValues;
import dev.cuckoo.spi.MappedPayload;
import dev.cuckoo.spi.PayloadInput;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;
import java.util.function.LongFunction;
import java.util.function.LongUnaryOperator;

/**
 * The file payload of a filter that is one bucket table and a {@link FingerprintStash}, written
 * and read here, so that the variants built that way ({@code classic}, {@code semi-sorted}) share
 * one layout and one reader:
 *
 * <pre>
 * size  field (big-endian)
 * 4     payload layout, 2 (1 is read too)
 * 8     bucket count m (must be what the spec's capacity gives by the layout's sizing)
 * 8     items stored (at most the table's and the stash's slots; must be what they hold)
 * 8     W, the table's length in longs (must be what the shape needs)
 * 8·W   the table, in the variant's layout
 * 4     S, stashed fingerprints (at most the stash's slots)
 * 12·S  each: 8-byte bucket (below m), 4-byte fingerprint (non-zero, of the spec's width)
 * </pre>
 *
 * <p>Layout 3, written since format version 3 of the envelope, puts the table after a page of
 * fields so that it starts at a multiple of 4096 in the file and maps as it lies ({@link
 * TableFile}); it is what {@link #write} writes:
 *
 * <pre>
 * offset  size  field (big-endian)
 * 0       4     payload layout, 3
 * 4       4     sizing: 2 (CuckooSizing.bucketCount) or 1 (0.1.0's legacyBucketCount)
 * 8       8     bucket count m
 * 16      8     items stored
 * 24      8     W, the table's length in longs
 * 32      4     S, stashed fingerprints
 * 36      12·S  each: 8-byte bucket, 4-byte fingerprint
 * 36+12·S ...   zeros up to 4096
 * 4096    8·W   the table, in the variant's layout
 * </pre>
 *
 * <p>The first page's zeros also hold what a writer that dies leaves for the next ({@link
 * FirstPage}, which owns the page's layout, and {@link TableFile}): the stash is kept current at
 * 32 while the file is being changed, a merge cut short leaves its record at 1024, and undo
 * records fill bytes 2048 to 4096 while a rewrite is under way. A forced file has zeros there but
 * for the record of a merge cut short, which stays until the merge is finished or abandoned.
 *
 * <p>{@link #read} checks every size against the spec before it allocates, and allocates the
 * table only as its bytes arrive ({@link PayloadInput#readLongArray}); the variant then checks
 * its table's encoding and {@link #requireItems} that the items declared are the items held.
 *
 * <p>The layouts differ only in how the bucket count follows from the spec: layout 2 tables are
 * sized by {@link CuckooSizing#bucketCount}, layout 1 tables (written by 0.1.0, before buckets
 * of 4 were sized for 96.5%) by {@link CuckooSizing#legacyBucketCount}. A filter read from a
 * layout 1 file keeps its table, and {@link #write} writes it as layout 1 again.
 */
public final class TablePayload {
  /** The payload layout of format version 2: fields, table, stash. */
  public static final int LAYOUT = 2;
  /** The payload layout this class writes: fields and stash in a page of their own, then the table. */
  public static final int ALIGNED_LAYOUT = 3;
  /** Bytes of an aligned payload before the table's words: a page ({@link FirstPage}). */
  public static final int STATE_BYTES = FirstPage.BYTES;
  /** The layout of 0.1.0's files, whose tables {@link CuckooSizing#legacyBucketCount} sizes. */
  public static final int LEGACY_LAYOUT = 1;
  /** Bytes of the payload before the table's words. */
  public static final int HEADER_BYTES = Integer.BYTES + 3 * Long.BYTES;

  private TablePayload() {}


  /** Writes a table's words in the variant's layout. */
  @FunctionalInterface
  public interface Words {
    /**
     * @param out where to write the table's {@code W} longs
     * @throws IOException if writing fails
     */
    void writeTo(PayloadOutput out) throws IOException;
  }

  /**
   * @param tableWords W, the table's longs
   * @return the bytes of an aligned payload (layout 3) with that table, whatever its stash holds:
   *     what {@link #write} writes
   */
  public static long alignedLength(long tableWords) {
    return STATE_BYTES + tableWords * Long.BYTES;
  }

  /**
   * Writes the payload, in the layout whose sizing gives the table's bucket count: layout 2, or
   * layout 1 for a table read from a layout 1 file, which keeps its size for as long as it lives.
   *
   * @param out where to write {@link #alignedLength} bytes
   * @param capacity the spec's capacity
   * @param slots the slots per bucket
   * @param fingerprintBits the fingerprint width
   * @param shards the shards the table is split into ({@link ShardedTable}), 1 if it is not
   * @param buckets the table's bucket count
   * @param items the items in the table and the stash
   * @param tableWords W, the table's longs
   * @param words writes the table's W longs
   * @param stash the stash
   * @throws IOException if writing fails
   * @throws IllegalStateException if neither layout's sizing gives that bucket count
   */
  public static void write(PayloadOutput out, long capacity, int slots, int fingerprintBits, int shards, long buckets,
      long items, long tableWords, Words words, FingerprintStash stash) throws IOException {
    out.write(state(capacity, slots, fingerprintBits, shards, buckets, items, tableWords, stash));
    words.writeTo(out);
  }

  /**
   * The first page of an aligned payload as a stream writes it: its fields and stash, then zeros
   * ({@link FirstPage#image}).
   *
   * @throws IllegalStateException if neither sizing gives that bucket count
   */
  public static byte[] state(long capacity, int slots, int fingerprintBits, int shards, long buckets, long items,
      long tableWords, FingerprintStash stash) {
    return java.util.Arrays.copyOf(
        FirstPage.image(sizing(capacity, slots, fingerprintBits, shards, buckets), buckets, items, tableWords, stash),
        STATE_BYTES);
  }

  /**
   * @return the sizing whose bucket count a table of the shape has: {@link #LAYOUT}, or {@link
   *     #LEGACY_LAYOUT} for a table 0.1.0 sized
   * @throws IllegalStateException if neither gives it
   */
  static int sizing(long capacity, int slots, int fingerprintBits, int shards, long buckets) {
    if (buckets == CuckooSizing.bucketCount(capacity, slots, fingerprintBits, shards)) {
      return LAYOUT;
    }
    if (shards == 1 && buckets == CuckooSizing.legacyBucketCount(capacity, slots, fingerprintBits)) {
      return LEGACY_LAYOUT;
    }
    throw new IllegalStateException("a table of " + buckets + " buckets is not the size of capacity " + capacity
        + " in any layout");
  }

  /**
   * What {@link #read} found: the table's words, not yet checked against the variant's
   * encoding, and the stash.
   *
   * @param buckets the table's bucket count
   * @param items the items the payload declares
   * @param words the table's longs, on the heap
   * @param stash the stash
   */
  public record Contents(long buckets, long items, TableWords words, FingerprintStash stash) {}

  /**
   * Reads a payload, checking every field against the shape the spec gives before allocating.
   *
   * @param in the payload
   * @param variant the variant, for messages
   * @param capacity the spec's capacity
   * @param slots the slots per bucket
   * @param fingerprintBits the fingerprint width
   * @param shards the spec's shards, 1 for a table that is not sharded
   * @param payloadWords W, the longs the variant's table takes in the payload, for a bucket count
   * @param newWords zeroed heap words of a length, in the storage the variant's table reads
   *     fastest ({@code TableProvider.newHeapWords})
   * @return what the payload holds, the table in words of {@code newWords} wherever its bytes
   *     are {@link PayloadInput#atHand} or fit in one direct read, in {@link TableWords#onHeap}
   *     words otherwise
   * @throws CorruptFilterException if a field is out of range or disagrees with the shape, or the
   *     payload ends early
   * @throws IOException if reading fails
   */
  public static Contents read(PayloadInput in, String variant, long capacity, int slots, int fingerprintBits,
      int shards, LongUnaryOperator payloadWords, LongFunction<TableWords> newWords) throws IOException {
    Head head = head(in, variant, capacity, slots, fingerprintBits, shards, payloadWords);
    long words = head.tableWords();
    TableWords table;
    FingerprintStash stash;
    if (head.layout() == ALIGNED_LAYOUT) {
      stash = FingerprintStash.read(in, FingerprintStash.DEFAULT_SLOTS, head.buckets(), fingerprintBits, variant);
      byte[] rest = in.readByteArray((int) (STATE_BYTES - HEAD_BYTES - stash.payloadBytes()),
          "the rest of the payload's first page");
      int restAt = (int) (HEAD_BYTES + stash.payloadBytes());
      for (int i = 0; i < rest.length; i++) {
        // The record of a merge cut short may be there: it is the next writer's, not this filter's.
        boolean mergeRecord = restAt + i >= FirstPage.MERGE_AT && restAt + i < FirstPage.MERGE_AT + FirstPage.MERGE_BYTES;
        if (rest[i] != 0 && !mergeRecord) {
          throw new CorruptFilterException(variant + " payload has a non-zero byte in the padding before its table");
        }
      }
      table = table(in, words, newWords);
    } else {
      table = table(in, words, newWords);
      stash = FingerprintStash.read(in, FingerprintStash.DEFAULT_SLOTS, head.buckets(), fingerprintBits, variant);
    }
    return new Contents(head.buckets(), head.items(), table, stash);
  }

  /*
   * A table is allocated once, in the storage its class reads, and read into it, wherever the
   * bytes are known to be there: a heap of N + 64 MiB reads a table of N bytes. Only from a
   * stream that cannot say how much it holds, past one direct read (64 MiB), is it read into an
   * array that grows as the bytes arrive, so that a forged length costs no more than the bytes
   * sent (PayloadInput.readLongArray); such a table may be copied once more into its storage.
   */
  private static TableWords table(PayloadInput in, long words, LongFunction<TableWords> newWords) throws IOException {
    String what = "a table of " + words + " longs";
    in.requireRemaining(words * Long.BYTES, what);
    if (words <= PayloadInput.DIRECT_READ_BYTES / Long.BYTES || in.atHand(words * Long.BYTES)) {
      TableWords table = newWords.apply(words);
      table.readFrom(in, words);
      return table;
    }
    return TableWords.onHeap(in.readLongArray((int) words, (int) words + 1, what));
  }

  /** Bytes of layout 3's fields before its stash. */
  private static final int HEAD_BYTES = 2 * Integer.BYTES + 3 * Long.BYTES;

  /** A payload's fields before its table (or, in layout 3, its stash). */
  private record Head(int layout, long buckets, long items, long tableWords) {}

  private static Head head(PayloadInput in, String variant, long capacity, int slots, int fingerprintBits,
      int shards, LongUnaryOperator payloadWords) throws IOException {
    int layout = in.readInt();
    if (layout != LAYOUT && layout != LEGACY_LAYOUT && layout != ALIGNED_LAYOUT) {
      throw new CorruptFilterException(variant + " payload layout " + layout
          + " is unknown: this library reads layouts " + LEGACY_LAYOUT + " to " + ALIGNED_LAYOUT);
    }
    int sizing = layout == ALIGNED_LAYOUT ? in.readInt() : layout;
    long buckets;
    if (sizing == LAYOUT) {
      buckets = CuckooSizing.bucketCount(capacity, slots, fingerprintBits, shards);
    } else if (sizing == LEGACY_LAYOUT && shards == 1) {
      buckets = CuckooSizing.legacyBucketCount(capacity, slots, fingerprintBits);
    } else {
      throw new CorruptFilterException(variant + " payload sizing " + sizing
          + " is unknown" + (shards == 1 ? "" : " for a table of " + shards + " shards") + ": "
          + (shards == 1 ? LEGACY_LAYOUT + " (0.1.0's) or " : "") + LAYOUT);
    }
    long declaredBuckets = in.readLong();
    if (declaredBuckets != buckets) {
      throw new CorruptFilterException(variant + " payload declares " + declaredBuckets
          + " buckets, but its spec gives " + buckets + " in layout " + sizing);
    }
    long items = in.readLong();
    long room = buckets * slots + FingerprintStash.DEFAULT_SLOTS;
    if (items < 0 || items > room) {
      throw new CorruptFilterException(
          variant + " payload declares " + items + " items, out of range for a table and stash of " + room + " slots");
    }
    long words = in.readLong();
    long tableWords = payloadWords.applyAsLong(buckets);
    if (words != tableWords) {
      throw new CorruptFilterException(
          variant + " payload declares a table of " + words + " longs, but its shape needs " + tableWords);
    }
    return new Head(layout, buckets, items, words);
  }

  /**
   * Reads the fields and stash of an aligned payload in a mapped file and maps its table, checking
   * every field as {@link #read} does and the payload's length against the table's, but not the
   * table itself.
   *
   * @param payload the payload
   * @param variant the variant, for messages
   * @param capacity the spec's capacity
   * @param slots the slots per bucket
   * @param fingerprintBits the fingerprint width
   * @param shards the spec's shards, 1 for a table that is not sharded
   * @param payloadWords W, the longs the variant's table takes, for a bucket count
   * @param machine {@code durability=machine}: a writable table is mapped copy-on-write
   * @return the fields, the stash and the mapped table
   * @throws CorruptFilterException if a field is out of range or disagrees with the shape
   * @throws IOException if reading or mapping fails
   */
  public static MappedContents open(MappedPayload payload, String variant, long capacity, int slots,
      int fingerprintBits, int shards, LongUnaryOperator payloadWords, boolean machine) throws IOException {
    if (payload.length() < STATE_BYTES) {
      throw new CorruptFilterException(variant + " payload of " + payload.length() + " bytes is shorter than its"
          + " first page");
    }
    PayloadInput in = payload.read(0, STATE_BYTES);
    Head head = head(in, variant, capacity, slots, fingerprintBits, shards, payloadWords);
    if (head.layout() != ALIGNED_LAYOUT) {
      throw new CorruptFilterException(variant + " payload layout " + head.layout() + " in a version 3 file");
    }
    if (payload.length() != alignedLength(head.tableWords())) {
      throw new CorruptFilterException(variant + " payload is " + payload.length() + " bytes, but a table of "
          + head.tableWords() + " longs makes it " + alignedLength(head.tableWords()));
    }
    FingerprintStash stash = FingerprintStash.read(in, FingerprintStash.DEFAULT_SLOTS, head.buckets(), fingerprintBits,
        variant);
    int sizing = sizing(capacity, slots, fingerprintBits, shards, head.buckets());
    TableFile file = TableFile.open(payload, variant, sizing, head.buckets(), head.tableWords(), machine, false);
    stash.keepIn(file);
    return new MappedContents(head.buckets(), head.items(), file.words(), stash, file);
  }

  /**
   * Writes the first page of a new aligned payload for an empty table, and maps the table.
   *
   * @param payload a new payload of {@link #alignedLength} bytes, zeros
   * @param variant the variant, for messages
   * @param capacity the spec's capacity
   * @param slots the slots per bucket
   * @param fingerprintBits the fingerprint width
   * @param shards the spec's shards, 1 for a table that is not sharded
   * @param buckets the new table's bucket count
   * @param tableWords W, its longs
   * @param machine {@code durability=machine}: the table is mapped copy-on-write
   * @return the empty fields and stash, and the mapped table
   * @throws IOException if writing or mapping fails
   */
  public static MappedContents create(MappedPayload payload, String variant, long capacity, int slots,
      int fingerprintBits, int shards, long buckets, long tableWords, boolean machine) throws IOException {
    FingerprintStash stash = new FingerprintStash(FingerprintStash.DEFAULT_SLOTS);
    int sizing = sizing(capacity, slots, fingerprintBits, shards, buckets);
    payload.write(0, java.nio.ByteBuffer.wrap(FirstPage.image(sizing, buckets, 0, tableWords, stash)));
    TableFile file = TableFile.open(payload, variant, sizing, buckets, tableWords, machine, true);
    stash.keepIn(file);
    return new MappedContents(buckets, 0, file.words(), stash, file);
  }

  /** Bytes of the table copied at a time by {@link #realign}. */
  private static final int COPY_BYTES = 1 << 16;

  /**
   * Rewrites a payload of layout 1 or 2 (format versions 1 and 2) as layout 3 in a new mapped
   * file, streaming: the table's words are copied as they arrive into the new payload, in the
   * same encoding, with one buffer of {@value #COPY_BYTES} bytes, and the fields and stash (which
   * follow the table in the old layouts) go into the first page last. The sizing is kept, so a
   * table of 0.1.0's layout 1 stays its size. The old payload's fields are checked as {@link
   * #read} checks them; its table's encoding is checked by the caller through the new file.
   *
   * @param in the old payload, read to its end
   * @param out creates the new payload, given its length
   * @param variant the variant, for messages
   * @param capacity the spec's capacity
   * @param slots the slots per bucket
   * @param fingerprintBits the fingerprint width
   * @param shards the spec's shards, 1 for a table that is not sharded
   * @param payloadWords W, the longs the variant's table takes, for a bucket count
   * @throws CorruptFilterException if a field is out of range or disagrees with the shape, the
   *     payload is already aligned, or it ends early
   * @throws IOException if reading or writing fails
   */
  public static void realign(PayloadInput in, MappedPayload.Factory out, String variant, long capacity, int slots,
      int fingerprintBits, int shards, LongUnaryOperator payloadWords) throws IOException {
    Head head = head(in, variant, capacity, slots, fingerprintBits, shards, payloadWords);
    if (head.layout() == ALIGNED_LAYOUT) {
      throw new CorruptFilterException(variant + " payload layout " + ALIGNED_LAYOUT + " in a file of format version 1"
          + " or 2, whose payloads are of layout " + LEGACY_LAYOUT + " or " + LAYOUT);
    }
    long tableBytes = head.tableWords() * Long.BYTES;
    in.requireRemaining(tableBytes, "a table of " + head.tableWords() + " longs");
    MappedPayload payload = out.create(alignedLength(head.tableWords()));
    byte[] chunk = new byte[(int) Math.min(COPY_BYTES, tableBytes)];
    for (long at = 0; at < tableBytes; at += chunk.length) {
      int n = (int) Math.min(chunk.length, tableBytes - at);
      in.readFully(chunk, 0, n);
      payload.write(STATE_BYTES + at, java.nio.ByteBuffer.wrap(chunk, 0, n));
    }
    FingerprintStash stash = FingerprintStash.read(in, FingerprintStash.DEFAULT_SLOTS, head.buckets(), fingerprintBits,
        variant);
    payload.write(0, java.nio.ByteBuffer.wrap(FirstPage.image(sizing(capacity, slots, fingerprintBits, shards,
        head.buckets()), head.buckets(), head.items(), head.tableWords(), stash)));
  }

  /**
   * What {@link #open} and {@link #create} found.
   *
   * @param buckets the table's bucket count
   * @param items the items the payload declares
   * @param words the table's longs, mapped
   * @param stash the stash
   * @param file what keeps the file consistent, for the filter
   */
  public record MappedContents(long buckets, long items, TableWords words, FingerprintStash stash, TableFile file) {}

  /**
   * Checks that the items a payload declared are the fingerprints its table and stash hold.
   *
   * @param variant the variant, for the message
   * @param contents what {@link #read} found
   * @param tableOccupied the occupied slots of the table
   * @throws CorruptFilterException if they differ
   */
  public static void requireItems(String variant, Contents contents, long tableOccupied) throws CorruptFilterException {
    long held = tableOccupied + contents.stash().size();
    if (held != contents.items()) {
      throw new CorruptFilterException(
          variant + " payload declares " + contents.items() + " items, but its table and stash hold " + held
              + " fingerprints");
    }
  }
}
