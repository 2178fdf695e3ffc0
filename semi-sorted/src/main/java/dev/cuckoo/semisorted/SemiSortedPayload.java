package dev.cuckoo.semisorted;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.FilterShard;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.engine.FingerprintStash;
import dev.cuckoo.engine.ShardedTable;
import dev.cuckoo.engine.TablePayload;
import dev.cuckoo.engine.TableShard;
import dev.cuckoo.spi.MappedPayload;
import dev.cuckoo.spi.PayloadInput;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;
import java.util.function.LongUnaryOperator;

/**
 * The file payload of a semi-sorted filter, written and read here.
 *
 * <p>The layout is the engine's {@link TablePayload} (layout, bucket count, items, table
 * length, table, stash), with the table as {@link SemiSortedTable} describes it: {@code W =
 * ceil(m·(4f − 4) / 64)} longs, bucket {@code k} in bits {@code [k·(4f − 4), (k + 1)·(4f − 4))} of
 * the longs read as one little-endian bit string, its 12-bit code of the four sorted nibbles
 * first and then the {@code f − 4} high bits of each slot. Every bucket must be the one encoding
 * of its four fingerprints, and nothing may be set after the last bucket.
 */
final class SemiSortedPayload {
  private SemiSortedPayload() {}

  /** @return the bytes {@link #write} writes for this table, whatever its stash holds */
  static long length(SemiSortedTable table) {
    return TablePayload.alignedLength(SemiSortedTable.payloadWords(table.bucketCount, table.bits));
  }

  /** Writes the payload of a filter of this spec holding {@code items} in this table and stash. */
  static void write(PayloadOutput out, FilterSpec spec, SemiSortedTable table, long items, FingerprintStash stash)
      throws IOException {
    long words = SemiSortedTable.payloadWords(table.bucketCount, table.bits);
    TablePayload.write(out, spec.capacity().getAsLong(), SemiSortedTable.SLOTS, table.bits,
        ShardedTable.shardsOf(spec), table.bucketCount, items, words, o -> table.writePayloadWords(o, words), stash);
  }

  /** Writes the payload of the filter whose shards {@code source} gives ({@link TableShard#join}). */
  static void join(FilterSpec spec, FilterShard.Source source, PayloadOutput out) throws IOException {
    int bits = spec.fingerprintBits().getAsInt();
    long buckets = SemiSortedFilter.newBucketCount(spec);
    TableShard.join(spec, SemiSortedTable.SLOTS, bits, ShardedTable.shardsOf(spec), buckets,
        SemiSortedTable.payloadWords(buckets, bits), source, out);
  }

  /**
   * Reads a payload, checking every size against the spec before allocating, every bucket's
   * encoding, the bits past the last bucket, and the items declared against the fingerprints
   * held.
   *
   * @param spec the resolved spec the file records
   * @param in the payload
   * @return the filter
   * @throws CorruptFilterException if anything disagrees
   * @throws IOException if reading fails
   */
  static SemiSortedFilter read(FilterSpec spec, PayloadInput in) throws IOException {
    SemiSortedFilter.requireHeapTable(spec);
    String name = SemiSortedProvider.NAME;
    int bits = spec.fingerprintBits().getAsInt();
    TablePayload.Contents contents = TablePayload.read(in, name, spec.capacity().getAsLong(), SemiSortedTable.SLOTS,
        bits, ShardedTable.shardsOf(spec), m -> SemiSortedTable.payloadWords(m, bits), m -> SemiSortedTable.allocatedWords(m, bits));
    long buckets = contents.buckets();
    SemiSortedTable table = SemiSortedTable.wrap(buckets, bits, contents.words());
    if (!table.tailIsClear()) {
      throw new CorruptFilterException(name + " payload has bits set after the last bucket of its table");
    }
    requireCanonical(table, name);
    TablePayload.requireItems(name, contents, table.occupiedSlots());
    return SemiSortedFilter.of(spec, table, contents.stash(), contents.items());
  }

  /**
   * Checks that every bucket of a table is a semi-sorted bucket, as this class writes them.
   *
   * @param table the table
   * @param where what the message begins with: the variant, or the file and the variant
   * @throws CorruptFilterException naming the first bucket that is not
   */
  static void requireCanonical(SemiSortedTable table, String where) throws CorruptFilterException {
    for (long b = 0; b < table.bucketCount; b++) {
      if (!table.isCanonical(b)) {
        throw new CorruptFilterException(
            where + " payload bucket " + b + " is not a semi-sorted bucket: its code is above "
                + (SemiSortCodec.CODES - 1) + " or its fingerprints are out of order");
      }
    }
  }

  /** Rewrites a payload of an earlier format version as one that maps ({@link TablePayload#realign}). */
  static void realign(FilterSpec spec, PayloadInput in, MappedPayload.Factory out) throws IOException {
    int bits = spec.fingerprintBits().getAsInt();
    TablePayload.realign(in, out, SemiSortedProvider.NAME, spec.capacity().getAsLong(), SemiSortedTable.SLOTS, bits,
        ShardedTable.shardsOf(spec), new PayloadWords(bits));
  }

  /** @return the bytes of the payload of a new filter of the spec in a mapped file */
  static long mappedLength(FilterSpec spec) {
    int bits = spec.fingerprintBits().getAsInt();
    return TablePayload.alignedLength(SemiSortedTable.payloadWords(SemiSortedFilter.newBucketCount(spec), bits));
  }

  /** Writes a new, empty payload into a mapped file and maps its table. */
  static SemiSortedFilter.Mapped create(FilterSpec spec, MappedPayload payload) throws IOException {
    int bits = spec.fingerprintBits().getAsInt();
    long buckets = SemiSortedFilter.newBucketCount(spec);
    return SemiSortedFilter.mapped(spec, TablePayload.create(payload, SemiSortedProvider.NAME,
        spec.capacity().getAsLong(), SemiSortedTable.SLOTS, bits, ShardedTable.shardsOf(spec), buckets,
        SemiSortedTable.payloadWords(buckets, bits)));
  }

  /**
   * Maps a file's payload, checking its fields and sizes but not its buckets (verify() does).
   *
   * @throws CorruptFilterException if a field disagrees with the spec or the payload's length
   */
  static SemiSortedFilter.Mapped open(FilterSpec spec, MappedPayload payload) throws IOException {
    int bits = spec.fingerprintBits().getAsInt();
    return SemiSortedFilter.mapped(spec, TablePayload.open(payload, SemiSortedProvider.NAME,
        spec.capacity().getAsLong(), SemiSortedTable.SLOTS, bits, ShardedTable.shardsOf(spec),
        new PayloadWords(bits)));
  }

  /**
   * {@link SemiSortedTable#payloadWords} of a width, as {@link TablePayload#open} asks for it: a
   * class rather than a lambda, which would be a class spun at run time on a process's first open.
   */
  private static final class PayloadWords implements LongUnaryOperator {
    private final int bits;

    PayloadWords(int bits) {
      this.bits = bits;
    }

    @Override
    public long applyAsLong(long buckets) {
      return SemiSortedTable.payloadWords(buckets, bits);
    }
  }
}
