package dev.cuckoo;

import dev.cuckoo.internal.FilterFile;
import dev.cuckoo.internal.HeapRoom;
import dev.cuckoo.internal.MappedFiles;
import dev.cuckoo.internal.ProviderRegistry;
import dev.cuckoo.spi.FilterProvider;
import dev.cuckoo.spi.HashStrategy;
import dev.cuckoo.spi.HashStrategyProvider;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Collector;

/**
 * Entry point: creates filters from a configuration, reads them from files, and lists the
 * variants and hashes installed.
 *
 * <pre>{@code
 * CuckooFilter f = CuckooFilters.create("classic?capacity=1000000&fingerprintBits=12");
 * f.add("alice");
 * f.mightContain("alice");   // true
 * }</pre>
 *
 * <p>Variants ({@link FilterProvider}) and hashes ({@link HashStrategyProvider}) are found with
 * {@link java.util.ServiceLoader} the first time they are needed, on the class path and the
 * module path alike: putting a variant's jar next to this one installs it.
 */
public final class CuckooFilters {
  private CuckooFilters() {}

  /**
   * Creates an empty filter from a config string such as {@code
   * classic?capacity=1000000&fingerprintBits=12&bucketSize=4&hash=xxh3}.
   *
   * @param config the config string; see {@link FilterSpec#parse(String)}
   * @return the filter
   * @throws IllegalArgumentException naming the key, the value and what is allowed, if the
   *     string is malformed, a value is out of range, or the variant or hash is not installed;
   *     or as {@link #create(FilterSpec)} does if the heap cannot hold the filter
   */
  public static CuckooFilter create(String config) {
    return create(spec(config));
  }

  /**
   * Parses a config string as every method here that takes one does: as {@link
   * FilterSpec#parse}, but a value no variant takes is reported with the range of the spec's
   * variant when that is installed, as the variant reports a value outside its own range.
   *
   * @param config the config string
   * @return the spec, not yet resolved
   * @throws IllegalArgumentException naming the key, the value and what is allowed
   */
  public static FilterSpec spec(String config) {
    try {
      return FilterSpec.parse(config);
    } catch (FilterSpec.ValueOutOfRange e) {
      throw inVariantRange(e);
    }
  }

  /** @return the refusal of a value no variant takes, with the installed variant's range if there is one */
  private static IllegalArgumentException inVariantRange(FilterSpec.ValueOutOfRange e) {
    java.util.Optional<dev.cuckoo.spi.SpecSchema> schema = ProviderRegistry.installedSchema(e.variant);
    if (schema.isEmpty()) {
      return e;
    }
    return dev.cuckoo.spi.ConfigValues.outOfRange(e.key, e.value, e.variant, schema.get().allowed(e.key) + e.why);
  }

  /**
   * The hash a spec names: the instance it holds, or the installed hash of its name built with
   * its seed (0 if it names none). A spec is a value and looks nothing up; this does.
   *
   * @param spec a spec that names a hash, as every resolved spec ({@link CuckooFilter#spec()}) does
   * @return the hash
   * @throws IllegalStateException if the spec names no hash
   * @throws IllegalArgumentException if no installed hash has that name, listing those that are
   */
  public static HashStrategy hashOf(FilterSpec spec) {
    return ProviderRegistry.hashOf(Objects.requireNonNull(spec, "spec must not be null"));
  }

  /**
   * Creates an empty filter.
   *
   * @param spec the configuration; what it leaves out, the variant fills in
   * @return the filter, whose {@link CuckooFilter#spec()} is the resolved spec
   * @throws IllegalArgumentException if the variant is not installed or rejects the spec, or if
   *     the heap cannot hold the filter: the message then names the bytes it needs, the heap's
   *     maximum and the same config with a capacity that fits
   */
  public static CuckooFilter create(FilterSpec spec) {
    ProviderRegistry.Resolved r = ProviderRegistry.resolve(spec);
    return HeapRoom.create(r.provider(), r.spec());
  }

  /**
   * Creates an empty filter from properties: {@code prefix + "variant"} names the variant and
   * {@code prefix + key} sets each key of the config string.
   *
   * @param properties where to read
   * @param prefix the keys' common prefix, e.g. {@code "cuckoo."}; may be empty
   * @return the filter
   * @throws IllegalArgumentException as {@link #create(String)} does, or if the variant
   *     property is missing
   * @see FilterSpec#fromProperties(Properties, String)
   */
  public static CuckooFilter fromProperties(Properties properties, String prefix) {
    try {
      return create(FilterSpec.fromProperties(properties, prefix));
    } catch (FilterSpec.ValueOutOfRange e) {
      throw inVariantRange(e);
    }
  }

  /**
   * Reads a filter of any installed variant from the common file format (its layout is in the
   * guide's file-format chapter), stopping right after the file's last byte.
   *
   * @param in where to read; not closed
   * @return the filter
   * @throws CorruptFilterException if the input is truncated, corrupted, forged, of an unknown
   *     variant or format version, or names a hash that is not installed; or if the installed
   *     hash of that name and seed is not the one the filter was written with (the file records
   *     a check of its hash: a filter built with a {@link HashStrategy} instance is read with
   *     {@link #read(InputStream, HashStrategy)})
   * @throws IllegalArgumentException if the file is sound but its table is more than a filter on
   *     the heap holds (one Java array): {@link #open} maps such a file
   * @throws IOException if reading fails
   */
  public static CuckooFilter read(InputStream in) throws IOException {
    return FilterFile.read(in, null);
  }

  /**
   * Reads a filter whose hash is given rather than looked up by name: for filters built with a
   * {@link HashStrategy} instance that no {@link HashStrategyProvider} installs.
   *
   * @param in where to read; not closed
   * @param hash the hash the filter was built with; its name must match the file's, and it must
   *     hash as the filter's hash did (same function, same seed): the file's hash check is
   *     compared with it (files of 0.1.0 have none)
   * @return the filter
   * @throws CorruptFilterException as {@link #read(InputStream)} does, or if the file names
   *     another hash or {@code hash} does not reproduce the file's hash check
   * @throws IOException if reading fails
   */
  public static CuckooFilter read(InputStream in, HashStrategy hash) throws IOException {
    return FilterFile.read(in, Objects.requireNonNull(hash, "hash must not be null"));
  }

  /**
   * Maps a filter file read-only, in milliseconds whatever its size: checks the header, its
   * checksum, the hash check and the file's length against the header, and the variant's fields,
   * but reads no table; the table's pages are read by the lookups that touch them, from the page
   * cache that every process mapping the file shares. It answers every lookup as {@link #read}
   * of the same file would. The whole file's checksum is checked by {@link MappedFilter#verify}.
   *
   * <pre>{@code
   * try (MappedFilter f = CuckooFilters.open(Path.of("urls.cuckoo"))) {
   *   f.mightContain("https://example.com/");
   * }
   * }</pre>
   *
   * <p>A file whose last writer stopped while it was marked as being changed is recovered first
   * ({@link #recover}), when this process may write it: the filter's {@link
   * MappedFilter#recovery} then says what was done.
   *
   * @param path a filter file of format version 3, which {@link CuckooFilter#writeTo} writes
   *     for the variants that can be mapped
   * @return the filter, read-only: writes throw {@link UnsupportedOperationException}
   * @throws CorruptFilterException if the file is damaged, truncated, of another length than its
   *     header says, or names a variant or hash that is not installed; or was left being changed
   *     by a writer that stopped between forces and cannot be recovered ({@link #recover}: the
   *     machine restarted since, or this process may not write the file, which the message says)
   * @throws UnsupportedOperationException if the variant cannot be mapped (the message names
   *     those that can; {@link #read} still reads it), or the file is of an older format version
   *     (the message says how to convert it)
   * @throws IOException if reading fails, or a writer has the file open and has changed it since
   *     its last force (the message says so)
   */
  public static MappedFilter open(java.nio.file.Path path) throws IOException {
    return MappedFiles.open(path, false);
  }

  /**
   * Maps a filter file read-write, as {@link #open} does: adds and removes change the file through
   * the mapping, {@link MappedFilter#force} makes them durable, {@link MappedFilter#close} forces
   * and closes. The file is locked against other writers while open. A file whose writer stopped
   * before it forced or closed it is recovered first ({@link #recover}), and the filter's {@link
   * MappedFilter#recovery} says what was done. A {@code durability=machine} file keeps its journal
   * ({@code FILE.journal}) beside it while it is open: a folder the journal cannot be made in is
   * refused here, not at the first force.
   *
   * @param path a filter file of format version 3
   * @return the filter
   * @throws CorruptFilterException as {@link #open} does
   * @throws UnsupportedOperationException as {@link #open} does
   * @throws IOException if reading fails, another process holds the file open for writing, or a
   *     machine-durable file's journal cannot be made (naming its folder)
   */
  public static MappedFilter openWritable(java.nio.file.Path path) throws IOException {
    return MappedFiles.open(path, true);
  }

  /**
   * Brings back a file whose writer stopped (killed, out of memory, halted, its machine crashed)
   * without forcing or closing it, as the next {@link #openWritable} would, and closes it:
   *
   * <ul>
   *   <li>{@code durability=process}, the writer's process stopped: the file holds every key whose
   *       add had returned (a writer's stores reach the file however its process ends, and every
   *       store it makes keeps each stored fingerprint in one of its slots). Recovery puts back a
   *       bucket rewrite the writer was in the middle of, finishes a {@code clear()} it was in the
   *       middle of (the filter is then empty), recounts the items, rebuilds the checksum and
   *       marks the file consistent. A merge it was in the middle of stays recorded ({@link
   *       MappedFilter#unfinishedMerge}). If the machine stopped instead (a power loss, a kernel
   *       crash), the pages written since the last force may have reached the disk in any order or
   *       not at all, and the file is refused.
   *   <li>{@code durability=machine}: a force cut short after its journal was whole is finished
   *       from the journal; a journal left beside a consistent file is removed. The file holds
   *       what the last force left.
   * </ul>
   *
   * <p>{@link #open} and {@link #openWritable} do the same when they find such a file; {@code
   * cuckoo recover FILE} is this method.
   *
   * @param path a filter file
   * @return what was done, or empty if the file was consistent and no journal lay beside it (its
   *     last writer forced or closed it), or is of format version 1 or 2, which no writer changes
   *     in place
   * @throws CorruptFilterException if the file is not a filter file, is damaged (cut short, say),
   *     or cannot be recovered (a process-durable file whose machine stopped; a machine-durable
   *     file marked but without a whole journal)
   * @throws IOException if a writer has the file open now, or reading or writing fails
   */
  public static java.util.Optional<FileRecovery> recover(java.nio.file.Path path) throws IOException {
    return MappedFiles.recover(path);
  }

  /**
   * Creates a file holding a new, empty filter and maps it read-write: the way to build a filter
   * larger than the heap. The file is made whole under a hidden name beside it ({@code
   * .NAME.creating}) and renamed into place once it is: a creation cut short, by a failure or a
   * crash, leaves no file at {@code path}. It takes all its room on disk at once (zeros are
   * written over its whole length, which costs a pass of writes: the guide's "Files that map"
   * gives the figures), so that no later store into its mapping meets a full disk, which would
   * fault in the JVM rather than fail as a write.
   *
   * @param config the config string, as for {@link #create(String)}
   * @param path the file, which must not exist yet
   * @return the filter, writable
   * @throws IllegalArgumentException as {@link #create(String)} does for a bad config (the heap is
   *     not consulted: the table is the file)
   * @throws UnsupportedOperationException if the variant cannot be mapped, naming those that can
   * @throws java.nio.file.FileAlreadyExistsException if the file exists
   * @throws IOException if another process is creating it, or the file cannot be written (naming
   *     the cause; for a full disk, the bytes the file needs)
   */
  public static MappedFilter createFile(String config, java.nio.file.Path path) throws IOException {
    return MappedFiles.createFile(ProviderRegistry.resolve(spec(config)), path);
  }

  /**
   * Writes a filter file again, to a new file, in the current format version of its variant:
   * version 3 for the variants that map ({@code classic}, {@code semi-sorted}), whose table is then
   * aligned so that {@link #open} maps it; version 2 for the others, which are read, never mapped,
   * and whose files version 2 already is. A file of format version 1 or 2 of a variant that maps
   * is converted streaming: its table goes through a fixed buffer into the new file, so a file of
   * any size converts without the heap holding it. The new file is then checked whole, as {@link
   * MappedFilter#verify} checks a file.
   *
   * <pre>{@code
   * CuckooFilters.convert(Path.of("old.cuckoo"), Path.of("new.cuckoo"));
   * try (MappedFilter f = CuckooFilters.open(Path.of("new.cuckoo"))) { ... }
   * }</pre>
   *
   * @param from the filter file to read, of any format version this library reads
   * @param to the file to write, which must not exist yet; it is removed if the conversion fails
   * @return the format version written: 3, or 2 for a variant that does not map
   * @throws CorruptFilterException as {@link #read} does, the message naming {@code from}
   * @throws IllegalArgumentException as {@link #read} does, if the file of a variant that does not
   *     map holds a filter larger than the heap
   * @throws IOException if {@code to} exists, or reading or writing fails
   */
  public static int convert(java.nio.file.Path from, java.nio.file.Path to) throws IOException {
    return MappedFiles.convert(from, to);
  }

  /**
   * The key hasher and shard router of a config: hashes keys as a filter of that config does
   * and names the shard of a hash.
   *
   * @param config the config string, as for {@link #create(String)}
   * @return the router; {@link ShardRouter#shards()} is 1 for a config without {@code shards}
   * @throws IllegalArgumentException as {@link #create(String)} does for a bad config
   */
  public static ShardRouter keyHasher(String config) {
    FilterSpec spec = ProviderRegistry.resolve(spec(config)).spec();
    return new ShardRouter(ProviderRegistry.hashOf(spec), shardsOf(spec));
  }

  /**
   * Creates one empty shard of a sharded filter ({@code shards=S} in the config), to be filled
   * from key hashes and written apart from the others; {@link #joinShards} makes the filter.
   * Every shard of a filter must be created from the same config.
   *
   * @param config the whole filter's config string, e.g. {@code
   *     classic?capacity=10000000000&fingerprintBits=16&shards=4096}
   * @param index the shard, in {@code [0, S)}
   * @return the shard, holding about {@code 1/S} of the filter's table
   * @throws IllegalArgumentException as {@link #create(String)} does for a bad config, or if the
   *     index is out of range (the message names the range)
   * @throws UnsupportedOperationException if the variant cannot be built in shards
   */
  public static FilterShard createShard(String config, int index) {
    ProviderRegistry.Resolved r = ProviderRegistry.resolve(spec(config));
    int shards = shardsOf(r.spec());
    if (index < 0 || index >= shards) {
      throw new IllegalArgumentException("shard index " + index + " is out of range for " + r.spec() + ": 0.."
          + (shards - 1));
    }
    return r.provider().createShard(r.spec(), index);
  }

  /**
   * Joins the S shards of a filter ({@link FilterShard#writeTo}) into one ordinary filter file,
   * as the filter's {@link CuckooFilter#writeTo} would write it (format version 3, aligned), which
   * {@link #read} reads and {@link #open} maps. It streams: it opens each shard at most twice
   * (once for its header and stash, once for its table), and holds each shard's header and a
   * fixed buffer, never a table. Its checks fail the join with nothing but a partial file
   * written: discard the output then.
   *
   * @param config the config the shards were created from
   * @param shards S, which must be the config's {@code shards}
   * @param source opens each shard's bytes
   * @param out where to write the file; flushed, not closed
   * @throws IllegalArgumentException if the config is bad or {@code shards} is not its S
   * @throws CorruptFilterException if a shard is missing or duplicated (its header names another
   *     index), of another spec, or damaged (its checksums fail)
   * @throws IOException if the shards' stashes together overflow the filter's stash (the message
   *     says what capacity would do), or reading or writing fails (a source that cannot open a
   *     shard)
   * @throws UnsupportedOperationException if the variant cannot be built in shards
   */
  public static void joinShards(String config, int shards, FilterShard.Source source, java.io.OutputStream out)
      throws IOException {
    Objects.requireNonNull(source, "source must not be null");
    Objects.requireNonNull(out, "out must not be null");
    ProviderRegistry.Resolved r = ProviderRegistry.resolve(spec(config));
    FilterSpec spec = r.spec();
    if (shards != shardsOf(spec)) {
      throw new IllegalArgumentException("shards=" + shards + " differs from the config's " + FilterSpec.SHARDS + "="
          + shardsOf(spec) + " (" + spec + ")");
    }
    FilterProvider provider = r.provider();
    long length = provider.mappedPayloadLength(spec).orElseThrow(
        () -> new UnsupportedOperationException("variant " + provider.name() + " cannot be built in shards"));
    FilterFile.write(out, spec, ProviderRegistry.hashOf(spec), length, payload -> provider.joinShards(spec, source, payload),
        true);
  }

  /** @return the spec's shard count: its {@code shards} option, 1 without one */
  private static int shardsOf(FilterSpec resolved) {
    return resolved.option(FilterSpec.SHARDS).map(Integer::parseInt).orElse(1);
  }

  /** @return the names of the installed variants, sorted */
  public static Set<String> variants() {
    return ProviderRegistry.variants();
  }

  /** @return the names of the installed hashes, sorted */
  public static Set<String> hashes() {
    return ProviderRegistry.hashes();
  }

  /**
   * @param variant a variant's name
   * @return what it is: its description, whether it maps files, what a config of it takes
   * @throws IllegalArgumentException if no such variant is installed, listing those that are
   */
  public static FilterVariant variant(String variant) {
    return new FilterVariant(ProviderRegistry.provider(variant));
  }

  /**
   * Reads a filter file's header and describes the file, without reading its table and without
   * looking up its variant or hash, so that a file of a variant or hash that is not installed is
   * described too.
   *
   * @param path the file
   * @return what its header tells
   * @throws CorruptFilterException if it is not a filter file, or its header is damaged or cut short
   * @throws IOException if it cannot be read (a directory, say)
   */
  public static FilterFileInfo describe(java.nio.file.Path path) throws IOException {
    Objects.requireNonNull(path, "path must not be null");
    return new FilterFileInfo(MappedFiles.headerOf(path), java.nio.file.Files.size(path));
  }

  /**
   * @param name an installed hash's name
   * @return the hash with seed 0
   * @throws IllegalArgumentException if no such hash is installed, listing those that are
   */
  public static HashStrategy hash(String name) {
    return hash(name, 0L);
  }

  /**
   * @param name an installed hash's name
   * @param seed the seed
   * @return the hash with that seed
   * @throws IllegalArgumentException if no such hash is installed, listing those that are
   */
  public static HashStrategy hash(String name, long seed) {
    return ProviderRegistry.hash(name, seed);
  }

  /**
   * A collector that builds one filter from a stream of keys, in parallel too: each thread of a
   * parallel stream fills a filter of its own, created from the config, and the filters are
   * merged ({@link CuckooFilter#addAll(CuckooFilter)}). The result holds the same fingerprints,
   * in the same pairs of buckets, as a filter built by adding the keys one by one.
   *
   * <pre>{@code
   * CuckooFilter f = keys.parallelStream().collect(CuckooFilters.toFilter("classic?capacity=1000000"));
   * }</pre>
   *
   * <p>Each thread's filter takes the config's full memory while the stream runs. A key the
   * filter refuses (it is full) fails the collection with an {@link IllegalStateException} that
   * says so; use a larger {@code capacity}, or a variant that grows.
   *
   * @param config the filter's config string
   * @return the collector
   * @throws IllegalArgumentException if the config is not valid or the heap cannot hold its
   *     filter (checked now, by creating the first thread's filter, not when the
   *     stream runs)
   */
  public static Collector<CharSequence, ?, CuckooFilter> toFilter(String config) {
    Supplier<CuckooFilter> empty = emptyFilters(config);
    return Collector.of(empty, CuckooFilters::addOrFail, CuckooFilters::merge, Collector.Characteristics.UNORDERED,
        Collector.Characteristics.IDENTITY_FINISH);
  }

  /**
   * {@link #toFilter(String)} for values of any type, through a {@link KeyEncoder}.
   *
   * <pre>{@code
   * CuckooFilter f = orders.parallelStream().collect(CuckooFilters.toFilter("classic?capacity=1000000", byIdAndDay));
   * }</pre>
   *
   * @param <T> the values' type
   * @param config the filter's config string
   * @param encoder how a value becomes its key bytes
   * @return the collector
   * @throws IllegalArgumentException if the config is not valid
   */
  public static <T> Collector<T, ?, CuckooFilter> toFilter(String config, KeyEncoder<? super T> encoder) {
    Objects.requireNonNull(encoder, "encoder must not be null");
    Supplier<CuckooFilter> empty = emptyFilters(config);
    return Collector.<T, TypedFilter<T>, CuckooFilter>of(
        () -> TypedFilter.of(empty.get(), encoder),
        (typed, value) -> {
          if (!typed.add(value)) {
            throw full(typed.filter());
          }
        },
        (a, b) -> {
          merge(a.filter(), b.filter());
          return a;
        },
        TypedFilter::filter,
        Collector.Characteristics.UNORDERED);
  }

  /**
   * The empty filters of a collect, the first one created now: whatever would refuse it (the
   * heap, the variant) fails the call, not a worker thread of the stream.
   */
  private static Supplier<CuckooFilter> emptyFilters(String config) {
    ProviderRegistry.Resolved r = ProviderRegistry.resolve(spec(config));
    AtomicReference<CuckooFilter> first = new AtomicReference<>(HeapRoom.create(r.provider(), r.spec()));
    return () -> {
      CuckooFilter f = first.getAndSet(null);
      return f != null ? f : HeapRoom.create(r.provider(), r.spec());
    };
  }

  private static void addOrFail(CuckooFilter filter, CharSequence key) {
    if (!filter.add(key)) {
      throw full(filter);
    }
  }

  private static IllegalStateException full(CuckooFilter filter) {
    return new FilterFullException("the filter refused a key after " + filter.size() + " (" + filter.spec()
        + "): it is full; give a larger capacity");
  }

  private static CuckooFilter merge(CuckooFilter a, CuckooFilter b) {
    long moved = a.addAll(b);
    if (moved < b.size()) {
      throw new FilterFullException("merging the threads' filters ran out of room after " + a.size()
          + " items (" + a.spec() + "): give a larger capacity");
    }
    return a;
  }
}
