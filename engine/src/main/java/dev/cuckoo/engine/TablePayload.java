package dev.cuckoo.engine;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.spi.PayloadInput;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;
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
  /** The payload layout this class writes. */
  public static final int LAYOUT = 2;
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
   * @param stash the stash
   * @return the bytes {@link #write} writes
   */
  public static long length(long tableWords, FingerprintStash stash) {
    return HEADER_BYTES + tableWords * Long.BYTES + stash.payloadBytes();
  }

  /**
   * Writes the payload, in the layout whose sizing gives the table's bucket count: layout 2, or
   * layout 1 for a table read from a layout 1 file, which keeps its size for as long as it lives.
   *
   * @param out where to write {@link #length} bytes
   * @param capacity the spec's capacity
   * @param slots the slots per bucket
   * @param fingerprintBits the fingerprint width
   * @param buckets the table's bucket count
   * @param items the items in the table and the stash
   * @param tableWords W, the table's longs
   * @param words writes the table's W longs
   * @param stash the stash
   * @throws IOException if writing fails
   * @throws IllegalStateException if neither layout's sizing gives that bucket count
   */
  public static void write(PayloadOutput out, long capacity, int slots, int fingerprintBits, long buckets, long items,
      long tableWords, Words words, FingerprintStash stash) throws IOException {
    int layout;
    if (buckets == CuckooSizing.bucketCount(capacity, slots, fingerprintBits)) {
      layout = LAYOUT;
    } else if (buckets == CuckooSizing.legacyBucketCount(capacity, slots, fingerprintBits)) {
      layout = LEGACY_LAYOUT;
    } else {
      throw new IllegalStateException("a table of " + buckets + " buckets is not the size of capacity " + capacity
          + " in any layout");
    }
    out.writeInt(layout);
    out.writeLong(buckets);
    out.writeLong(items);
    out.writeLong(tableWords);
    words.writeTo(out);
    stash.writeTo(out);
  }

  /**
   * What {@link #read} found: the table's words, not yet checked against the variant's
   * encoding, and the stash.
   *
   * @param buckets the table's bucket count
   * @param items the items the payload declares
   * @param words the table's longs, in an array of the length the variant asked for
   * @param stash the stash
   */
  @SuppressWarnings("ArrayRecordComponent") // a carrier from reader to table: never compared
  public record Contents(long buckets, long items, long[] words, FingerprintStash stash) {}

  /**
   * Reads a payload, checking every field against the shape the spec gives before allocating.
   *
   * @param in the payload
   * @param variant the variant, for messages
   * @param capacity the spec's capacity
   * @param slots the slots per bucket
   * @param fingerprintBits the fingerprint width
   * @param payloadWords W, the longs the variant's table takes in the payload, for a bucket count
   * @param arrayWords the length of the array to read such a table into (W and any padding)
   * @return what the payload holds
   * @throws CorruptFilterException if a field is out of range or disagrees with the shape, or the
   *     payload ends early
   * @throws IOException if reading fails
   */
  public static Contents read(PayloadInput in, String variant, long capacity, int slots, int fingerprintBits,
      LongUnaryOperator payloadWords, LongUnaryOperator arrayWords) throws IOException {
    int layout = in.readInt();
    long buckets;
    if (layout == LAYOUT) {
      buckets = CuckooSizing.bucketCount(capacity, slots, fingerprintBits);
    } else if (layout == LEGACY_LAYOUT) {
      buckets = CuckooSizing.legacyBucketCount(capacity, slots, fingerprintBits);
    } else {
      throw new CorruptFilterException(variant + " payload layout " + layout
          + " is unknown: this library reads layouts " + LEGACY_LAYOUT + " and " + LAYOUT);
    }
    long declaredBuckets = in.readLong();
    if (declaredBuckets != buckets) {
      throw new CorruptFilterException(variant + " payload declares " + declaredBuckets
          + " buckets, but its spec gives " + buckets + " in layout " + layout);
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
    long[] table = in.readLongArray((int) words, (int) arrayWords.applyAsLong(buckets), "a table of " + words + " longs");
    FingerprintStash stash = FingerprintStash.read(in, FingerprintStash.DEFAULT_SLOTS, buckets, fingerprintBits, variant);
    return new Contents(buckets, items, table, stash);
  }

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
