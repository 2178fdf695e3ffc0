package dev.cuckoo.engine;

import dev.cuckoo.Concurrency;
import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.Durability;
import dev.cuckoo.FileRecovery;
import dev.cuckoo.FilterShard;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.MappedFilter;
import dev.cuckoo.engine.file.TableFile;
import dev.cuckoo.engine.file.TablePayload;
import dev.cuckoo.engine.sharded.ShardedTable;
import dev.cuckoo.engine.sharded.TableShard;
import dev.cuckoo.spi.ConfigValues;
import dev.cuckoo.spi.FilterProvider;
import dev.cuckoo.spi.MappedPayload;
import dev.cuckoo.spi.PayloadInput;
import dev.cuckoo.spi.PayloadOutput;
import dev.cuckoo.spi.SpecSchema;
import java.io.IOException;
import java.util.OptionalLong;
import java.util.function.LongFunction;
import java.util.function.LongUnaryOperator;

/**
 * The provider of a variant that is one {@link BitStringTable} and a stash: everything such a
 * provider does but encode its table is here, once. A variant gives its name and description
 * (to the constructor), its schema and validation (as any {@link FilterProvider}), and what only
 * its encoding knows: the bucket count
 * of a new table ({@link #newBucketCount}), the words a table of a bucket count takes ({@link
 * #payloadWords}) and the bits of one of its buckets ({@link #bucketBits}), its table class for a
 * shape over any {@link TableWords} ({@link #wrap}), and its filter class for a heap table without
 * concurrency ({@link #lookups}). This class then checks that a table fits in a file ({@link
 * #requireMappedTable}), creates filters on the heap (refusing a table larger than one array),
 * reads them, builds and joins shards, creates and
 * maps files and rewrites older ones, all in the engine's {@code TablePayload} layout, and {@link
 * TableFilter#compose} makes every combination of storage, shards and concurrency.
 */
public abstract class TableProvider implements FilterProvider {

  private final String name;
  private final String description;

  /**
   * For a variant's provider, which {@link java.util.ServiceLoader} makes.
   *
   * @param name the variant's name, as {@link #name} gives it
   * @param description what {@link #description} gives
   */
  protected TableProvider(String name, String description) {
    this.name = name;
    this.description = description;
  }

  /**
   * Adds to a variant's schema the keys whose meaning is the engine's, the same for every table
   * variant: {@code maxKicks} 0..100000 (default {@link CuckooSizing#MIN_KICKS}), {@code hash}
   * (default {@code xxh3}), {@code concurrency} with {@code striped} as its thread-safe mode,
   * {@code shards} 1..{@link CuckooSizing#MAX_SHARDS} and {@code durability}.
   *
   * @param schema the variant's schema, with its capacity, widths and bucket sizes
   * @return it, with the engine's keys
   */
  protected static SpecSchema.Builder withTableKeys(SpecSchema.Builder schema) {
    return schema.maxKicks(0, 100_000, CuckooSizing.MIN_KICKS)
        .defaultHash("xxh3")
        .threadSafeMode(Concurrency.STRIPED)
        .shards(CuckooSizing.MAX_SHARDS)
        .durability();
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final String description() {
    return description;
  }

  /**
   * @param resolved a resolved spec
   * @return the bucket count of a new table of that spec, all shards together: even, and a
   *     multiple of twice the shards
   */
  protected abstract long newBucketCount(FilterSpec resolved);

  /**
   * @param resolved a resolved spec
   * @param buckets a bucket count
   * @return the longs a table of that shape and bucket count takes in the payload
   */
  protected abstract long payloadWords(FilterSpec resolved, long buckets);

  /**
   * @param resolved a resolved spec
   * @return the bits of one bucket of its table, as {@link #payloadWords} packs them: what
   *     bounds the capacity a heap array or a file holds
   */
  protected abstract long bucketBits(FilterSpec resolved);

  /**
   * @param resolved a resolved spec
   * @return its shape as a refusal names it, as {@code fingerprintBits=8 and bucketSize=4}
   */
  protected abstract String shape(FilterSpec resolved);

  /**
   * The table of a shape over words, of the fastest class for it.
   *
   * @param resolved a resolved spec
   * @param buckets the bucket count
   * @param words {@link #payloadWords} longs, on the heap or mapped
   * @return the table
   */
  protected abstract BitStringTable wrap(FilterSpec resolved, long buckets, TableWords words);

  /**
   * New zeroed words on the heap for a table of the spec, in the storage its table class reads
   * fastest, so that {@link #wrap} takes them as they are rather than copying them into another
   * ({@link TableWords#withFastInts}): {@link TableWords#onHeap} unless overridden.
   *
   * @param resolved a resolved spec
   * @param length {@link #payloadWords} longs
   * @return the words
   */
  protected TableWords newHeapWords(FilterSpec resolved, long length) {
    return TableWords.onHeap(length);
  }

  /**
   * The variant's filter for a heap table without concurrency: a class that names the table's
   * final class, so that a lookup reaches it with no type check ({@link TableFilter}).
   *
   * @param parts what the filter is made of, its table made by {@link #wrap}
   * @return the filter
   */
  protected abstract TableFilter lookups(TableFilter.Parts parts);

  /**
   * Refuses a spec whose table is more than a file holds ({@link CuckooSizing#MAX_MAPPED_WORDS}):
   * what a variant's {@link #validate} checks once its schema has resolved the spec. Whether the
   * table also fits on the heap, in one array, is checked where a filter is made on the heap
   * ({@link #requireHeapTable}).
   *
   * @param resolved the spec as the variant's schema resolved it
   * @return the spec
   * @throws IllegalArgumentException naming the capacity, the largest one a file takes at that
   *     shape, and the shape
   */
  protected final FilterSpec requireMappedTable(FilterSpec resolved) {
    long capacity = resolved.capacity().getAsLong();
    long max = maxCapacity(resolved, CuckooSizing.MAX_MAPPED_WORDS);
    if (capacity > max) {
      throw ConfigValues.outOfRange(FilterSpec.CAPACITY, capacity, name(), "1.." + max + " with " + shape(resolved)
          + " (the table, in a file, is at most " + CuckooSizing.MAX_MAPPED_WORDS + " longs)");
    }
    return resolved;
  }

  /** @return the largest capacity of the spec's shape whose table takes at most this many longs */
  private long maxCapacity(FilterSpec resolved, long maxWords) {
    return CuckooSizing.maxCapacity(resolved.bucketSize().getAsInt(), resolved.fingerprintBits().getAsInt(),
        bucketBits(resolved), maxWords);
  }

  /**
   * Refuses a spec whose table is more than one array on the heap holds: such a filter lives in
   * a file.
   *
   * @param resolved the resolved spec
   * @throws IllegalArgumentException naming the largest capacity the heap takes at that shape,
   *     and {@code CuckooFilters.createFile} and {@code open}
   */
  protected final void requireHeapTable(FilterSpec resolved) {
    long capacity = resolved.capacity().getAsLong();
    long max = maxCapacity(resolved, CuckooSizing.MAX_HEAP_WORDS);
    // The bound is for one table: a sharded one is sized with slack per shard, so its words are
    // checked too.
    if (capacity > max || heapWords(resolved) > CuckooSizing.MAX_HEAP_WORDS) {
      int shards = CuckooSizing.shardsOf(resolved);
      throw tooLargeForHeap(name(), capacity, shape(resolved)
          + (shards > 1 ? " (less in " + shards + " shards)" : ""), max);
    }
  }

  /** @return the longs a new heap table of the spec allocates: its words and a padding word */
  private long heapWords(FilterSpec resolved) {
    return payloadWords(resolved, newBucketCount(resolved)) + 1;
  }

  /**
   * {@inheritDoc} What {@link #create} allocates, which its filter's {@code sizeInBytes} then
   * reports: the table's words, the alternate offsets that go with them, and the stash.
   */
  @Override
  public final OptionalLong memoryToCreate(FilterSpec resolved) {
    requireHeapTable(resolved);
    long table = Long.BYTES * heapWords(resolved);
    return OptionalLong.of(table
        + PartialKeyHashing.alternateOffsetsBytes(newBucketCount(resolved), resolved.fingerprintBits().getAsInt(), table)
        + FingerprintStash.memoryBytes(FingerprintStash.DEFAULT_SLOTS));
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException for a table larger than one array holds ({@link
   *     #requireHeapTable})
   */
  @Override
  public final CuckooFilter create(FilterSpec resolved) {
    requireHeapTable(resolved);
    long buckets = newBucketCount(resolved);
    BitStringTable table = wrap(resolved, buckets, newHeapWords(resolved, payloadWords(resolved, buckets)));
    return TableFilter.compose(resolved, table, new FingerprintStash(FingerprintStash.DEFAULT_SLOTS), 0, this);
  }

  /** {@inheritDoc} Every shape can be built in shards: a shard is a table of one shard's buckets. */
  @Override
  public final FilterShard createShard(FilterSpec resolved, int index) {
    int shards = CuckooSizing.shardsOf(resolved);
    long buckets = newBucketCount(resolved) / shards;
    long words = payloadWords(resolved, buckets);
    TableShard.requireHeapShard(resolved, words + 1, CuckooSizing.MAX_HEAP_WORDS);
    BitStringTable table = wrap(resolved, buckets, newHeapWords(resolved, words));
    return new TableShard(resolved, ShardedTable.shard(table, shards, index, resolved.fingerprintBits().getAsInt(),
        table.words().bytes()), words, o -> table.words().writeTo(o, words));
  }

  @Override
  public final void joinShards(FilterSpec resolved, FilterShard.Source source, PayloadOutput out) throws IOException {
    long buckets = newBucketCount(resolved);
    TableShard.join(resolved, resolved.bucketSize().getAsInt(), resolved.fingerprintBits().getAsInt(),
        CuckooSizing.shardsOf(resolved), buckets, payloadWords(resolved, buckets), source, out);
  }

  /**
   * {@inheritDoc} Checks every size against the spec before allocating ({@code
   * TablePayload.read}), the bits past the table's last bucket, the table's encoding, and the
   * items declared against the fingerprints held.
   *
   * @throws CorruptFilterException if anything disagrees
   * @throws IllegalArgumentException if the table is more than the heap holds ({@link
   *     #requireHeapTable}): such a file is mapped, not read
   */
  @Override
  public final CuckooFilter read(FilterSpec resolved, PayloadInput payload) throws IOException {
    requireHeapTable(resolved);
    PayloadWords shape = new PayloadWords(this, resolved);
    TablePayload.Contents contents = TablePayload.read(payload, name(), resolved.capacity().getAsLong(),
        resolved.bucketSize().getAsInt(), resolved.fingerprintBits().getAsInt(), CuckooSizing.shardsOf(resolved),
        shape, shape);
    BitStringTable table = wrap(resolved, contents.buckets(), contents.words());
    if (!table.tailIsClear()) {
      throw new CorruptFilterException(name() + " payload has bits set after the last bucket of its table");
    }
    table.requireEncoding(name());
    TablePayload.requireItems(name(), contents, table.occupiedSlots());
    return TableFilter.compose(resolved, table, contents.stash(), contents.items(), this);
  }

  /** {@inheritDoc} Yes: every shape, stash included. */
  @Override
  public final boolean mapsFiles() {
    return true;
  }

  @Override
  public final OptionalLong mappedPayloadLength(FilterSpec resolved) {
    return OptionalLong.of(TablePayload.alignedLength(payloadWords(resolved, newBucketCount(resolved))));
  }

  /**
   * {@inheritDoc} Writes a new, empty payload into the file and maps its table; the envelope
   * forces the new filter, which seals the file, before anyone can open it.
   */
  @Override
  public final MappedFilter createIn(FilterSpec resolved, MappedPayload payload) throws IOException {
    long buckets = newBucketCount(resolved);
    return mapped(resolved, TablePayload.create(payload, name(), resolved.capacity().getAsLong(),
        resolved.bucketSize().getAsInt(), resolved.fingerprintBits().getAsInt(), CuckooSizing.shardsOf(resolved),
        buckets, payloadWords(resolved, buckets), isMachineDurable(resolved)));
  }

  /**
   * {@inheritDoc} Checks the payload's fields and sizes, not its table: {@code verify()} does.
   *
   * @throws CorruptFilterException if a field disagrees with the spec or the payload's length
   */
  @Override
  public final MappedFilter open(FilterSpec resolved, MappedPayload payload) throws IOException {
    return mapped(resolved, contents(resolved, payload));
  }

  private TablePayload.MappedContents contents(FilterSpec resolved, MappedPayload payload) throws IOException {
    return TablePayload.open(payload, name(), resolved.capacity().getAsLong(), resolved.bucketSize().getAsInt(),
        resolved.fingerprintBits().getAsInt(), CuckooSizing.shardsOf(resolved), new PayloadWords(this, resolved),
        isMachineDurable(resolved));
  }

  /**
   * @param resolved a resolved spec
   * @return whether it asks for {@code durability=machine}
   * @throws IllegalArgumentException if it asks for it with {@code concurrency=striped}
   */
  private static boolean isMachineDurable(FilterSpec resolved) {
    boolean machine = resolved.durability() == Durability.MACHINE;
    if (machine && TableFilter.isStriped(resolved)) {
      throw new IllegalArgumentException(FilterSpec.DURABILITY + "=" + Durability.MACHINE + " with "
          + FilterSpec.CONCURRENCY + "=" + resolved.concurrency().get().configValue() + " is not supported: a"
          + " machine-durable file maps the table afresh after a force, which lookups of other threads may be"
          + " inside; use " + FilterSpec.CONCURRENCY + "=none (one thread at a time) or " + FilterSpec.DURABILITY
          + "=" + Durability.PROCESS);
    }
    return machine;
  }

  /**
   * {@inheritDoc} The file's undo records put back, a clear cut short finished ({@code
   * TableFile.recover}), the table checked whole (the bits past its last slot and its encoding),
   * its items recounted, the file forced. A merge cut short stays recorded, for the same merge to
   * finish.
   */
  @Override
  public final MappedFilter recover(FilterSpec resolved, MappedPayload payload) throws IOException {
    if (isMachineDurable(resolved)) {
      throw new IllegalArgumentException(payload.path() + " is durability=" + Durability.MACHINE + ": its journal,"
          + " not its writer's stores, brings it back");
    }
    TablePayload.MappedContents contents = contents(resolved, payload);
    TableFile file = contents.file();
    TableFile.Restored restored = file.recover();
    BitStringTable table = wrap(resolved, contents.buckets(), contents.words());
    String what = file.path() + ": " + name();
    if (!table.tailIsClear()) {
      throw new CorruptFilterException(what + " payload has bits set after the last slot of its table, which no"
          + " writer stores to: it is damaged, not left by a writer that stopped; rebuild it");
    }
    table.requireEncoding(what);
    MappedFilter filter = (MappedFilter) TableFilter.recovered(resolved, table, contents.stash(), file, this);
    filter.force();
    StringBuilder said = new StringBuilder(file.path() + ": recovered: its writer stopped before it forced or closed"
        + " it; it holds " + String.format(java.util.Locale.ROOT, "%,d", filter.size())
        + (filter.size() == 1 ? " key" : " keys") + " and is consistent again");
    if (restored.clearFinished()) {
      said.append("; it was in the middle of clear(), which was finished");
    }
    if (restored.rewrites() > 0) {
      said.append("; ").append(restored.rewrites()).append(restored.rewrites() == 1 ? " bucket" : " buckets")
          .append(" it was in the middle of rewriting put back as they were");
    }
    long merged = file.unfinishedMerge();
    if (merged >= 0) {
      said.append("; it was in the middle of a merge (addAll), which had moved ")
          .append(String.format(java.util.Locale.ROOT, "%,d", merged))
          .append(" entries: merge the same filter again to finish it");
    } else if (file.finishedMergeLeft()) {
      said.append("; it had finished a merge (addAll) it may not have seen return: merging the same filter"
          + " again moves nothing");
    }
    file.recovered(new FileRecovery(FileRecovery.Cause.WRITER_STOPPED, filter.size(), said.toString()));
    return filter;
  }

  private MappedFilter mapped(FilterSpec resolved, TablePayload.MappedContents contents) {
    BitStringTable table = wrap(resolved, contents.buckets(), contents.words());
    return (MappedFilter) TableFilter.compose(resolved, table, contents.stash(), contents.items(), contents.file(),
        this);
  }

  /** Rewrites a payload of an earlier format version as one that maps ({@code TablePayload.realign}). */
  @Override
  public final void realign(FilterSpec resolved, PayloadInput in, MappedPayload.Factory out) throws IOException {
    TablePayload.realign(in, out, name(), resolved.capacity().getAsLong(), resolved.bucketSize().getAsInt(),
        resolved.fingerprintBits().getAsInt(), CuckooSizing.shardsOf(resolved), new PayloadWords(this, resolved));
  }

  /**
   * {@link #payloadWords} and {@link #newHeapWords} of a spec, as {@code TablePayload} asks for
   * them: a class rather than a lambda, which would be a class spun at run time on a process's first open.
   */
  private static final class PayloadWords implements LongUnaryOperator, LongFunction<TableWords> {
    private final TableProvider provider;
    private final FilterSpec resolved;

    PayloadWords(TableProvider provider, FilterSpec resolved) {
      this.provider = provider;
      this.resolved = resolved;
    }

    @Override
    public long applyAsLong(long buckets) {
      return provider.payloadWords(resolved, buckets);
    }

    @Override
    public TableWords apply(long length) {
      return provider.newHeapWords(resolved, length);
    }
  }

  /**
   * The refusal of a filter on the heap whose table would be more than one array holds ({@link
   * CuckooSizing#MAX_HEAP_WORDS}), for a spec whose table a file can hold: it names the largest capacity the
   * heap takes at that shape and how to have the larger filter.
   *
   * @param variant the variant
   * @param capacity the spec's capacity
   * @param shape the rest of the shape, as {@code fingerprintBits=8 and bucketSize=4}
   * @param maxHeapCapacity the largest capacity whose table one array holds at that shape
   * @return the exception to throw
   */
  private static IllegalArgumentException tooLargeForHeap(String variant, long capacity, String shape,
      long maxHeapCapacity) {
    return ConfigValues.outOfRange(FilterSpec.CAPACITY, capacity, variant, "1.." + maxHeapCapacity + " with " + shape
        + " for a filter on the heap, whose table is one array of at most " + CuckooSizing.MAX_HEAP_WORDS + " longs; a larger"
        + " table lives in a file: CuckooFilters.createFile builds it, CuckooFilters.open maps its file");
  }
}
