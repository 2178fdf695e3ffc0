package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.FilterVariant;
import dev.cuckoo.KeyKind;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The checks a build's config passes on the driver before any job: parsed and resolved by the
 * library (whose messages name the key, the value and what is allowed), and of a variant that
 * can be built in shards. Nothing is allocated: a config of capacity 10^10 is checked as cheaply
 * as one of 10^3.
 */
final class BuildConfig {
  /** A capacity to resolve a config without one by: resolving allocates nothing, so any value would do. */
  private static final long PROBE_CAPACITY = 1L << 20;

  private BuildConfig() {}

  /**
   * @param config the user's config string, with or without a capacity
   * @param key the key column the filter is built from, whose kind the spec records ({@link
   *     FilterSpec#KEYS}), so that a lookup of keys of another kind can be refused
   * @param column the key column's name, for the message
   * @return its spec, as parsed (not resolved: the shard plan adds capacity and shards to it)
   * @throws IllegalArgumentException with the library's message for a bad config, or where the
   *     config names another kind of key than the column's
   * @throws UnsupportedOperationException for a variant that cannot be built in shards
   */
  static FilterSpec checked(String config, KeyColumn key, String column) {
    FilterSpec given = CuckooFilters.spec(config);
    Optional<KeyKind> said = given.keyKind();
    if (said.isPresent() && said.get() != key.kind()) {
      throw new IllegalArgumentException("the config says " + FilterSpec.KEYS + "=" + said.get() + " but the key column "
          + column + " makes " + key.kind() + " keys; leave " + FilterSpec.KEYS + " out (the build records the"
          + " column's kind) or build from a column of " + said.get() + " keys");
    }
    FilterSpec spec = given.toBuilder().keyKind(key.kind()).build();
    FilterVariant variant;
    try {
      variant = CuckooFilters.variant(spec.variant());
    } catch (IllegalArgumentException notInstalled) {
      // cuckoo-spark brings only the variants it can build; say so beside the library's words.
      throw new IllegalArgumentException(notInstalled.getMessage() + "; a Spark build makes a variant whose tables"
          + " map to files, in shards: " + shardable(), notInstalled);
    }
    // A shard is a slice of a mapped table: only a variant whose file maps has one. Checked before the
    // variant resolves the spec, which would otherwise refuse the 'shards' key the build adds.
    if (!variant.mapsFiles()) {
      throw new UnsupportedOperationException("variant " + spec.variant() + " cannot be built in shards, as a Spark"
          + " build makes every filter; build it in one JVM (CuckooFilters.create), or use a variant that can: "
          + shardable());
    }
    variant.resolve(resolvable(spec));
    return spec;
  }

  /** @return the installed variants a Spark build can make, comma-separated */
  private static String shardable() {
    return CuckooFilters.variants().stream().filter(v -> CuckooFilters.variant(v).mapsFiles())
        .collect(Collectors.joining(", "));
  }

  /** The spec, or where it has no capacity, the spec with one: what resolving it (or its hash) needs. */
  static FilterSpec resolvable(FilterSpec spec) {
    return spec.capacity().isPresent() ? spec : spec.toBuilder().capacity(PROBE_CAPACITY).build();
  }
}
