package dev.cuckoo.internal;

import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.FilterProvider;
import dev.cuckoo.spi.HashStrategy;
import dev.cuckoo.spi.HashStrategyProvider;
import dev.cuckoo.spi.SpecSchema;
import dev.cuckoo.text.ClosestName;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The installed variants and hashes, found with {@link ServiceLoader} when they are needed (on the
 * class path and the module path alike), by name: a lookup of one name reads the class path only
 * as far as the jar that provides it, a listing reads all of it (see ProviderScan). {@link
 * dev.cuckoo.CuckooFilters} is its public face; the file reader looks variants up here, so nothing
 * in the SPI calls back into the API.
 */
public final class ProviderRegistry {
  // The first-party providers, as their modules' `provides` clauses name them: a lookup of one of
  // these names on the class path loads the class instead of reading every jar's services files
  // (ProviderScan). A name missing here is still found, by the scan; FirstOpenTest fails then.
  private static final ProviderScan<FilterProvider> VARIANTS = new ProviderScan<>(FilterProvider.class, "variant",
      ProviderRegistry.class, Map.of(
          "classic", "dev.cuckoo.classic.ClassicProvider",
          "semi-sorted", "dev.cuckoo.semisorted.SemiSortedProvider",
          "scalable", "dev.cuckoo.scalable.ScalableProvider",
          "expandable", "dev.cuckoo.expandable.ExpandableProvider"));
  private static final ProviderScan<HashStrategyProvider> HASHES = new ProviderScan<>(HashStrategyProvider.class, "hash",
      ProviderRegistry.class, Map.of(
          "xxh3", "dev.cuckoo.hashing.Xxh3Provider",
          "xxh64", "dev.cuckoo.hashing.Xxh64Provider",
          "murmur3", "dev.cuckoo.hashing.Murmur3Provider",
          "wyhash", "dev.cuckoo.hashing.WyHashProvider",
          "metro", "dev.cuckoo.hashing.MetroProvider",
          "city", "dev.cuckoo.hashing.CityProvider",
          "farm", "dev.cuckoo.hashing.FarmProvider",
          "murmur64a", "dev.cuckoo.hashing.Murmur64aProvider"));

  private ProviderRegistry() {}

  /** @return the names of the installed variants, sorted */
  public static Set<String> variants() {
    return VARIANTS.names();
  }

  /** @return the names of the installed hashes, sorted */
  public static Set<String> hashes() {
    return HASHES.names();
  }

  /**
   * @param variant a variant's name
   * @return its provider
   * @throws IllegalArgumentException if no such variant is installed, listing those that are
   */
  public static FilterProvider provider(String variant) {
    Objects.requireNonNull(variant, "variant must not be null");
    FilterProvider p = VARIANTS.find(variant);
    if (p == null) {
      throw new IllegalArgumentException(
          "variant '" + variant + "' is not installed" + ClosestName.didYouMean(variant, variants())
              + "; installed variants: " + listed(variants(), "none (add a variant module such as cuckoo-classic)"));
    }
    return p;
  }

  /**
   * @param variant a variant's name
   * @return whether it is installed
   */
  public static boolean isInstalled(String variant) {
    return VARIANTS.find(variant) != null;
  }

  /**
   * @param variant a variant's name
   * @return whether it is installed and maps its files
   */
  public static boolean mapsFiles(String variant) {
    FilterProvider p = VARIANTS.find(variant);
    return p != null && p.mapsFiles();
  }

  /**
   * @param variant a variant's name
   * @return its schema, if it is installed (nothing is thrown for one that is not)
   */
  public static Optional<SpecSchema> installedSchema(String variant) {
    FilterProvider p = VARIANTS.find(variant);
    return p == null ? Optional.empty() : Optional.of(p.schema());
  }

  /**
   * @param name an installed hash's name
   * @param seed the seed
   * @return the hash with that seed
   * @throws IllegalArgumentException if no such hash is installed, listing those that are
   */
  public static HashStrategy hash(String name, long seed) {
    Objects.requireNonNull(name, "hash name must not be null");
    HashStrategyProvider p = HASHES.find(name);
    if (p == null) {
      throw new IllegalArgumentException("hash '" + name + "' is not installed" + installedHashes(name));
    }
    return p.create(seed);
  }

  /**
   * Checks a spec and fills in every default, as its variant's provider does, and checks that
   * the hash it names (unless it holds an instance) is installed.
   *
   * @param spec the spec
   * @return the provider and the resolved spec
   * @throws IllegalArgumentException naming what is wrong
   */
  public static Resolved resolve(FilterSpec spec) {
    Objects.requireNonNull(spec, "spec must not be null");
    FilterProvider provider = provider(spec.variant());
    FilterSpec resolved = provider.validate(spec);
    requireInstalledHash(resolved);
    return new Resolved(provider, resolved);
  }

  /**
   * The hash a spec names, found here rather than by the spec, a value that looks nothing up.
   *
   * @param spec a spec
   * @return its hash instance if it holds one, else the installed hash of its name built with its
   *     seed (0 if it names none)
   * @throws IllegalStateException if the spec names no hash (resolve it with its variant first)
   * @throws IllegalArgumentException if no installed hash has that name, listing those that are
   */
  public static HashStrategy hashOf(FilterSpec spec) {
    Optional<HashStrategy> instance = spec.hashInstance();
    if (instance.isPresent()) {
      return instance.get();
    }
    Optional<String> name = spec.hash();
    if (name.isEmpty()) {
      throw new IllegalStateException("spec '" + spec + "' names no hash; resolve it with its variant first");
    }
    return hash(name.get(), spec.seed().orElse(0L));
  }

  /**
   * Checks that the hash a resolved spec names is installed, unless the spec holds an instance:
   * what every path from a spec to a filter checks after the variant resolved it.
   *
   * @param resolved a spec its variant resolved
   * @throws IllegalArgumentException if the hash is not installed, listing those that are
   */
  public static void requireInstalledHash(FilterSpec resolved) {
    if (resolved.hashInstance().isPresent()) {
      return;
    }
    Optional<String> named = resolved.hash();
    if (named.isEmpty()) {
      throw new IllegalStateException("provider of variant " + resolved.variant() + " resolved no hash: " + resolved);
    }
    String hash = named.get();
    if (HASHES.find(hash) == null) {
      throw new IllegalArgumentException(FilterSpec.HASH + "=" + hash + " is not installed" + installedHashes(hash));
    }
  }

  /**
   * A provider and a spec it resolved.
   *
   * @param provider the variant's provider
   * @param spec the resolved spec
   */
  public record Resolved(FilterProvider provider, FilterSpec spec) {}

  private static String installedHashes(String given) {
    return ClosestName.didYouMean(given, hashes()) + "; installed hashes: " + listed(hashes(), "none (add cuckoo-hashing)");
  }

  private static String listed(Set<String> names, String ifNone) {
    return names.isEmpty() ? ifNone : String.join(", ", names);
  }
}
