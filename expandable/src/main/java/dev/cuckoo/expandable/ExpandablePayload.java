package dev.cuckoo.expandable;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.PayloadInput;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;

/**
 * The file payload of an expandable filter, written and read here. The spec's capacity gives
 * only the first table; the payload says how far it has grown:
 *
 * <pre>
 * size  field (big-endian)
 * 4     payload layout, 1
 * 4     k: the table has 2^k buckets (from the first table's k to the largest one array holds)
 * 8     keys stored (at most the entries)
 * 8     entries in the table and the stash (must be what they hold)
 * 8     W, the table's length in longs: 2^k · b · w / 64
 * 8·W   the table: bucket i in longs [i·b·w/64, (i+1)·b·w/64), lane s of a bucket in bits
 *       [(s % L)·w, (s % L + 1)·w) of its long s / L (L = 64/w); a lane is 1 when empty, else
 *       a tag (1..127) in its top 7 bits and a code below: fingerprint bits, then a marker bit
 *       whose position is the entry's age (at least what the table's size forces on new
 *       entries, at most the doublings since the first table, or the whole code: exhausted)
 * 4     S, stashed entries (at most 1024)
 * 12·S  each: 8-byte first bucket (below 2^k), 4-byte entry (a lane as above)
 * </pre>
 *
 * <p>{@link #read} checks every size against the spec before it allocates, allocates the table
 * only as its bytes arrive ({@link PayloadInput#readLongArray}), and checks every lane.
 */
final class ExpandablePayload {
  /** The payload layout this class writes and reads. */
  static final int LAYOUT = 1;
  /** Bytes of the payload before the table's words. */
  static final int HEADER_BYTES = 2 * Integer.BYTES + 3 * Long.BYTES;
  /** Bytes of one stashed entry. */
  static final int STASHED_BYTES = Long.BYTES + Integer.BYTES;

  private ExpandablePayload() {}

  /** @return the bytes {@link #write} writes */
  static long length(LaneTable table, AgedStash stash) {
    return HEADER_BYTES + (long) table.words.length * Long.BYTES + Integer.BYTES + (long) stash.size() * STASHED_BYTES;
  }

  /** Writes the payload of a filter holding {@code keys} in {@code entries} entries. */
  static void write(PayloadOutput out, LaneTable table, long keys, long entries, AgedStash stash) throws IOException {
    out.writeInt(LAYOUT);
    out.writeInt(table.k);
    out.writeLong(keys);
    out.writeLong(entries);
    out.writeLong(table.words.length);
    for (long w : table.words) {
      out.writeLong(w);
    }
    out.writeInt(stash.size());
    for (int i = 0; i < stash.size(); i++) {
      out.writeLong(stash.bucket(i));
      out.writeInt(stash.entry(i));
    }
  }

  /**
   * Reads a payload, checking every size against the spec before allocating, every lane, and
   * the entries declared against those held.
   *
   * @param spec the resolved spec the file records
   * @param in the payload
   * @return the filter
   * @throws CorruptFilterException if anything disagrees
   * @throws IOException if reading fails
   */
  static ExpandableFilter read(FilterSpec spec, PayloadInput in) throws IOException {
    String name = ExpandableProvider.NAME;
    int laneBits = ExpandableFilter.laneBits(spec);
    int slots = spec.bucketSize().getAsInt();
    int startK = ExpandableFilter.startK(spec);
    int maxK = LaneTable.maxK(laneBits, slots);
    int layout = in.readInt();
    if (layout != LAYOUT) {
      throw new CorruptFilterException(name + " payload layout " + layout + " is unknown: this library reads layout " + LAYOUT);
    }
    int k = in.readInt();
    if (k < startK || k > maxK) {
      throw new CorruptFilterException(name + " payload declares a table of 2^" + k + " buckets, out of range for its spec: 2^"
          + startK + "..2^" + maxK);
    }
    long keys = in.readLong();
    long entries = in.readLong();
    long room = (1L << k) * slots + AgedStash.MAX_ENTRIES;
    if (entries < 0 || entries > room || keys < 0 || keys > entries) {
      throw new CorruptFilterException(name + " payload declares " + keys + " keys in " + entries
          + " entries, out of range for a table and stash of " + room + " slots");
    }
    long words = in.readLong();
    long expected = LaneTable.wordCount(laneBits, slots, k);
    if (words != expected) {
      throw new CorruptFilterException(name + " payload declares a table of " + words + " longs, but 2^" + k
          + " buckets take " + expected);
    }
    long[] array = in.readLongArray((int) words, "a table of " + words + " longs");
    LaneTable table = new LaneTable(laneBits, slots, k, array);
    int oldest = Math.min(table.fingerprintBits, LaneTable.freshAge(laneBits, startK) + (k - startK));
    long held = 0;
    for (long b = 0; b < table.buckets(); b++) {
      for (int s = 0; s < slots; s++) {
        int lane = table.lane(b, s);
        if (lane != LaneTable.EMPTY) {
          requireEntry(table, Integer.toUnsignedLong(lane), oldest, "bucket " + b + " slot " + s);
          held++;
        }
      }
    }
    int stashed = in.readInt();
    if (stashed < 0 || stashed > AgedStash.MAX_ENTRIES) {
      throw new CorruptFilterException(name + " payload declares " + stashed + " stashed entries, out of range: 0.."
          + AgedStash.MAX_ENTRIES);
    }
    in.requireRemaining((long) stashed * STASHED_BYTES, stashed + " stashed entries");
    AgedStash stash = new AgedStash();
    for (int i = 0; i < stashed; i++) {
      long bucket = in.readLong();
      int entry = in.readInt();
      if (bucket < 0 || bucket >= table.buckets()) {
        throw new CorruptFilterException(name + " payload stash entry " + i + " has bucket " + bucket
            + ", out of range for 2^" + k + " buckets");
      }
      requireEntry(table, Integer.toUnsignedLong(entry), oldest, "stash entry " + i);
      stash.add(bucket, entry);
    }
    if (held + stashed != entries) {
      throw new CorruptFilterException(name + " payload declares " + entries + " entries, but its table and stash hold "
          + (held + stashed));
    }
    ExpandableFilter f = ExpandableFilter.of(spec, table);
    f.restore(keys, stash);
    return f;
  }

  private static void requireEntry(LaneTable table, long lane, int oldest, String where) throws CorruptFilterException {
    if (!table.isEntry(lane)) {
      throw new CorruptFilterException(ExpandableProvider.NAME + " payload " + where + " holds 0x" + Long.toHexString(lane)
          + ", which is neither empty nor an entry (a tag and a marker)");
    }
    int age = table.age((int) lane);
    if (age < table.freshAge || age > oldest) {
      throw new CorruptFilterException(ExpandableProvider.NAME + " payload " + where + " holds an entry of age " + age
          + ", out of range for a table of 2^" + table.k + " buckets: " + table.freshAge + ".." + oldest);
    }
  }
}
