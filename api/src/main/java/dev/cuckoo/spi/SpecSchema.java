package dev.cuckoo.spi;

import dev.cuckoo.Concurrency;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.text.ClosestName;
import dev.cuckoo.text.ConfigText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a variant accepts: the range and default of every common key, the default hash, and its
 * own options. {@link #resolve(FilterSpec)} checks a spec against it and fills in every default,
 * so that each variant rejects bad configuration with the same kind of message: the key, the
 * value given, the variant and what is allowed ({@code fingerprintBits=40 is out of range for
 * variant classic: 4..32}).
 *
 * <p>A {@code targetFpp} is turned into the smallest fingerprint width {@code f} with {@code
 * 2b/2^f <= targetFpp} (the bound of Fan et al. [1], section 5.1), at least the variant's
 * minimum width, and for a variant of a few widths the narrowest of them that is that wide.
 *
 * <p>[1] B. Fan, D. G. Andersen, M. Kaminsky, M. D. Mitzenmacher, "Cuckoo Filter: Practically
 * Better Than Bloom", CoNEXT 2014.
 */
public final class SpecSchema {
  private final String variant;
  private final long minCapacity;
  private final long maxCapacity;
  private final long defaultCapacity; // 0: required
  private final int minBits;
  private final int maxBits;
  private final int defaultBits;
  private final int[] widths; // null: every width in minBits..maxBits
  private final int[] bucketSizes; // null: every size in minBucket..maxBucket
  private final int minBucket;
  private final int maxBucket;
  private final int defaultBucket;
  private final int minKicks;
  private final int maxKicks;
  private final int defaultKicks;
  private final String defaultHash;
  private final Concurrency threadSafeMode; // null: none
  private final boolean keepsTargetFpp;
  private final Map<String, Option> options;
  /** The default of {@link FilterSpec#KEYS}: keys of any kind, not recorded. */
  private static final String ANY_KEYS = "any";

  private SpecSchema(Builder b) {
    this.variant = b.variant;
    this.minCapacity = b.minCapacity;
    this.maxCapacity = b.maxCapacity;
    this.defaultCapacity = b.defaultCapacity;
    this.minBits = b.minBits;
    this.maxBits = b.maxBits;
    this.defaultBits = b.defaultBits;
    this.widths = b.widths;
    this.bucketSizes = b.bucketSizes;
    this.minBucket = b.minBucket;
    this.maxBucket = b.maxBucket;
    this.defaultBucket = b.defaultBucket;
    this.minKicks = b.minKicks;
    this.maxKicks = b.maxKicks;
    this.defaultKicks = b.defaultKicks;
    this.defaultHash = b.defaultHash;
    this.threadSafeMode = b.threadSafeMode;
    this.keepsTargetFpp = b.keepsTargetFpp;
    this.options = Collections.unmodifiableMap(new LinkedHashMap<>(b.options));
  }

  /**
   * @param variant the variant this schema describes
   * @return a builder; every common key must be described before {@link Builder#build()}
   */
  public static Builder builder(String variant) {
    return new Builder(variant);
  }

  /**
   * Checks a spec and fills in every default. The result names every common key (with the
   * fingerprint width derived from {@code targetFpp} if that was given, and {@code targetFpp}
   * dropped, unless the variant {@link Builder#keepsTargetFpp keeps the rate}; and without
   * {@code seed} when the hash is an instance and no seed was given, since the instance's own
   * seed is not known) and every option; resolving it again returns an equal spec.
   *
   * @param spec a spec for this variant
   * @return the resolved spec
   * @throws IllegalArgumentException naming the key, the value and what is allowed, for a value
   *     out of range, a missing capacity (unless the variant has a default), or an unknown key or
   *     option value (whether the hash it
   *     names is installed is for {@link dev.cuckoo.CuckooFilters} to check, which knows what is)
   */
  public FilterSpec resolve(FilterSpec spec) {
    Objects.requireNonNull(spec, "spec");
    if (!spec.variant().equals(variant)) {
      throw new IllegalArgumentException(
          "spec '" + spec + "' is for variant " + spec.variant() + ", not " + variant);
    }
    for (String key : spec.options().keySet()) {
      if (!options.containsKey(key)) {
        throw new IllegalArgumentException(
            "unknown key '" + key + "' for variant " + variant + ClosestName.didYouMean(key, keys())
                + "; allowed keys: " + String.join(", ", keys()));
      }
    }
    if (spec.capacity().isEmpty() && defaultCapacity == 0) {
      throw new IllegalArgumentException(
          FilterSpec.CAPACITY + " is missing for variant " + variant + ": give "
              + FilterSpec.CAPACITY + "=N with N in " + minCapacity + ".." + maxCapacity);
    }
    long capacity = spec.capacity().orElse(defaultCapacity);
    if (capacity < minCapacity || capacity > maxCapacity) {
      throw ConfigValues.outOfRange(FilterSpec.CAPACITY, capacity, variant, allowed(FilterSpec.CAPACITY));
    }
    int bucketSize = spec.bucketSize().orElse(defaultBucket);
    if (!supportsBucketSize(bucketSize)) {
      throw ConfigValues.outOfRange(FilterSpec.BUCKET_SIZE, bucketSize, variant, allowed(FilterSpec.BUCKET_SIZE));
    }
    int bits;
    Double keptFpp = null;
    if (spec.fingerprintBits().isEmpty() && spec.targetFpp().isPresent() && keepsTargetFpp) {
      keptFpp = spec.targetFpp().getAsDouble(); // the builder checked it is strictly between 0 and 1
      bits = 0;
    } else if (spec.fingerprintBits().isPresent()) {
      bits = spec.fingerprintBits().getAsInt();
      if (!supportsFingerprintBits(bits)) {
        throw ConfigValues.outOfRange(FilterSpec.FINGERPRINT_BITS, bits, variant, allowed(FilterSpec.FINGERPRINT_BITS));
      }
    } else if (spec.targetFpp().isPresent()) {
      double fpp = spec.targetFpp().getAsDouble();
      if (!(fpp > 0.0 && fpp < 1.0)) {
        throw ConfigValues.outOfRange(FilterSpec.TARGET_FPP, fpp, variant, "strictly between 0 and 1, e.g. 0.001");
      }
      bits = fingerprintBitsFor(fpp, bucketSize);
      if (bits > maxBits) {
        throw new IllegalArgumentException(
            FilterSpec.TARGET_FPP + "=" + fpp + " needs " + bits + "-bit fingerprints with "
                + FilterSpec.BUCKET_SIZE + "=" + bucketSize + ", out of range for variant "
                + variant + ": " + FilterSpec.FINGERPRINT_BITS + " " + fingerprintBitsText());
      }
      bits = Math.max(bits, minBits);
      while (!supportsFingerprintBits(bits)) {
        bits++; // the narrowest supported width that is at least as wide
      }
    } else {
      bits = defaultBits;
    }
    int kicks = spec.maxKicks().orElse(defaultKicks);
    if (kicks < minKicks || kicks > maxKicks) {
      throw ConfigValues.outOfRange(FilterSpec.MAX_KICKS, kicks, variant, allowed(FilterSpec.MAX_KICKS));
    }

    FilterSpec.Builder out =
        FilterSpec.builder(variant)
            .capacity(capacity)
            .bucketSize(bucketSize)
            .maxKicks(kicks)
            .concurrency(resolveConcurrency(spec.concurrency().orElse(Concurrency.NONE)));
    if (keptFpp != null) {
      out.targetFpp(keptFpp);
    } else {
      out.fingerprintBits(bits);
    }
    if (spec.hashInstance().isPresent()) {
      // A HashStrategy cannot say its seed: the spec records one only if the caller gave it,
      // never a default the instance may contradict.
      out.hash(spec.hashInstance().get());
      spec.seed().ifPresent(out::seed);
    } else {
      out.hash(spec.hash().orElse(defaultHash)).seed(spec.seed().orElse(0L));
    }
    for (Option option : options.values()) {
      String given = spec.options().get(option.name);
      String value = given == null ? option.defaultValue : option.canonical(given, variant);
      if (!(option.omittedAtDefault && value.equals(option.defaultValue))) {
        out.option(option.name, value);
      }
    }
    return out.build();
  }

  private Concurrency resolveConcurrency(Concurrency given) {
    if (given == Concurrency.THREADSAFE) {
      if (threadSafeMode == null) {
        throw new IllegalArgumentException(
            FilterSpec.CONCURRENCY + "=" + given + " is out of range for variant " + variant
                + ": it has no thread-safe mode (" + concurrencyText()
                + "); guard a shared filter with your own lock");
      }
      return threadSafeMode;
    }
    if (given != Concurrency.NONE && given != threadSafeMode) {
      throw ConfigValues.outOfRange(FilterSpec.CONCURRENCY, given, variant, concurrencyText());
    }
    return given;
  }

  /**
   * The smallest fingerprint width {@code f} whose bound {@code 2b/2^f} is at most {@code fpp}.
   *
   * @param fpp the target false-positive probability, in (0, 1)
   * @param bucketSize the slots per bucket
   * @return the width, which may exceed {@link #maxFingerprintBits()}
   */
  public static int fingerprintBitsFor(double fpp, int bucketSize) {
    int f = 1;
    while (f < 128 && 2.0 * bucketSize / Math.scalb(1.0, f) > fpp) {
      f++;
    }
    return f;
  }

  /** @return the variant this schema describes */
  public String variant() {
    return variant;
  }

  /** @return the smallest capacity allowed */
  public long minCapacity() {
    return minCapacity;
  }

  /** @return the largest capacity allowed */
  public long maxCapacity() {
    return maxCapacity;
  }

  /**
   * @return the capacity used when none is given, for a variant that has one (a filter that
   *     grows, say); empty when {@code capacity} is required
   */
  public java.util.OptionalLong defaultCapacity() {
    return defaultCapacity == 0 ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(defaultCapacity);
  }

  /** @return the narrowest fingerprint allowed, in bits */
  public int minFingerprintBits() {
    return minBits;
  }

  /** @return the widest fingerprint allowed, in bits */
  public int maxFingerprintBits() {
    return maxBits;
  }

  /**
   * @param bits a fingerprint width
   * @return whether the variant supports it
   */
  public boolean supportsFingerprintBits(int bits) {
    return widths == null ? bits >= minBits && bits <= maxBits : Arrays.binarySearch(widths, bits) >= 0;
  }

  /** @return the supported fingerprint widths as text: {@code 4..32} or {@code 16, 32} */
  public String fingerprintBitsText() {
    return widths == null
        ? minBits + ".." + maxBits
        : Arrays.stream(widths).mapToObj(Integer::toString).collect(Collectors.joining(", "));
  }

  /** @return the fingerprint width used when neither width nor target FPP is given */
  public int defaultFingerprintBits() {
    return defaultBits;
  }

  /**
   * @param slots a bucket size
   * @return whether the variant supports it
   */
  public boolean supportsBucketSize(int slots) {
    return bucketSizes == null
        ? slots >= minBucket && slots <= maxBucket
        : Arrays.binarySearch(bucketSizes, slots) >= 0;
  }

  /** @return the supported bucket sizes as text: {@code 1, 2, 4, 8} or {@code 1..255} */
  public String bucketSizesText() {
    return bucketSizes == null
        ? minBucket + ".." + maxBucket
        : Arrays.stream(bucketSizes).mapToObj(Integer::toString).collect(Collectors.joining(", "));
  }

  /** @return the bucket size used when none is given */
  public int defaultBucketSize() {
    return defaultBucket;
  }

  /** @return the smallest {@code maxKicks} allowed */
  public int minMaxKicks() {
    return minKicks;
  }

  /** @return the largest {@code maxKicks} allowed */
  public int maxMaxKicks() {
    return maxKicks;
  }

  /** @return the {@code maxKicks} used when none is given */
  public int defaultMaxKicks() {
    return defaultKicks;
  }

  /** @return the hash used when none is given */
  public String defaultHash() {
    return defaultHash;
  }

  /**
   * @return the mode {@link Concurrency#THREADSAFE} resolves to for this variant, if it has a
   *     thread-safe mode
   */
  public java.util.Optional<Concurrency> threadSafeMode() {
    return java.util.Optional.ofNullable(threadSafeMode);
  }

  /**
   * @return the {@code concurrency} values this variant accepts, as text: {@code none} alone, or
   *     {@code none, threadsafe, striped} for a variant whose thread-safe mode is striped
   */
  public String concurrencyText() {
    return threadSafeMode == null
        ? Concurrency.NONE.configValue()
        : Concurrency.NONE + ", " + Concurrency.THREADSAFE + ", " + threadSafeMode;
  }

  /** @return the names of the variant's own options, in the order they were declared */
  public Set<String> optionNames() {
    return options.keySet();
  }

  /**
   * @return whether a {@code targetFpp} resolves to itself, a rate the variant holds, rather
   *     than to a fingerprint width ({@link Builder#keepsTargetFpp})
   */
  public boolean keepsTargetFpp() {
    return keepsTargetFpp;
  }

  /**
   * @param name an option's name
   * @return its default value as text
   * @throws IllegalArgumentException if the variant has no such option
   */
  public String optionDefault(String name) {
    Option o = options.get(name);
    if (o == null) {
      throw new IllegalArgumentException("variant " + variant + " has no option '" + name + "'");
    }
    return o.defaultValue;
  }

  /**
   * @param name an option's name
   * @return what the option allows, as text (e.g. {@code 0..32768} or {@code none, striped})
   * @throws IllegalArgumentException if the variant has no such option
   */
  public String optionAllowed(String name) {
    Option o = options.get(name);
    if (o == null) {
      throw new IllegalArgumentException("variant " + variant + " has no option '" + name + "'");
    }
    return o.allowedText();
  }

  /**
   * What the variant allows for a key whose values it limits, as its out-of-range messages say
   * it: {@code 4..32} for {@code fingerprintBits}, {@code 1, 2, 4, 8} for {@code bucketSize}.
   *
   * @param key {@code capacity}, {@code fingerprintBits}, {@code bucketSize}, {@code maxKicks}
   *     or one of the variant's options
   * @return what it allows, as text
   * @throws IllegalArgumentException for any other key
   */
  public String allowed(String key) {
    return switch (key) {
      case FilterSpec.CAPACITY -> minCapacity + ".." + maxCapacity;
      case FilterSpec.FINGERPRINT_BITS -> fingerprintBitsText();
      case FilterSpec.BUCKET_SIZE -> bucketSizesText();
      case FilterSpec.MAX_KICKS -> minKicks + ".." + maxKicks;
      default -> optionAllowed(key);
    };
  }

  /** @return every key the variant accepts: the common keys, then its options */
  public List<String> keys() {
    List<String> keys = new ArrayList<>(FilterSpec.COMMON_KEYS);
    keys.addAll(options.keySet());
    return keys;
  }

  @Override
  public String toString() {
    return variant + " schema: capacity " + minCapacity + ".." + maxCapacity
        + (defaultCapacity == 0 ? "" : " (default " + defaultCapacity + ")") + ", fingerprintBits "
        + fingerprintBitsText() + " (default " + defaultBits + "), bucketSize "
        + bucketSizesText() + " (default " + defaultBucket + "), maxKicks " + minKicks + ".."
        + maxKicks + " (default " + defaultKicks + "), hash default " + defaultHash
        + ", concurrency " + concurrencyText() + " (default none)"
        + options.values().stream().map(o -> ", " + o.name + " " + o.allowedText() + " (default " + o.defaultValue + ")").collect(Collectors.joining());
  }

  /** A variant option: whole numbers in a range, or one of a set of words. */
  private static final class Option {
    final String name;
    final String defaultValue;
    final long min;
    final long max;
    final List<String> choices; // null: a whole number in min..max
    /** Left out of a resolved spec at its default, so that specs written before it stay as they were. */
    final boolean omittedAtDefault;

    Option(String name, String defaultValue, long min, long max, List<String> choices, boolean omittedAtDefault) {
      this.name = name;
      this.defaultValue = defaultValue;
      this.min = min;
      this.max = max;
      this.choices = choices;
      this.omittedAtDefault = omittedAtDefault;
    }

    String canonical(String value, String variant) {
      if (choices != null) {
        if (!choices.contains(value)) {
          throw ConfigValues.outOfRange(name, value, variant, allowedText());
        }
        return value;
      }
      long v = ConfigText.parseWhole(name, value);
      if (v < min || v > max) {
        throw ConfigValues.outOfRange(name, value, variant, allowedText());
      }
      return Long.toString(v);
    }

    String allowedText() {
      return choices == null ? min + ".." + max : String.join(", ", choices);
    }
  }

  /** Describes a variant's keys; every common key must be described. */
  public static final class Builder {
    private final String variant;
    private long minCapacity = -1;
    private long maxCapacity;
    private long defaultCapacity;
    private int minBits = -1;
    private int maxBits;
    private int defaultBits;
    private int[] widths;
    private int[] bucketSizes;
    private int minBucket = -1;
    private int maxBucket;
    private int defaultBucket;
    private int minKicks = -1;
    private int maxKicks;
    private int defaultKicks;
    private String defaultHash;
    private Concurrency threadSafeMode;
    private boolean keepsTargetFpp;
    private final Map<String, Option> options = new LinkedHashMap<>();

    private Builder(String variant) {
      FilterSpec.builder(variant); // checks the name
      this.variant = variant;
    }

    /**
     * Declares the capacities allowed; {@code capacity} is then required.
     *
     * @param min the smallest capacity, at least 1
     * @param max the largest capacity
     * @return this builder
     */
    public Builder capacity(long min, long max) {
      require(min >= 1 && min <= max, "capacity range " + min + ".." + max);
      this.minCapacity = min;
      this.maxCapacity = max;
      this.defaultCapacity = 0;
      return this;
    }

    /**
     * Declares the capacities allowed and the one used when none is given, for a variant where a
     * missing capacity has a sensible meaning (a filter that grows from a small start, say).
     *
     * @param min the smallest capacity, at least 1
     * @param max the largest capacity
     * @param defaultCapacity the capacity used when none is given, in {@code min..max}
     * @return this builder
     */
    public Builder capacity(long min, long max, long defaultCapacity) {
      capacity(min, max);
      require(defaultCapacity >= min && defaultCapacity <= max,
          "capacity " + min + ".." + max + " default " + defaultCapacity);
      this.defaultCapacity = defaultCapacity;
      return this;
    }

    /**
     * @param min the narrowest width, at least 1
     * @param max the widest width, at most 64
     * @param defaultBits the width used when none is given
     * @return this builder
     */
    public Builder fingerprintBits(int min, int max, int defaultBits) {
      require(min >= 1 && min <= max && max <= 64 && defaultBits >= min && defaultBits <= max,
          "fingerprintBits " + min + ".." + max + " default " + defaultBits);
      this.minBits = min;
      this.maxBits = max;
      this.defaultBits = defaultBits;
      this.widths = null;
      return this;
    }

    /**
     * Declares a variant that supports only some fingerprint widths (the lane widths of its
     * table, say); a {@code targetFpp} then gives the narrowest of them that is wide enough.
     *
     * @param defaultBits the width used when none is given (one of {@code allowed})
     * @param allowed every supported width, each 1..64
     * @return this builder
     */
    public Builder fingerprintWidths(int defaultBits, int... allowed) {
      int[] sorted = allowed.clone();
      Arrays.sort(sorted);
      require(sorted.length > 0 && sorted[0] >= 1 && sorted[sorted.length - 1] <= 64
          && Arrays.binarySearch(sorted, defaultBits) >= 0,
          "fingerprint widths " + Arrays.toString(allowed) + " default " + defaultBits);
      fingerprintBits(sorted[0], sorted[sorted.length - 1], defaultBits);
      this.widths = sorted;
      return this;
    }

    /**
     * @param defaultSize the bucket size used when none is given (one of {@code allowed})
     * @param allowed every supported bucket size
     * @return this builder
     */
    public Builder bucketSizes(int defaultSize, int... allowed) {
      int[] sorted = allowed.clone();
      Arrays.sort(sorted);
      require(sorted.length > 0 && sorted[0] >= 1 && Arrays.binarySearch(sorted, defaultSize) >= 0,
          "bucket sizes " + Arrays.toString(allowed) + " default " + defaultSize);
      this.bucketSizes = sorted;
      this.minBucket = sorted[0];
      this.maxBucket = sorted[sorted.length - 1];
      this.defaultBucket = defaultSize;
      return this;
    }

    /**
     * @param min the smallest bucket size, at least 1
     * @param max the largest bucket size
     * @param defaultSize the bucket size used when none is given
     * @return this builder
     */
    public Builder bucketSizeRange(int min, int max, int defaultSize) {
      require(min >= 1 && min <= max && defaultSize >= min && defaultSize <= max,
          "bucket sizes " + min + ".." + max + " default " + defaultSize);
      this.bucketSizes = null;
      this.minBucket = min;
      this.maxBucket = max;
      this.defaultBucket = defaultSize;
      return this;
    }

    /**
     * @param min the smallest {@code maxKicks}, at least 0
     * @param max the largest
     * @param defaultKicks the value used when none is given
     * @return this builder
     */
    public Builder maxKicks(int min, int max, int defaultKicks) {
      require(min >= 0 && min <= max && defaultKicks >= min && defaultKicks <= max,
          "maxKicks " + min + ".." + max + " default " + defaultKicks);
      this.minKicks = min;
      this.maxKicks = max;
      this.defaultKicks = defaultKicks;
      return this;
    }

    /**
     * @param name the hash used when none is given
     * @return this builder
     */
    public Builder defaultHash(String name) {
      FilterSpec.builder("x").hash(name); // checks the name
      this.defaultHash = name;
      return this;
    }

    /**
     * Declares that the variant can be shared between threads in this mode: {@code
     * concurrency} then accepts {@code none} (the default), this mode, and {@code threadsafe},
     * which resolves to it. A variant that declares none accepts only {@code none}.
     *
     * @param mode {@link Concurrency#STRIPED} or {@link Concurrency#LOCKED}
     * @return this builder
     */
    public Builder threadSafeMode(Concurrency mode) {
      require(mode == Concurrency.STRIPED || mode == Concurrency.LOCKED, "thread-safe mode " + mode);
      this.threadSafeMode = mode;
      return this;
    }

    /**
     * Declares that the variant takes a {@code targetFpp} as it is rather than as a fingerprint
     * width: a spec that gives one (and no {@code fingerprintBits}) resolves to a spec that names
     * the rate and no width, for a variant whose fingerprints change with its size (the
     * expandable filter, whose lanes widen to hold the rate as it grows). The variant checks
     * what rates it can hold.
     *
     * @return this builder
     */
    public Builder keepsTargetFpp() {
      this.keepsTargetFpp = true;
      return this;
    }

    /**
     * Declares an option whose value is a whole number.
     *
     * @param name the option's name
     * @param min the smallest value
     * @param max the largest value
     * @param defaultValue the value used when none is given
     * @return this builder
     */
    public Builder wholeOption(String name, long min, long max, long defaultValue) {
      require(min <= max && defaultValue >= min && defaultValue <= max,
          name + " " + min + ".." + max + " default " + defaultValue);
      return addOption(new Option(name, Long.toString(defaultValue), min, max, null, false));
    }

    /**
     * Declares an option whose value is a whole number that may be left out: a hint. Its
     * default, 0, stands for none given and is left out of a resolved spec, so that specs
     * written before it stay as they were.
     *
     * @param name the option's name
     * @param min the smallest value a user may give, at least 1
     * @param max the largest value
     * @return this builder
     */
    public Builder hintOption(String name, long min, long max) {
      require(min >= 1 && min <= max, name + " " + min + ".." + max);
      return addOption(new Option(name, "0", min, max, null, true));
    }

    /**
     * Declares the option {@link FilterSpec#SHARDS}: the number of shards the table is split
     * into, 1..{@code max}, default 1. A resolved spec names it only above 1, so that the config
     * strings, and so the files, of filters that are not sharded stay as they were.
     *
     * @param max the most shards, at least 1
     * @return this builder
     */
    public Builder shards(int max) {
      require(max >= 1, FilterSpec.SHARDS + " 1.." + max);
      return addOption(new Option(FilterSpec.SHARDS, "1", 1, max, null, true));
    }

    /**
     * Declares the option {@link FilterSpec#DURABILITY}, for a variant whose filters map files:
     * {@code process} (the default, left out of a resolved spec) or {@code machine}.
     *
     * @return this builder
     */
    public Builder durability() {
      return addOption(new Option(FilterSpec.DURABILITY, dev.cuckoo.Durability.PROCESS.configValue(), 0, 0,
          List.of(dev.cuckoo.Durability.PROCESS.configValue(), dev.cuckoo.Durability.MACHINE.configValue()), true));
    }

    /**
     * Declares an option whose value is one of a set of words.
     *
     * @param name the option's name
     * @param defaultValue the value used when none is given (one of {@code allowed})
     * @param allowed every allowed value
     * @return this builder
     */
    public Builder choiceOption(String name, String defaultValue, String... allowed) {
      List<String> choices = List.of(allowed);
      require(choices.contains(defaultValue), name + " " + choices + " default " + defaultValue);
      return addOption(new Option(name, defaultValue, 0, 0, choices, false));
    }

    private Builder addOption(Option option) {
      FilterSpec.builder("x").option(option.name, option.defaultValue); // checks name and value
      require(!options.containsKey(option.name), "option " + option.name + " declared twice");
      options.put(option.name, option);
      return this;
    }

    /**
     * @return the schema
     * @throws IllegalStateException if a common key was not described
     */
    public SpecSchema build() {
      if (minCapacity < 0 || minBits < 0 || minBucket < 0 || minKicks < 0 || defaultHash == null) {
        throw new IllegalStateException(
            "schema of variant " + variant + " must describe capacity, fingerprintBits, bucket"
                + " sizes, maxKicks and the default hash");
      }
      if (!options.containsKey(FilterSpec.KEYS)) {
        // Every variant records its keys' kind when asked (KeyKind); "any", the default, is
        // left out of a resolved spec, so that filters that do not say stay as they were.
        // A loop, not a stream: this runs on the way to a process's first lookup, where a lambda
        // would spin a class (FirstOpenTest).
        List<String> kinds = new ArrayList<>();
        kinds.add(ANY_KEYS);
        for (dev.cuckoo.KeyKind kind : dev.cuckoo.KeyKind.values()) {
          kinds.add(kind.configValue());
        }
        addOption(new Option(FilterSpec.KEYS, ANY_KEYS, 0, 0, List.copyOf(kinds), true));
      }
      return new SpecSchema(this);
    }

    private static void require(boolean ok, String what) {
      if (!ok) {
        throw new IllegalArgumentException("inconsistent schema: " + what);
      }
    }
  }
}
