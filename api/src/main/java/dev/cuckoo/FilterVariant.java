package dev.cuckoo;

import dev.cuckoo.internal.FilterFile;
import dev.cuckoo.internal.ProviderRegistry;
import dev.cuckoo.spi.FilterProvider;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * An installed variant as an application sees it ({@link CuckooFilters#variant}): its name and
 * description, whether its filters map from files, the configs worth comparing it by, and what a
 * filter of a config takes on the heap or in a file, so that a tool can check a config before it
 * builds anything. It is a description: filters are made through {@link CuckooFilters}, which
 * checks what a variant's provider does not.
 */
public final class FilterVariant {
  private final FilterProvider provider;

  FilterVariant(FilterProvider provider) {
    this.provider = provider;
  }

  /** @return the variant's name, as config strings name it */
  public String name() {
    return provider.name();
  }

  /** @return a one-line description, for listings */
  public String description() {
    return provider.description();
  }

  /**
   * @return whether its filters can be mapped from files ({@link CuckooFilters#open}, {@link
   *     CuckooFilters#createFile}); files of the others are read with {@link CuckooFilters#read}
   */
  public boolean mapsFiles() {
    return provider.mapsFiles();
  }

  /** @return config strings without a capacity that show the variant's main shapes, for benchmarks */
  public List<String> representativeConfigs() {
    return List.copyOf(provider.representativeConfigs());
  }

  /**
   * Resolves a config of this variant as {@link CuckooFilters#create} would, without creating
   * anything: every key the config leaves out filled in, and the hash checked as installed.
   *
   * @param spec a spec naming this variant
   * @return the resolved spec
   * @throws IllegalArgumentException naming the key, the value and what is allowed, or the hash
   *     that is not installed, or if the spec names another variant
   */
  public FilterSpec resolve(FilterSpec spec) {
    requireThisVariant(spec);
    return ProviderRegistry.resolve(spec).spec();
  }

  /**
   * The heap a new filter of the config takes (its tables), which {@link CuckooFilters#create}
   * checks against the heap's maximum before it allocates.
   *
   * @param spec a spec naming this variant
   * @return the bytes, or empty if the variant does not say
   * @throws IllegalArgumentException as {@link #resolve} does, or if a filter of that config
   *     cannot be on the heap at all (its table is past what one Java array holds; the message
   *     names {@code createFile} for a variant that maps)
   */
  public OptionalLong heapBytes(FilterSpec spec) {
    return provider.memoryToCreate(resolve(spec));
  }

  /**
   * The length of the file {@link CuckooFilters#createFile} makes for the config: header, table
   * and checksum (the table's pages take room on disk only as keys reach them, where the file
   * system keeps sparse files).
   *
   * @param spec a spec naming this variant
   * @return the bytes, or empty if the variant does not map its files
   * @throws IllegalArgumentException as {@link #resolve} does
   */
  public OptionalLong fileBytes(FilterSpec spec) {
    FilterSpec resolved = resolve(spec);
    OptionalLong payload = provider.mappedPayloadLength(resolved);
    return payload.isPresent() ? OptionalLong.of(FilterFile.mappedFileLength(resolved, payload.getAsLong()))
        : OptionalLong.empty();
  }

  private void requireThisVariant(FilterSpec spec) {
    Objects.requireNonNull(spec, "spec must not be null");
    if (!spec.variant().equals(name())) {
      throw new IllegalArgumentException("spec " + spec + " is of variant " + spec.variant() + ", not " + name());
    }
  }

  /** @return the variant's name */
  @Override
  public String toString() {
    return name();
  }
}
