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
 * 4     payload layout: 1 for lanes of one width (fingerprintBits), 2 for lanes that widen
 *       (targetFpp)
 * 4     k: the table has 2^k buckets (from the first table's k to the largest one array holds)
 * 4     layout 2 only: x, the bits of a lane beside its 16-bit head, 0..16
 * 8     keys stored (at most the entries)
 * 8     entries in the table and the stash (must be what they hold)
 * 8     W, the table's length in longs: 2^k · b · w / 64
 * 8·W   the table. Layout 1: bucket i in longs [i·b·w/64, (i+1)·b·w/64), lane s of a bucket in
 *       bits [(s % L)·w, (s % L + 1)·w) of its long s / L (L = 64/w). Layout 2 (b = 4, w = 16
 *       + x): with x = 0 as layout 1; else 2^k longs of 16-bit heads laid out as layout 1 lays
 *       out 16-bit lanes, then ceil(2^k/G) longs of low bits, G = floor(16/x): bucket i's lane
 *       s's low x bits in long 2^k + i / G at bit (4·(i mod G) + s)·x, so W = 2^k + ceil(2^k/G).
 *       A lane (head and low bits together) is 1 &lt;&lt; x when empty,
 *       else a tag (1..127) in its top 7 bits and a code below: fingerprint bits, then a marker
 *       bit whose position is the entry's age (at least what the table's size forces on new
 *       entries; at most the doublings since the first table in layout 1, or the whole code:
 *       exhausted)
 * 4     S, stashed entries (at most 1024)
 * 12·S  each: 8-byte first bucket (below 2^k), 4-byte entry (a lane as above)
 * </pre>
 *
 * <p>{@link #read} checks every size against the spec before it allocates, allocates the table
 * only as its bytes arrive ({@link PayloadInput#readLongArray}), and checks every lane.
 */
final class ExpandablePayload {
  /** The payload layout of lanes of one width. */
  static final int LAYOUT = 1;
  /** The payload layout of lanes that widen. */
  static final int WIDENING_LAYOUT = 2;
  /** Bytes of the payload before the table's words. */
  static final int HEADER_BYTES = 2 * Integer.BYTES + 3 * Long.BYTES;
  /** Bytes of one stashed entry. */
  static final int STASHED_BYTES = Long.BYTES + Integer.BYTES;

  private ExpandablePayload() {}

  /** @return the bytes {@link #write} writes */
  static long length(LaneTable table, LaneSchedule schedule, AgedStash stash) {
    return HEADER_BYTES + (schedule.isFlat() ? Integer.BYTES : 0) + (long) table.words.length * Long.BYTES
        + Integer.BYTES + (long) stash.size() * STASHED_BYTES;
  }

  /** Writes the payload of a filter holding {@code keys} in {@code entries} entries. */
  static void write(PayloadOutput out, LaneTable table, LaneSchedule schedule, long keys, long entries, AgedStash stash)
      throws IOException {
    out.writeInt(schedule.isFlat() ? WIDENING_LAYOUT : LAYOUT);
    out.writeInt(table.k);
    if (schedule.isFlat()) {
      out.writeInt(table.extBits);
    }
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
    int headBits = ExpandableFilter.headBits(spec);
    int slots = spec.bucketSize().getAsInt();
    int startK = ExpandableFilter.startK(spec);
    boolean flat = spec.targetFpp().isPresent();
    int expected = flat ? WIDENING_LAYOUT : LAYOUT;
    int layout = in.readInt();
    if (layout != expected) {
      throw new CorruptFilterException(name + " payload layout " + layout + " does not go with its spec " + spec
          + ": that takes layout " + expected + " (1: fingerprintBits, 2: targetFpp)");
    }
    int k = in.readInt();
    int ext = 0;
    if (flat) {
      ext = in.readInt();
      if (ext < 0 || ext > LaneSchedule.MAX_EXT_BITS) {
        throw new CorruptFilterException(name + " payload declares lanes of " + ext + " bits beside their heads, out of"
            + " range: 0.." + LaneSchedule.MAX_EXT_BITS);
      }
    }
    int maxK = LaneTable.maxK(headBits, ext, slots);
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
    long count = LaneTable.wordCount(headBits, ext, slots, k);
    if (words != count) {
      throw new CorruptFilterException(name + " payload declares a table of " + words + " longs, but 2^" + k
          + " buckets take " + count);
    }
    long[] array = in.readLongArray((int) words, "a table of " + words + " longs");
    LaneTable table = new LaneTable(headBits, ext, slots, k, array);
    // Wider lanes pad an entry below its marker as well as age it: only layout 1 bounds its age
    // by the doublings.
    int oldest = flat ? table.fingerprintBits
        : Math.min(table.fingerprintBits, LaneTable.freshAge(headBits, startK) + (k - startK));
    long held = 0;
    for (long b = 0; b < table.buckets(); b++) {
      for (int s = 0; s < slots; s++) {
        int lane = table.lane(b, s);
        if (lane != table.empty) {
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
