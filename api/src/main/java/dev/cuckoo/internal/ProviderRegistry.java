package dev.cuckoo.internal;

import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.FilterProvider;
import dev.cuckoo.spi.HashStrategy;
import dev.cuckoo.spi.HashStrategyProvider;
import dev.cuckoo.spi.SpecSchema;
import dev.cuckoo.text.ClosestName;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;

/**
 * The installed variants and hashes, found with {@link ServiceLoader} the first time they are
 * needed (on the class path and the module path alike), by name. {@link dev.cuckoo.CuckooFilters}
 * is its public face; the file reader looks variants up here, so nothing in the SPI calls back
 * into the API.
 */
public final class ProviderRegistry {
  private static volatile ProviderRegistry instance;

  private final Map<String, FilterProvider> variants = load(FilterProvider.class, "variant");
  private final Map<String, HashStrategyProvider> hashes = load(HashStrategyProvider.class, "hash");

  private ProviderRegistry() {}

  private static ProviderRegistry get() {
    ProviderRegistry r = instance;
    if (r == null) {
      synchronized (ProviderRegistry.class) {
        r = instance;
        if (r == null) {
          r = new ProviderRegistry();
          instance = r;
        }
      }
    }
    return r;
  }

  /** @return the names of the installed variants, sorted */
  public static Set<String> variants() {
    return get().variants.keySet();
  }

  /** @return the names of the installed hashes, sorted */
  public static Set<String> hashes() {
    return get().hashes.keySet();
  }

  /**
   * @param variant a variant's name
   * @return its provider
   * @throws IllegalArgumentException if no such variant is installed, listing those that are
   */
  public static FilterProvider provider(String variant) {
    Objects.requireNonNull(variant, "variant must not be null");
    FilterProvider p = get().variants.get(variant);
    if (p == null) {
      throw new IllegalArgumentException(
          "variant '" + variant + "' is not installed" + ClosestName.didYouMean(variant, variants())
              + "; installed variants: " + listed(variants(), "none (add a variant module such as cuckoo-classic)"));
    }
    return p;
  }

  /**
   * @param variant a variant's name
   * @return whether it is installed and maps its files
   */
  public static boolean mapsFiles(String variant) {
    FilterProvider p = get().variants.get(variant);
    return p != null && p.mapsFiles();
  }

  /**
   * @param variant a variant's name
   * @return its schema, if it is installed (nothing is thrown for one that is not)
   */
  public static Optional<SpecSchema> installedSchema(String variant) {
    FilterProvider p = get().variants.get(variant);
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
    HashStrategyProvider p = get().hashes.get(name);
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
    if (!hashes().contains(hash)) {
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

  /*
   * No lambdas or method references here, nor on the rest of the way from CuckooFilters.open to a
   * lookup: each is a class spun at run time the first time it runs, a cost every process pays
   * again at its first call (docs/results.md, "A process's first open").
   */
  private static <T> Map<String, T> load(Class<T> service, String kind) {
    TreeMap<String, T> found = new TreeMap<>();
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    ServiceLoader<T> loader =
        context != null ? ServiceLoader.load(service, context) : ServiceLoader.load(service);
    for (T provider : loader) {
      T before = found.putIfAbsent(nameOf(provider), provider);
      if (before != null && before.getClass() != provider.getClass()) {
        throw new IllegalStateException(
            "two installed " + kind + "s are named '" + nameOf(provider) + "': "
                + before.getClass().getName() + " and " + provider.getClass().getName());
      }
    }
    if (context != null && context != ProviderRegistry.class.getClassLoader()) {
      for (T provider : ServiceLoader.load(service, ProviderRegistry.class.getClassLoader())) {
        found.putIfAbsent(nameOf(provider), provider);
      }
    }
    return Collections.unmodifiableMap(found);
  }

  private static String nameOf(Object provider) {
    return provider instanceof FilterProvider p ? p.name() : ((HashStrategyProvider) provider).name();
  }
}
