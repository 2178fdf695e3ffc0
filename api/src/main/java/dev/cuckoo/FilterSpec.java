package dev.cuckoo;

import dev.cuckoo.spi.HashStrategy;
import dev.cuckoo.text.ConfigText;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The configuration of a filter: its variant and the settings that shape it. Immutable.
 *
 * <p>A spec can be partial: what it leaves out, the variant fills in with its defaults when the
 * filter is created, and {@link CuckooFilter#spec()} returns the resolved spec. Its text form is
 * the config string
 *
 * <pre>{@code variant?capacity=1000000&fingerprintBits=12&bucketSize=4&hash=xxh3&seed=0&maxKicks=500&concurrency=none&expansion=2}</pre>
 *
 * <p>which {@link #parse(String)} reads and {@link #toString()} writes back, so a spec
 * round-trips through text ({@code parse(s.toString()).equals(s)}), with one exception: a hash
 * given as a {@link HashStrategy} instance is written as its name.
 *
 * <p>The common keys are {@value #CAPACITY}, {@value #FINGERPRINT_BITS} or {@value #TARGET_FPP}
 * (from which the variant derives the width), {@value #BUCKET_SIZE}, {@value #HASH}, {@value
 * #SEED}, {@value #MAX_KICKS} and {@value #CONCURRENCY}; any other key is a variant-specific
 * option, which the variant accepts or rejects when the filter is created. A spec rejects at
 * once what no variant accepts (a capacity below 1, a target FPP outside (0, 1), a negative
 * {@code maxKicks}); the variant checks its own ranges when the filter is created, so that the
 * message can say what that variant allows.
 *
 * <p>Every malformed or out-of-range value is rejected with an {@link IllegalArgumentException}
 * whose message names the key, the value given and what is allowed. A {@code null} argument is
 * rejected with a {@link NullPointerException} that names it.
 */
public final class FilterSpec {
  /** Key of the number of items the filter is sized for. */
  public static final String CAPACITY = "capacity";
  /** Key of the width of a fingerprint in bits. */
  public static final String FINGERPRINT_BITS = "fingerprintBits";
  /** Key of the false-positive probability from which a variant derives the fingerprint width. */
  public static final String TARGET_FPP = "targetFpp";
  /** Key of the number of slots per bucket. */
  public static final String BUCKET_SIZE = "bucketSize";
  /** Key of the hash strategy's name. */
  public static final String HASH = "hash";
  /** Key of the seed passed to the hash strategy. */
  public static final String SEED = "seed";
  /** Key of the most evictions one insert may make. */
  public static final String MAX_KICKS = "maxKicks";
  /** Key of the {@link Concurrency} mode: whether the filter may be shared between threads. */
  public static final String CONCURRENCY = "concurrency";
  /**
   * The option, of the variants that can be built in shards ({@link CuckooFilters#createShard}),
   * of the number of shards S the table is split into: 1 (the default, left out of a resolved
   * spec) for a table that is not.
   */
  public static final String SHARDS = "shards";
  /**
   * Key of the {@link Durability}, an option of the variants whose filters live in files ({@link
   * CuckooFilters#createFile}): what a crash may take from a file. {@code process} (the default)
   * is left out of a resolved spec, so the config strings, and the files, of filters that take
   * the default stay as they were; {@link #durability()} reads it.
   */
  public static final String DURABILITY = "durability";
  /**
   * Key of the {@link KeyKind}, an option every variant takes: what kind of value the filter's
   * keys were made from ({@code string}, {@code binary} or {@code long}), so that a caller who
   * knows its keys' kind can refuse a filter of another. Left out of a resolved spec when not
   * given, so the config strings, and the files, of filters that do not say stay as they were;
   * {@link #keyKind()} reads it.
   */
  public static final String KEYS = "keys";
  /** Property that names the variant in {@link #fromProperties(Properties, String)}. */
  public static final String VARIANT_PROPERTY = "variant";

  /** The common keys, in the order {@link #toString()} writes them. */
  public static final List<String> COMMON_KEYS =
      List.of(CAPACITY, FINGERPRINT_BITS, TARGET_FPP, BUCKET_SIZE, HASH, SEED, MAX_KICKS, CONCURRENCY);

  private final String variant;
  // null: not given
  private final Long capacity;
  private final Integer fingerprintBits;
  private final Double targetFpp;
  private final Integer bucketSize;
  private final String hash;
  private final HashStrategy hashInstance; // null: resolved by name
  private final Long seed;
  private final Integer maxKicks;
  private final Concurrency concurrency;
  private final SortedMap<String, String> options;

  private FilterSpec(Builder b) {
    this.variant = b.variant;
    this.capacity = b.capacity;
    this.fingerprintBits = b.fingerprintBits;
    this.targetFpp = b.targetFpp;
    this.bucketSize = b.bucketSize;
    this.hash = b.hash;
    this.hashInstance = b.hashInstance;
    this.seed = b.seed;
    this.maxKicks = b.maxKicks;
    this.concurrency = b.concurrency;
    this.options = Collections.unmodifiableSortedMap(new TreeMap<>(b.options));
  }

  /**
   * Starts a spec for the variant.
   *
   * @param variant the variant's name, as {@link CuckooFilters#variants()} lists it
   * @return a builder with nothing but the variant set
   * @throws IllegalArgumentException if the name is empty or has characters other than letters,
   *     digits, '.', '_' and '-' (at most 64)
   */
  public static Builder builder(String variant) {
    return new Builder(variant);
  }

  /**
   * Reads a config string {@code variant?key=value&key=value...}. Whitespace around the string,
   * keys and values is ignored; whole numbers may use '_' between digits ({@code 1_000_000});
   * {@code seed} may also be written in hex ({@code 0x9e3779b97f4a7c15}).
   *
   * @param config the config string
   * @return the spec it describes
   * @throws IllegalArgumentException naming what is malformed or out of range
   */
  public static FilterSpec parse(String config) {
    Objects.requireNonNull(config, "config must not be null");
    String text = config.strip();
    if (text.isEmpty()) {
      throw new IllegalArgumentException(
          "config string is empty: expected variant?key=value&key=value, e.g. classic?capacity=1000000");
    }
    int q = text.indexOf('?');
    Builder b = builder(q < 0 ? text : text.substring(0, q).strip());
    if (q >= 0) {
      String query = text.substring(q + 1);
      if (query.isBlank()) {
        throw new IllegalArgumentException(
            "config string '" + config + "' ends with '?': add key=value pairs or drop the '?'");
      }
      TreeMap<String, String> seen = new TreeMap<>();
      for (String pair : query.split("&", -1)) {
        int eq = pair.indexOf('=');
        String key = eq < 0 ? pair.strip() : pair.substring(0, eq).strip();
        if (eq < 0 || key.isEmpty()) {
          throw new IllegalArgumentException(
              "config string '" + config + "' has '" + pair + "' where key=value was expected");
        }
        String value = pair.substring(eq + 1).strip();
        String before = seen.put(key, value);
        if (before != null) {
          throw new IllegalArgumentException(
              key + " is given twice in config string '" + config + "' (" + before + " and "
                  + value + ")");
        }
        b.set(key, value);
      }
    }
    return b.build();
  }

  /**
   * Reads a spec from properties: {@code prefix + "variant"} names the variant, and every other
   * property that starts with {@code prefix} is a key of the config string, with the same
   * meaning and checks as in {@link #parse(String)}. Properties without the prefix are ignored.
   *
   * @param properties where to read
   * @param prefix the common prefix of the keys, e.g. {@code "cuckoo."}; may be empty
   * @return the spec
   * @throws IllegalArgumentException if the variant property is missing or a value is bad
   */
  public static FilterSpec fromProperties(Properties properties, String prefix) {
    Objects.requireNonNull(properties, "properties must not be null");
    Objects.requireNonNull(prefix, "prefix must not be null (use \"\" for none)");
    String variantKey = prefix + VARIANT_PROPERTY;
    String variant = properties.getProperty(variantKey);
    if (variant == null || variant.isBlank()) {
      throw new IllegalArgumentException(
          "property " + variantKey + " is missing: it names the variant, e.g. "
              + variantKey + "=classic");
    }
    Builder b = builder(variant.strip());
    for (String name : new TreeSet<>(properties.stringPropertyNames())) {
      if (name.startsWith(prefix) && !name.equals(variantKey)) {
        b.set(name.substring(prefix.length()).strip(), properties.getProperty(name).strip());
      }
    }
    return b.build();
  }

  /** @return the variant's name */
  public String variant() {
    return variant;
  }

  /** @return the number of items the filter is sized for, if given */
  public OptionalLong capacity() {
    return capacity == null ? OptionalLong.empty() : OptionalLong.of(capacity);
  }

  /** @return the fingerprint width in bits, if given */
  public OptionalInt fingerprintBits() {
    return fingerprintBits == null ? OptionalInt.empty() : OptionalInt.of(fingerprintBits);
  }

  /**
   * @return the target false-positive probability, if given (a resolved spec has the derived
   *     {@link #fingerprintBits()} instead)
   */
  public OptionalDouble targetFpp() {
    return targetFpp == null ? OptionalDouble.empty() : OptionalDouble.of(targetFpp);
  }

  /** @return the number of slots per bucket, if given */
  public OptionalInt bucketSize() {
    return bucketSize == null ? OptionalInt.empty() : OptionalInt.of(bucketSize);
  }

  /** @return the hash strategy's name, if given (also when given as an instance) */
  public Optional<String> hash() {
    return Optional.ofNullable(hash);
  }

  /** @return the hash strategy instance, if one was given rather than a name */
  public Optional<HashStrategy> hashInstance() {
    return Optional.ofNullable(hashInstance);
  }

  /**
   * @return the hash seed, if given; a resolved spec names one (0 by default) unless its hash is
   *     an instance and no seed was given with it
   */
  public OptionalLong seed() {
    return seed == null ? OptionalLong.empty() : OptionalLong.of(seed);
  }

  /** @return the most evictions one insert may make, if given */
  public OptionalInt maxKicks() {
    return maxKicks == null ? OptionalInt.empty() : OptionalInt.of(maxKicks);
  }

  /**
   * @return the concurrency mode, if given (a resolved spec always names one, never {@link
   *     Concurrency#THREADSAFE})
   */
  public Optional<Concurrency> concurrency() {
    return Optional.ofNullable(concurrency);
  }

  /**
   * @return what a crash may take from the filter's file: {@link Durability#MACHINE} if the spec
   *     says so, else {@link Durability#PROCESS} (the default, which a resolved spec leaves out)
   * @throws IllegalArgumentException if the spec's {@value #DURABILITY} is not a durability (a
   *     variant that takes the option refuses such a spec when it resolves it)
   */
  public Durability durability() {
    String value = options.get(DURABILITY);
    return value == null ? Durability.PROCESS : Durability.parse(value);
  }

  /**
   * @return what kind of value the filter's keys are made from, if the spec says ({@value #KEYS})
   * @throws IllegalArgumentException if the spec's {@value #KEYS} is not a kind (a variant
   *     refuses such a spec when it resolves it)
   */
  public Optional<KeyKind> keyKind() {
    String value = options.get(KEYS);
    return value == null ? Optional.empty() : Optional.of(KeyKind.parse(value));
  }

  /** @return the variant-specific options, sorted by name; unmodifiable */
  public Map<String, String> options() {
    return options;
  }

  /**
   * @param name an option's name
   * @return its value as given, if given
   */
  public Optional<String> option(String name) {
    return Optional.ofNullable(options.get(name));
  }

  /** @return a builder holding everything this spec holds */
  public Builder toBuilder() {
    Builder b = new Builder(variant);
    b.capacity = capacity;
    b.fingerprintBits = fingerprintBits;
    b.targetFpp = targetFpp;
    b.bucketSize = bucketSize;
    b.hash = hash;
    b.hashInstance = hashInstance;
    b.seed = seed;
    b.maxKicks = maxKicks;
    b.concurrency = concurrency;
    b.options.putAll(options);
    return b;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof FilterSpec s)) {
      return false;
    }
    return variant.equals(s.variant)
        && Objects.equals(capacity, s.capacity)
        && Objects.equals(fingerprintBits, s.fingerprintBits)
        && Objects.equals(targetFpp, s.targetFpp)
        && Objects.equals(bucketSize, s.bucketSize)
        && Objects.equals(hash, s.hash)
        && Objects.equals(hashInstance, s.hashInstance)
        && Objects.equals(seed, s.seed)
        && Objects.equals(maxKicks, s.maxKicks)
        && concurrency == s.concurrency
        && options.equals(s.options);
  }

  @Override
  public int hashCode() {
    return Objects.hash(variant, capacity, fingerprintBits, targetFpp, bucketSize, hash,
        hashInstance, seed, maxKicks, concurrency, options);
  }

  /** @return the config string, which {@link #parse(String)} reads back */
  @Override
  public String toString() {
    List<String> pairs = new ArrayList<>();
    if (capacity != null) {
      pairs.add(CAPACITY + "=" + capacity);
    }
    if (fingerprintBits != null) {
      pairs.add(FINGERPRINT_BITS + "=" + fingerprintBits);
    }
    if (targetFpp != null) {
      pairs.add(TARGET_FPP + "=" + targetFpp);
    }
    if (bucketSize != null) {
      pairs.add(BUCKET_SIZE + "=" + bucketSize);
    }
    if (hash != null) {
      pairs.add(HASH + "=" + hash);
    }
    if (seed != null) {
      pairs.add(SEED + "=" + seed);
    }
    if (maxKicks != null) {
      pairs.add(MAX_KICKS + "=" + maxKicks);
    }
    if (concurrency != null) {
      pairs.add(CONCURRENCY + "=" + concurrency.configValue());
    }
    options.forEach((k, v) -> pairs.add(k + "=" + v));
    return pairs.isEmpty() ? variant : variant + "?" + String.join("&", pairs);
  }

  /**
   * Builds a {@link FilterSpec}. Each setter checks its value at once against what any variant
   * could accept; the variant checks its own ranges when the filter is created.
   */
  public static final class Builder {
    private final String variant;
    private Long capacity;
    private Integer fingerprintBits;
    private Double targetFpp;
    private Integer bucketSize;
    private String hash;
    private HashStrategy hashInstance;
    private Long seed;
    private Integer maxKicks;
    private Concurrency concurrency;
    private final TreeMap<String, String> options = new TreeMap<>();

    private Builder(String variant) {
      Objects.requireNonNull(variant, "variant must not be null");
      if (!ConfigText.isName(variant, true)) {
        throw new IllegalArgumentException(
            "variant name '" + variant + "' is not valid: 1 to 64 letters, digits, '.', '_' or"
                + " '-', starting with a letter or digit");
      }
      this.variant = variant;
    }

    /**
     * @param capacity the number of items the filter is sized for, at least 1 (the variant
     *     checks its own upper limit)
     * @return this builder
     * @throws IllegalArgumentException if {@code capacity < 1}, naming the variant's range when it
     *     is installed
     */
    public Builder capacity(long capacity) {
      if (capacity < 1) {
        throw outOfRange(CAPACITY, capacity, "at least 1", "");
      }
      this.capacity = capacity;
      return this;
    }

    /**
     * @param bits the fingerprint width, 1..64 (the variant checks its own range)
     * @return this builder
     * @throws IllegalArgumentException if {@code bits} is outside 1..64, naming the variant's
     *     range when it is installed
     */
    public Builder fingerprintBits(int bits) {
      if (bits < 1 || bits > 64) {
        throw outOfRange(FINGERPRINT_BITS, bits, "1..64", "");
      }
      this.fingerprintBits = bits;
      return this;
    }

    /**
     * @param fpp the target false-positive probability, strictly between 0 and 1, from which the
     *     variant derives the fingerprint width. Give this or {@link #fingerprintBits}, not both.
     * @return this builder
     * @throws IllegalArgumentException if {@code fpp} is not strictly between 0 and 1
     */
    public Builder targetFpp(double fpp) {
      if (!(fpp > 0.0 && fpp < 1.0)) {
        throw new IllegalArgumentException(
            TARGET_FPP + "=" + fpp + " is out of range: strictly between 0 and 1, e.g. 0.001");
      }
      this.targetFpp = fpp;
      return this;
    }

    /**
     * @param slots the number of slots per bucket, at least 1 (the variant checks which it
     *     supports)
     * @return this builder
     * @throws IllegalArgumentException if {@code slots < 1}, naming the variant's bucket sizes
     *     when it is installed
     */
    public Builder bucketSize(int slots) {
      if (slots < 1) {
        throw outOfRange(BUCKET_SIZE, slots, "at least 1", " (a bucket holds at least 1 slot)");
      }
      this.bucketSize = slots;
      return this;
    }

    /**
     * Names an installed hash strategy (see {@link CuckooFilters#hashes()}); the name is checked
     * when the filter is created.
     *
     * @param name the strategy's name
     * @return this builder
     */
    public Builder hash(String name) {
      Objects.requireNonNull(name, "hash name must not be null");
      if (!ConfigText.isName(name, true)) {
        throw new IllegalArgumentException(
            HASH + "=" + name + " is not a valid hash name: 1 to 64 letters, digits, '.', '_' or"
                + " '-'");
      }
      this.hash = name;
      this.hashInstance = null;
      return this;
    }

    /**
     * Uses this hash strategy instance as it is. Its {@link HashStrategy#name() name} is what the
     * config string and filter files record, so a reader finds it by that name (or is given the
     * instance). A {@link #seed} given too is recorded but not applied to the instance; without
     * one the resolved spec names no seed, as a {@link HashStrategy} cannot say its own.
     *
     * @param strategy the hash strategy
     * @return this builder
     */
    public Builder hash(HashStrategy strategy) {
      Objects.requireNonNull(strategy, "hash strategy must not be null");
      hash(strategy.name());
      this.hashInstance = strategy;
      return this;
    }

    /**
     * @param seed the seed the named hash strategy is built with (any value; 0 by default)
     * @return this builder
     */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /**
     * @param kicks the most evictions one insert may make before it is refused, at least 0 (the
     *     variant checks its own range)
     * @return this builder
     * @throws IllegalArgumentException if {@code kicks < 0}, naming the variant's range when it
     *     is installed
     */
    public Builder maxKicks(int kicks) {
      if (kicks < 0) {
        throw outOfRange(MAX_KICKS, kicks, "at least 0", "");
      }
      this.maxKicks = kicks;
      return this;
    }

    /**
     * Says whether the filter may be shared between threads. {@link Concurrency#THREADSAFE}
     * works with every variant, which picks its own thread-safe mode; {@link
     * Concurrency#STRIPED} and {@link Concurrency#LOCKED} name a mode, which the variant
     * checks it has.
     *
     * @param mode the mode; {@link Concurrency#NONE} by default
     * @return this builder
     */
    public Builder concurrency(Concurrency mode) {
      this.concurrency = Objects.requireNonNull(mode, "concurrency must not be null");
      return this;
    }

    /**
     * Records what kind of value the filter's keys are made from: the option {@value
     * FilterSpec#KEYS}, which every variant takes.
     *
     * @param kind the keys' kind
     * @return this builder
     */
    public Builder keyKind(KeyKind kind) {
      return option(KEYS, Objects.requireNonNull(kind, "kind must not be null").configValue());
    }

    /**
     * Says what a crash may take from the filter's file: the option {@value FilterSpec#DURABILITY}
     * of the variants whose filters live in files, which check it when the filter is created.
     *
     * @param durability {@link Durability#PROCESS} (the default) or {@link Durability#MACHINE}
     * @return this builder
     */
    public Builder durability(Durability durability) {
      return option(DURABILITY, Objects.requireNonNull(durability, "durability must not be null").configValue());
    }

    /**
     * Sets a variant-specific option. The variant checks the name and value when the filter is
     * created.
     *
     * @param name the option's name (not one of {@link FilterSpec#COMMON_KEYS})
     * @param value its value: letters, digits and {@code . _ : + , -}
     * @return this builder
     */
    public Builder option(String name, String value) {
      Objects.requireNonNull(name, "option name must not be null");
      Objects.requireNonNull(value, "value of option '" + name + "' must not be null");
      if (!ConfigText.isName(name, false)) {
        throw new IllegalArgumentException(
            "key '" + name + "' is not valid: 1 to 64 letters, digits, '.', '_' or '-',"
                + " starting with a letter");
      }
      for (String common : COMMON_KEYS) {
        if (common.equalsIgnoreCase(name)) {
          throw new IllegalArgumentException(
              common.equals(name)
                  ? "'" + name + "' is a common key, not an option: set it with its own method"
                  : "unknown key '" + name + "'; did you mean '" + common + "'?");
        }
      }
      if (!ConfigText.isOptionValue(value)) {
        throw new IllegalArgumentException(
            name + "=" + value + " is not a valid option value: 1 to 256 letters, digits and"
                + " . _ : + , -");
      }
      options.put(name, value);
      return this;
    }

    /**
     * Sets any key from its text, exactly as in a config string: a common key is parsed and
     * checked, anything else becomes an option.
     *
     * @param key the key
     * @param value the value as text
     * @return this builder
     */
    public Builder set(String key, String value) {
      Objects.requireNonNull(key, "key must not be null");
      Objects.requireNonNull(value, "value of key '" + key + "' must not be null");
      if (value.isEmpty()) {
        throw new IllegalArgumentException(key + " has an empty value");
      }
      return switch (key) {
        case CAPACITY -> capacity(ConfigText.parseWhole(key, value));
        case FINGERPRINT_BITS -> fingerprintBits(ConfigText.parseInt(key, value));
        case TARGET_FPP -> targetFpp(ConfigText.parseDecimal(key, value));
        case BUCKET_SIZE -> bucketSize(ConfigText.parseInt(key, value));
        case HASH -> hash(value);
        case SEED -> seed(ConfigText.parseWholeOrHex(key, value));
        case MAX_KICKS -> maxKicks(ConfigText.parseInt(key, value));
        case CONCURRENCY -> concurrency(Concurrency.parse(value));
        case VARIANT_PROPERTY -> throw new IllegalArgumentException(
            "'variant' is not a key: the variant goes before '?', as in " + value + "?capacity=1000");
        default -> option(key, value);
      };
    }

    /**
     * A value no variant takes, reported with what any variant could take: a spec is a value and
     * looks nothing up. {@link CuckooFilters}, which parses the config strings it is given,
     * reports it with the range of the spec's variant when that is installed, as the variant
     * reports a value outside its own range ({@code fingerprintBits=0} and {@code =3} both say
     * {@code 4..32} for {@code classic}).
     */
    private IllegalArgumentException outOfRange(String key, long value, String anyVariant, String why) {
      return new ValueOutOfRange(variant, key, value, anyVariant, why);
    }

    /**
     * @return the spec
     * @throws IllegalArgumentException if both {@code fingerprintBits} and {@code targetFpp} are
     *     given
     */
    public FilterSpec build() {
      if (fingerprintBits != null && targetFpp != null) {
        throw new IllegalArgumentException(
            FINGERPRINT_BITS + "=" + fingerprintBits + " and " + TARGET_FPP + "=" + targetFpp
                + " are both given: give one of them");
      }
      return new FilterSpec(this);
    }
  }

  /**
   * A value the builder refuses whatever the variant, with what {@link CuckooFilters} needs to
   * name the variant's own range instead.
   */
  static final class ValueOutOfRange extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The spec's variant, the key, the value, and why a value no variant takes is out of it. */
    final String variant;
    final String key;
    final long value;
    final String why;

    ValueOutOfRange(String variant, String key, long value, String anyVariant, String why) {
      super(key + "=" + value + " is out of range: " + anyVariant);
      this.variant = variant;
      this.key = key;
      this.value = value;
      this.why = why;
    }
  }
}
