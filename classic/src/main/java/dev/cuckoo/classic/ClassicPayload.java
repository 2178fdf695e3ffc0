package dev.cuckoo.classic;

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
 * The file payload of a classic filter, written and read here.
 *
 * <p>The layout is the engine's {@link TablePayload} (layout, bucket count, items, table
 * length, table, stash), with the table as {@link BucketTable} describes it: {@code W =
 * ceil(m·b·f / 64)} longs, slot {@code s} of bucket {@code k} in bits {@code [(k·b + s)·f, (k·b +
 * s + 1)·f)} of the longs read as one little-endian bit string, 0 an empty slot, and nothing set
 * after the last slot. Every table class writes this same layout, whatever it keeps in memory.
 */
final class ClassicPayload {
  private ClassicPayload() {}

  /** @return the bytes {@link #write} writes for this table, whatever its stash holds */
  static long length(BucketTable table) {
    return TablePayload.alignedLength(BucketTable.payloadWords(table.bucketCount, table.slots, table.bits));
  }

  /** Writes the payload of a filter of this spec holding {@code items} in this table and stash. */
  static void write(PayloadOutput out, FilterSpec spec, BucketTable table, long items, FingerprintStash stash)
      throws IOException {
    long words = BucketTable.payloadWords(table.bucketCount, table.slots, table.bits);
    TablePayload.write(out, spec.capacity().getAsLong(), table.slots, table.bits, ShardedTable.shardsOf(spec),
        table.bucketCount, items, words, table::writePayloadWords, stash);
  }

  /** Writes the payload of the filter whose shards {@code source} gives ({@link TableShard#join}). */
  static void join(FilterSpec spec, FilterShard.Source source, PayloadOutput out) throws IOException {
    long buckets = ClassicFilter.newBucketCount(spec);
    TableShard.join(spec, spec.bucketSize().getAsInt(), spec.fingerprintBits().getAsInt(), ShardedTable.shardsOf(spec),
        buckets, payloadWords(spec, buckets), source, out);
  }

  /**
   * Reads a payload, checking every size against the spec before allocating, the bits past the
   * table's last slot, and the items declared against the fingerprints held.
   *
   * @param spec the resolved spec the file records
   * @param in the payload
   * @return the filter
   * @throws CorruptFilterException if anything disagrees
   * @throws IOException if reading fails
   * @throws IllegalArgumentException if the table is more than the heap holds ({@link
   *     ClassicFilter#requireHeapTable}): such a file is mapped, not read
   */
  static ClassicFilter read(FilterSpec spec, PayloadInput in) throws IOException {
    ClassicFilter.requireHeapTable(spec);
    int slots = spec.bucketSize().getAsInt();
    int bits = spec.fingerprintBits().getAsInt();
    TablePayload.Contents contents = TablePayload.read(in, ClassicProvider.NAME, spec.capacity().getAsLong(), slots,
        bits, ShardedTable.shardsOf(spec), m -> BucketTable.payloadWords(m, slots, bits), m -> BucketTable.allocatedWords(m, slots, bits));
    BucketTable table = BucketTable.wrap(contents.buckets(), slots, bits, contents.words());
    if (!table.tailIsClear()) {
      throw new CorruptFilterException(ClassicProvider.NAME + " payload has bits set after the last slot of its table");
    }
    TablePayload.requireItems(ClassicProvider.NAME, contents, table.occupiedSlots());
    return ClassicFilter.of(spec, table, contents.stash(), contents.items());
  }

  /** Rewrites a payload of an earlier format version as one that maps ({@link TablePayload#realign}). */
  static void realign(FilterSpec spec, PayloadInput in, MappedPayload.Factory out) throws IOException {
    int slots = spec.bucketSize().getAsInt();
    int bits = spec.fingerprintBits().getAsInt();
    TablePayload.realign(in, out, ClassicProvider.NAME, spec.capacity().getAsLong(), slots, bits,
        ShardedTable.shardsOf(spec), new PayloadWords(slots, bits));
  }

  /** @return the bytes of the payload of a new filter of the spec in a mapped file */
  static long mappedLength(FilterSpec spec) {
    return TablePayload.alignedLength(payloadWords(spec, ClassicFilter.newBucketCount(spec)));
  }

  private static long payloadWords(FilterSpec spec, long buckets) {
    return BucketTable.payloadWords(buckets, spec.bucketSize().getAsInt(), spec.fingerprintBits().getAsInt());
  }

  /** Writes a new, empty payload into a mapped file and maps its table. */
  static ClassicFilter.Mapped create(FilterSpec spec, MappedPayload payload) throws IOException {
    long buckets = ClassicFilter.newBucketCount(spec);
    return ClassicFilter.mapped(spec, TablePayload.create(payload, ClassicProvider.NAME, spec.capacity().getAsLong(),
        spec.bucketSize().getAsInt(), spec.fingerprintBits().getAsInt(), ShardedTable.shardsOf(spec), buckets,
        payloadWords(spec, buckets)));
  }

  /**
   * Maps a file's payload, checking its fields and sizes but not its table.
   *
   * @throws CorruptFilterException if a field disagrees with the spec or the payload's length
   */
  static ClassicFilter.Mapped open(FilterSpec spec, MappedPayload payload) throws IOException {
    int slots = spec.bucketSize().getAsInt();
    int bits = spec.fingerprintBits().getAsInt();
    return ClassicFilter.mapped(spec, TablePayload.open(payload, ClassicProvider.NAME, spec.capacity().getAsLong(),
        slots, bits, ShardedTable.shardsOf(spec), new PayloadWords(slots, bits)));
  }

  /**
   * {@link BucketTable#payloadWords} of a shape, as {@link TablePayload#open} asks for it: a class
   * rather than a lambda, which would be a class spun at run time on a process's first open.
   */
  private static final class PayloadWords implements LongUnaryOperator {
    private final int slots;
    private final int bits;

    PayloadWords(int slots, int bits) {
      this.slots = slots;
      this.bits = bits;
    }

    @Override
    public long applyAsLong(long buckets) {
      return BucketTable.payloadWords(buckets, slots, bits);
    }
  }
}
