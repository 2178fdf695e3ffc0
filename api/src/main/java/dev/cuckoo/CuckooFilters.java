package dev.cuckoo;

import dev.cuckoo.spi.ConfigValues;
import dev.cuckoo.spi.FilterFile;
import dev.cuckoo.spi.FilterProvider;
import dev.cuckoo.spi.HashStrategy;
import dev.cuckoo.spi.HashStrategyProvider;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

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
 * {@link ServiceLoader} the first time they are needed, on the class path and the module path
 * alike: putting a variant's jar next to this one installs it.
 */
public final class CuckooFilters {
  private static volatile Registry registry;

  private CuckooFilters() {}

  /**
   * Creates an empty filter from a config string such as {@code
   * classic?capacity=1000000&fingerprintBits=12&bucketSize=4&hash=xxh3}.
   *
   * @param config the config string; see {@link FilterSpec#parse(String)}
   * @return the filter
   * @throws IllegalArgumentException naming the key, the value and what is allowed, if the
   *     string is malformed, a value is out of range, or the variant or hash is not installed
   */
  public static CuckooFilter create(String config) {
    return create(FilterSpec.parse(config));
  }

  /**
   * Creates an empty filter.
   *
   * @param spec the configuration; what it leaves out, the variant fills in
   * @return the filter, whose {@link CuckooFilter#spec()} is the resolved spec
   * @throws IllegalArgumentException if the variant is not installed or rejects the spec
   */
  public static CuckooFilter create(FilterSpec spec) {
    Objects.requireNonNull(spec, "spec must not be null");
    FilterProvider provider = provider(spec.variant());
    return provider.create(provider.validate(spec));
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
    return create(FilterSpec.fromProperties(properties, prefix));
  }

  /**
   * Reads a filter of any installed variant from the common file format (see {@link
   * FilterFile}), stopping right after the file's last byte.
   *
   * @param in where to read; not closed
   * @return the filter
   * @throws CorruptFilterException if the input is truncated, corrupted, forged, of an unknown
   *     variant or format version, or names a hash that is not installed; or if the installed
   *     hash of that name and seed is not the one the filter was written with (the file records
   *     a check of its hash: a filter built with a {@link HashStrategy} instance is read with
   *     {@link #read(InputStream, HashStrategy)})
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

  /** @return the names of the installed variants, sorted */
  public static Set<String> variants() {
    return registry().variants.keySet();
  }

  /** @return the names of the installed hashes, sorted */
  public static Set<String> hashes() {
    return registry().hashes.keySet();
  }

  /**
   * @param variant a variant's name
   * @return its provider, for its description and {@link FilterProvider#schema() schema}
   * @throws IllegalArgumentException if no such variant is installed, listing those that are
   */
  public static FilterProvider provider(String variant) {
    Objects.requireNonNull(variant, "variant must not be null");
    FilterProvider p = registry().variants.get(variant);
    if (p == null) {
      throw new IllegalArgumentException(
          "variant '" + variant + "' is not installed" + ConfigValues.didYouMean(variant, variants())
              + "; installed variants: "
              + listed(variants(), "none (add a variant module such as cuckoo-classic)"));
    }
    return p;
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
    Objects.requireNonNull(name, "hash name must not be null");
    HashStrategyProvider p = registry().hashes.get(name);
    if (p == null) {
      throw new IllegalArgumentException(
          "hash '" + name + "' is not installed" + ConfigValues.didYouMean(name, hashes())
              + "; installed hashes: "
              + listed(hashes(), "none (add cuckoo-hashing)"));
    }
    return p.create(seed);
  }

  private static String listed(Set<String> names, String ifNone) {
    return names.isEmpty() ? ifNone : String.join(", ", names);
  }

  private static Registry registry() {
    Registry r = registry;
    if (r == null) {
      synchronized (CuckooFilters.class) {
        r = registry;
        if (r == null) {
          r = new Registry();
          registry = r;
        }
      }
    }
    return r;
  }

  /** The providers found by ServiceLoader, by name. */
  private static final class Registry {
    final Map<String, FilterProvider> variants =
        load(FilterProvider.class, FilterProvider::name, "variant");
    final Map<String, HashStrategyProvider> hashes =
        load(HashStrategyProvider.class, HashStrategyProvider::name, "hash");

    private static <T> Map<String, T> load(Class<T> service, Function<T, String> name, String kind) {
      TreeMap<String, T> found = new TreeMap<>();
      ClassLoader context = Thread.currentThread().getContextClassLoader();
      ServiceLoader<T> loader =
          context != null ? ServiceLoader.load(service, context) : ServiceLoader.load(service);
      for (T provider : loader) {
        T before = found.putIfAbsent(name.apply(provider), provider);
        if (before != null && before.getClass() != provider.getClass()) {
          throw new IllegalStateException(
              "two installed " + kind + "s are named '" + name.apply(provider) + "': "
                  + before.getClass().getName() + " and " + provider.getClass().getName());
        }
      }
      if (context != null && context != CuckooFilters.class.getClassLoader()) {
        for (T provider : ServiceLoader.load(service, CuckooFilters.class.getClassLoader())) {
          found.putIfAbsent(name.apply(provider), provider);
        }
      }
      return Collections.unmodifiableMap(found);
    }
  }
}
