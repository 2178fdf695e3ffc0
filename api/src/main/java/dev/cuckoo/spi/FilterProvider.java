package dev.cuckoo.spi;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.FilterSpec;
import java.io.IOException;
import java.util.OptionalLong;

/**
 * A filter variant, found by {@link java.util.ServiceLoader}. Register an implementation with
 * {@code @AutoService(FilterProvider.class)} and, in the variant's {@code module-info.java},
 * {@code provides dev.cuckoo.spi.FilterProvider with ...}.
 *
 * <p>A variant is described by the fingerprint widths, bucket sizes and other keys its {@link
 * #schema()} accepts. {@link dev.cuckoo.CuckooFilters} calls {@link #validate} before {@link
 * #create} or {@link #read}, so those two only ever see resolved specs.
 */
public interface FilterProvider {

  /**
   * @return the variant's name, unique among installed variants, as used in config strings
   */
  String name();

  /**
   * @return a one-line description for listings
   */
  String description();

  /**
   * @return the keys this variant accepts, their ranges and defaults
   */
  SpecSchema schema();

  /**
   * The shapes worth comparing this variant by, as config strings without a capacity (for
   * example {@code classic?fingerprintBits=8}); benchmark harnesses add the capacity they test.
   * The default is the variant with its defaults.
   *
   * @return one or more config strings naming this variant
   */
  default java.util.List<String> representativeConfigs() {
    return java.util.List.of(name());
  }

  /**
   * Checks a spec and fills in every default. The default implementation applies {@link
   * #schema()}; a variant with rules between keys overrides it and calls the schema first.
   *
   * @param spec a spec naming this variant
   * @return the resolved spec: every key set, so that resolving it again changes nothing
   * @throws IllegalArgumentException naming the key, the value and what is allowed
   */
  default FilterSpec validate(FilterSpec spec) {
    return schema().resolve(spec);
  }

  /**
   * The bytes {@link #create} allocates for a new filter of this spec (its tables; not the few
   * small objects around them), computed without allocating them. {@link
   * dev.cuckoo.CuckooFilters#create} checks them against the heap before it calls {@link
   * #create}, so that a filter the heap cannot hold is refused with a message naming one that
   * fits rather than with an {@code OutOfMemoryError}; a variant that does not say is created
   * unchecked.
   *
   * @param resolved a spec returned by {@link #validate}
   * @return the bytes, or empty if the variant does not say (the default)
   * @throws IllegalArgumentException if {@link #create} would refuse the spec, with the message
   *     {@link #create} would give
   */
  default OptionalLong memoryToCreate(FilterSpec resolved) {
    return OptionalLong.empty();
  }

  /**
   * Creates an empty filter.
   *
   * @param resolved a spec returned by {@link #validate}
   * @return the filter; its {@link dev.cuckoo.CuckooFilter#spec()} equals {@code resolved}
   * @throws IllegalArgumentException if the variant refuses to create a filter of this spec
   *     (one that would waste memory, say: see the variant's documentation)
   */
  CuckooFilter create(FilterSpec resolved);

  /**
   * Reads the payload this variant's filters write, for {@link
   * dev.cuckoo.CuckooFilters#read(java.io.InputStream)}. It must check every size it reads
   * against the spec and against {@link PayloadInput#remaining()} before allocating, and read the
   * payload to its end.
   *
   * @param resolved the spec stored in the file, resolved by {@link #validate}
   * @param payload the payload, bounded to its declared length
   * @return the filter
   * @throws dev.cuckoo.CorruptFilterException if the payload is inconsistent or truncated
   * @throws IOException if reading fails
   */
  CuckooFilter read(FilterSpec resolved, PayloadInput payload) throws IOException;

  /**
   * Whether this variant's filters can be mapped from a file ({@link dev.cuckoo.CuckooFilters#open},
   * {@link dev.cuckoo.CuckooFilters#createFile}); {@code false} by default. A variant that says yes
   * implements {@link #mappedPayloadLength}, {@link #createIn} and {@link #open}, and writes its
   * files with an aligned payload ({@link AbstractCuckooFilter#alignsPayload}).
   *
   * @return whether it can
   */
  default boolean mapsFiles() {
    return false;
  }

  /**
   * The length of the payload of a new, empty filter of this spec in a file that is mapped
   * ({@link dev.cuckoo.CuckooFilters#createFile}), or empty if this variant cannot be mapped: the
   * default.
   *
   * @param resolved a spec {@link #validate} returned
   * @return the payload's length, or empty
   */
  default OptionalLong mappedPayloadLength(FilterSpec resolved) {
    return OptionalLong.empty();
  }

  /**
   * Makes an empty filter whose table is the payload of a new file, zeros as
   * {@link #mappedPayloadLength} long: writes the payload's fields and maps its table. Only for
   * variants whose {@code mappedPayloadLength} is not empty.
   *
   * @param resolved a spec {@link #validate} returned
   * @param payload the payload, writable
   * @return the filter
   * @throws IOException if writing or mapping fails
   */
  default dev.cuckoo.MappedFilter createIn(FilterSpec resolved, MappedPayload payload) throws IOException {
    throw new UnsupportedOperationException("variant " + name() + " cannot be mapped");
  }

  /**
   * Opens the payload of a file this variant's filters wrote, mapping its table where it lies:
   * checks the payload's fields and sizes, with no pass over the table. Only for variants whose
   * {@code mappedPayloadLength} is not empty.
   *
   * @param resolved a spec {@link #validate} returned, from the file
   * @param payload the payload
   * @return the filter
   * @throws dev.cuckoo.CorruptFilterException if a field is out of range or the sizes disagree
   * @throws IOException if reading or mapping fails
   */
  default dev.cuckoo.MappedFilter open(FilterSpec resolved, MappedPayload payload) throws IOException {
    throw new UnsupportedOperationException("variant " + name() + " cannot be mapped");
  }

  /**
   * Maps the payload of a file whose writer's process stopped while the file was marked as being
   * changed ({@link MappedPayload#beginChange}), and brings it back: whatever the writer was in
   * the middle of is put back or finished, the file's own fields are made to agree with what it
   * holds, and the file is forced, which seals it. The envelope has checked that the mark was set
   * in this boot of the machine (so the kernel wrote every page the process stored to), and holds
   * the file's lock. Only for variants that map their files, with {@code durability=process};
   * the default throws.
   *
   * @param resolved the resolved spec, as the file records it
   * @param payload the payload, writable
   * @return the filter, whose {@link dev.cuckoo.MappedFilter#recovery} says what was done
   * @throws dev.cuckoo.CorruptFilterException if the payload is damaged beyond what a stopped
   *     writer leaves
   * @throws IOException if reading, mapping or writing fails
   */
  default dev.cuckoo.MappedFilter recover(FilterSpec resolved, MappedPayload payload) throws IOException {
    throw new UnsupportedOperationException("variant " + name() + " cannot be mapped");
  }

  /**
   * Rewrites the payload of a file of an earlier format version (1 or 2), whose table is not
   * aligned, as the payload of a version 3 file, streaming: the table goes from {@code in} to the
   * new payload as it is read, so that a file larger than the heap converts ({@link
   * dev.cuckoo.CuckooFilters#convert}). It checks the old payload's fields as {@link #read} does
   * and reads it to its end; the envelope then checks the old file's checksum, and the new file's
   * table through {@link dev.cuckoo.MappedFilter#verify}. Only for variants that map their files;
   * the default throws.
   *
   * @param resolved the spec the old file records, resolved by {@link #validate}
   * @param in the old payload, bounded to its declared length
   * @param out creates the new payload, of the length this method gives it; called once
   * @throws dev.cuckoo.CorruptFilterException if a field of the old payload is out of range or it
   *     ends early
   * @throws IOException if reading or writing fails
   * @throws UnsupportedOperationException if the variant does not map its files
   */
  default void realign(FilterSpec resolved, PayloadInput in, MappedPayload.Factory out) throws IOException {
    throw new UnsupportedOperationException("variant " + name() + " cannot be mapped");
  }

  /**
   * Creates one empty shard of a filter whose spec has {@code shards=S} ({@link
   * dev.cuckoo.FilterSpec#SHARDS}); {@link dev.cuckoo.CuckooFilters#createShard} calls it with
   * an index it has checked. Variants that cannot be built in shards throw (the default).
   *
   * @param resolved a spec this provider resolved
   * @param index the shard, in {@code [0, S)}
   * @return the shard
   * @throws UnsupportedOperationException if the variant cannot be built in shards
   */
  default dev.cuckoo.FilterShard createShard(FilterSpec resolved, int index) {
    throw new UnsupportedOperationException("variant " + name() + " cannot be built in shards");
  }

  /**
   * Writes the payload of the filter whose S shards {@code source} gives ({@link
   * dev.cuckoo.FilterShard#writeTo}), exactly {@link #mappedPayloadLength} bytes: the payload
   * {@code writeTo} of the same filter built whole would write, up to the placement of its
   * fingerprints. It streams: it holds at most each shard's header and a fixed buffer, never a
   * table. The default throws.
   *
   * @param resolved a spec this provider resolved, with {@code shards=S}
   * @param source opens shard {@code i}'s bytes; may be asked for each shard twice
   * @param out where to write the payload
   * @throws dev.cuckoo.CorruptFilterException if a shard is missing, duplicated, of another spec
   *     or damaged
   * @throws IOException if the shards' stashes together overflow the filter's (the message
   *     names a capacity that would do), or reading or writing fails
   * @throws UnsupportedOperationException if the variant cannot be built in shards
   */
  default void joinShards(FilterSpec resolved, dev.cuckoo.FilterShard.Source source, PayloadOutput out)
      throws IOException {
    throw new UnsupportedOperationException("variant " + name() + " cannot be built in shards");
  }
}
