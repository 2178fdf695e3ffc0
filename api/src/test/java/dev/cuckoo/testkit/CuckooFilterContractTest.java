package dev.cuckoo.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.KeyEncoder;
import dev.cuckoo.KeyKind;
import dev.cuckoo.MappedFilter;
import dev.cuckoo.TypedFilter;
import dev.cuckoo.spi.SpecSchema;
import dev.cuckoo.testkit.TestKey.Form;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every variant keeps, as one abstract test: a variant module subclasses it, names
 * its variant and the configurations to check, and gets the whole suite (the pattern of JCTools'
 * {@code QueueSanityTest}).
 *
 * <p>What it checks, for every configuration:
 * <ul>
 *   <li>random sequences of add, addIfAbsent, remove (of present keys), mightContain, count,
 *       clear and write/read against a multiset model: no false negatives, {@code size()} always
 *       equal to the model's, {@code count} never below the multiplicity;
 *   <li>filling with distinct keys to the first refused add: every stored key still found, also
 *       after a write/read round trip and after removing half of them;
 *   <li>the measured false-positive rate near {@link CuckooFilter#expectedFpp()} at a quarter,
 *       half and all of the capacity, and within {@link #fppBound}, give or take statistical
 *       slack;
 *   <li>add, lookup, count and remove allocate nothing (unless {@link #allocationFree} says the
 *       variant may);
 *   <li>the key-encoding rule across key forms, the resolved spec's round trip, {@code clear},
 *       {@code concurrency=threadsafe} with four writers, {@code capacity()} and null keys;
 *   <li>bad configuration rejected with a message naming key and value, one dynamic test per
 *       case; truncated, bit-flipped and garbage files rejected with {@link
 *       CorruptFilterException}; forged size fields (huge values, checksum fixed) rejected or read
 *       without allocating in proportion to what they declare.
 * </ul>
 *
 * <p>Randomness comes from one base seed, printed in every failure message; rerun with {@code
 * -Dcuckoo.test.seed=N} to repeat a run exactly.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class CuckooFilterContractTest {
  /** The base seed of this run; every test derives its own from it and its config. */
  protected static final long BASE_SEED = TestSeed.BASE;

  /** @return the variant under test, as {@link CuckooFilters#variants()} lists it */
  protected abstract String variant();

  /**
   * @return whether the behaviour tests make their filters in files ({@link
   *     CuckooFilters#createFile}, in a directory of the kit's, each closed after its test), so
   *     that a variant that maps files keeps the contract over that storage too; {@code false}
   *     (on the heap) by default
   */
  protected boolean inFiles() {
    return false;
  }

  /** The filters made in files by the current test, closed after it. */
  private final List<MappedFilter> openFiles = new ArrayList<>();
  /** Where {@link #newFilter} makes files, made at its first; {@code null} before. */
  private Path filesDir;
  private int filesMade;

  /**
   * Makes a filter of a config for a behaviour test: on the heap, or in a file when {@link
   * #inFiles} says so.
   *
   * @param config a config from {@link #configs}
   * @return an empty filter of it
   */
  protected final CuckooFilter newFilter(String config) {
    if (!inFiles()) {
      return CuckooFilters.create(config);
    }
    try {
      if (filesDir == null) {
        filesDir = Files.createTempDirectory("cuckoo-contract-" + variant());
      }
      MappedFilter f = CuckooFilters.createFile(config, filesDir.resolve("f" + filesMade++ + ".cuckoo"));
      openFiles.add(f);
      return f;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @AfterEach
  final void closeFiles() throws IOException {
    for (MappedFilter f : openFiles) {
      f.close();
    }
    openFiles.clear();
  }

  @AfterAll
  final void removeFiles() throws IOException {
    if (filesDir != null) {
      try (Stream<Path> files = Files.list(filesDir)) {
        for (Path p : (Iterable<Path>) files::iterator) {
          Files.delete(p);
        }
      }
      Files.delete(filesDir);
    }
  }

  /**
   * @return the config strings to check, each naming a capacity; keep capacities modest (a few
   *     thousand to a few tens of thousands) so that the suite stays quick
   */
  protected abstract List<String> configs();

  /**
   * @param spec a resolved spec
   * @return whether a filter of this spec refuses adds once full (rather than growing)
   */
  protected boolean refusesWhenFull(FilterSpec spec) {
    return true;
  }

  /**
   * @param spec a resolved spec
   * @return whether a filter of this spec takes {@code capacity} distinct keys without a refusal
   */
  protected boolean guaranteesCapacity(FilterSpec spec) {
    return true;
  }

  /**
   * @param spec a resolved spec
   * @return whether two filters of this spec holding a third of its capacity each always merge
   *     whole ({@code scalable} merges into sub-filters no newer than a fingerprint's own, and
   *     may stop early)
   */
  protected boolean mergesWhole(FilterSpec spec) {
    return true;
  }

  /**
   * @param spec a resolved spec
   * @return whether a merge into a filter of this spec may be refused whole, with an {@link
   *     IllegalArgumentException} and the filter unchanged, where its layout cannot place every
   *     fingerprint ({@code scalable} with an expansion of 2 or more)
   */
  protected boolean mayRefuseMerge(FilterSpec spec) {
    return false;
  }

  /**
   * @param spec a resolved spec
   * @return whether a filter of this spec merges with one of another {@code capacity} (a
   *     growing variant does; a table's fingerprints are otherwise tied to its bucket count)
   */
  protected boolean mergesAcrossCapacities(FilterSpec spec) {
    return false;
  }

  /**
   * @param spec a resolved spec
   * @return whether {@code count(key)} depends only on the keys added, not on where their entries
   *     landed: true for one table (a key's two buckets are fixed), false for a chain, where a
   *     colliding fingerprint adds to a count only in the sub-filter it happened to land in
   */
  protected boolean countsIndependentOfPlacement(FilterSpec spec) {
    return true;
  }

  /**
   * The bound the measured false-positive rate must meet: by default {@code 2b/2^f} (Fan et al.,
   * section 5.1).
   *
   * @param filter a filter loaded with distinct keys
   * @return the bound for its current state
   */
  protected double fppBound(CuckooFilter filter) {
    FilterSpec s = filter.spec();
    return Math.min(1.0, 2.0 * s.bucketSize().getAsInt() / Math.scalb(1.0, s.fingerprintBits().getAsInt()));
  }

  /**
   * @param spec a resolved spec
   * @return whether add, lookup, count and remove of a filter of this spec allocate nothing (for
   *     keys within its capacity); {@code true} by default
   */
  protected boolean allocationFree(FilterSpec spec) {
    return true;
  }

  /**
   * @param spec a resolved spec
   * @return how many random operations the model test runs
   */
  protected int modelOperations(FilterSpec spec) {
    return (int) Math.min(30_000, Math.max(3_000, 3 * spec.capacity().getAsLong()));
  }

  /**
   * @param spec a resolved spec
   * @return how many negative lookups the false-positive test makes
   */
  protected int fppQueries(FilterSpec spec) {
    return 200_000;
  }

  /** @return the configs, for {@code @MethodSource} */
  protected final Stream<String> configSource() {
    return configs().stream();
  }

  // ---------------------------------------------------------------- model-based sequences

  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void randomOperationsMatchTheMultisetModel(String config) {
    SplittableRandom r = random("model", config);
    CuckooFilter f = newFilter(config);
    FilterSpec spec = f.spec();
    String where = where(config, "model");
    int poolSize = (int) Math.min(40_000, spec.capacity().getAsLong() * 13 / 10 + 16);
    List<TestKey> pool = distinctKeys(r, poolSize);
    KeyMultiset model = new KeyMultiset();
    int operations = modelOperations(spec);
    int refusalChecks = 0;
    for (int step = 0; step < operations; step++) {
      String at = where + " step " + step;
      int op = r.nextInt(1000);
      if (op < 450) {
        TestKey k = pool.get(r.nextInt(poolSize));
        if (KeyForms.add(f, k, k.randomForm(r))) {
          model.add(k);
        } else if (refusalChecks++ < 20) {
          assertAllFound(f, model, at + " after a refused add of " + k);
        }
      } else if (op < 550) {
        TestKey k = pool.get(r.nextInt(poolSize));
        boolean present = model.count(k) > 0;
        boolean added = KeyForms.addIfAbsent(f, k, k.randomForm(r));
        if (present) {
          assertFalse(added, at + ": addIfAbsent added a copy of present " + k);
        }
        if (added) {
          model.add(k);
        }
      } else if (op < 800) {
        TestKey k = model.randomPresent(r);
        if (k != null) {
          assertTrue(KeyForms.remove(f, k, k.randomForm(r)), at + ": remove of present " + k + " returned false");
          model.remove(k);
        }
      } else if (op < 900) {
        TestKey k = r.nextBoolean() ? model.randomPresent(r) : pool.get(r.nextInt(poolSize));
        if (k != null && model.count(k) > 0) {
          assertTrue(KeyForms.mightContain(f, k, k.randomForm(r)), at + ": false negative for " + k);
        }
      } else if (op < 990) {
        TestKey k = r.nextBoolean() ? model.randomPresent(r) : pool.get(r.nextInt(poolSize));
        if (k != null) {
          long c = KeyForms.count(f, k, k.randomForm(r));
          assertTrue(c >= model.count(k), at + ": count " + c + " below multiplicity " + model.count(k) + " of " + k);
        }
      } else if (op < 996) {
        CuckooFilter g = roundTrip(f);
        assertEquals(f.spec(), g.spec(), at + ": spec changed by write/read");
        assertEquals(f.size(), g.size(), at + ": size changed by write/read");
        for (int i = 0; i < 200; i++) {
          TestKey k = pool.get(r.nextInt(poolSize));
          assertEquals(f.mightContain(k.bytes), g.mightContain(k.bytes), at + ": answer for " + k + " changed by write/read");
        }
        f = g;
      } else if (op < 998) {
        f.clear();
        model.clear();
        for (int i = 0; i < 100; i++) {
          TestKey k = pool.get(r.nextInt(poolSize));
          assertFalse(f.mightContain(k.bytes), at + ": cleared filter reports " + k);
        }
      } else {
        assertAllFound(f, model, at);
      }
      assertEquals(model.total(), f.size(), at + ": size differs from the model");
    }
    assertAllFound(f, model, where + " at the end");
    CuckooFilter g = roundTrip(f);
    assertEquals(model.total(), g.size(), where + ": size after write/read");
    assertAllFound(g, model, where + " after the final write/read");
  }

  // ---------------------------------------------------------------- filling up

  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void fillingToTheFirstRefusalLosesNothing(String config) {
    SplittableRandom r = random("fill", config);
    CuckooFilter f = newFilter(config);
    FilterSpec spec = f.spec();
    String where = where(config, "fill");
    long capacity = spec.capacity().getAsLong();
    long limit = refusesWhenFull(spec) ? 4 * capacity + 1_000 : 3 * capacity;
    long salt = r.nextLong();
    List<Long> added = new ArrayList<>();
    boolean refused = false;
    for (long i = 0; i < limit; i++) {
      long key = mix(salt + i);
      if (!f.add(key)) {
        refused = true;
        break;
      }
      added.add(key);
    }
    if (refusesWhenFull(spec)) {
      assertTrue(refused, where + ": took " + limit + " distinct keys without refusing one");
    }
    if (guaranteesCapacity(spec)) {
      assertTrue(added.size() >= capacity,
          where + ": refused distinct key number " + (added.size() + 1) + ", below its capacity " + capacity);
    }
    assertEquals(added.size(), f.size(), where + ": size after filling");
    for (int extra = 0; refused && extra < 50; extra++) {
      if (f.add(mix(salt - 1 - extra))) {
        added.add(mix(salt - 1 - extra));
      }
    }
    assertKeysFound(f, added, where + " after the first refused add");
    assertTrue(f.loadFactor() > 0 && f.loadFactor() <= 1.0, where + ": load factor " + f.loadFactor());

    CuckooFilter g = roundTrip(f);
    assertEquals(f.size(), g.size(), where + ": size after write/read");
    assertKeysFound(g, added, where + " after write/read of a full filter");

    List<Long> kept = new ArrayList<>();
    for (int i = 0; i < added.size(); i++) {
      if (i % 2 == 0) {
        assertTrue(g.remove(added.get(i)), where + ": remove of stored key " + added.get(i) + " returned false");
      } else {
        kept.add(added.get(i));
      }
    }
    assertEquals(kept.size(), g.size(), where + ": size after removing half");
    assertKeysFound(g, kept, where + " after removing half");
    assertKeysFound(roundTrip(g), kept, where + " after removing half and write/read");
  }

  // ---------------------------------------------------------------- false positives

  /**
   * Fills the filter to a quarter, a half and all of its capacity (or its first refusal) and
   * measures the false-positive rate at each: it must be near what {@link
   * CuckooFilter#expectedFpp()} predicts for that load (within 6 standard deviations of a
   * binomial count, and 3% of the prediction for the model's own error), and at full load within
   * {@link #fppBound}.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void falsePositiveRateMatchesExpectedFppAtSeveralLoads(String config) {
    SplittableRandom r = random("fpp", config);
    CuckooFilter f = newFilter(config);
    String where = where(config, "fpp");
    long capacity = f.spec().capacity().getAsLong();
    long salt = r.nextLong();
    int queries = fppQueries(f.spec());
    long added = 0;
    long probe = 0;
    for (int quarter : new int[] {1, 2, 4}) {
      long target = capacity * quarter / 4;
      while (added < target && f.add(mix(salt + added))) {
        added++;
      }
      double expected = f.expectedFpp();
      long positives = 0;
      for (long i = 0; i < queries; i++) {
        // mix is a bijection, so keys from salt + 2^40 on were never added; each load gets
        // keys of its own.
        if (f.mightContain(mix(salt + (1L << 40) + probe++))) {
          positives++;
        }
      }
      double rate = (double) positives / queries;
      String at = where + " at " + added + " keys (load " + f.loadFactor() + "): " + positives + " false positives in "
          + queries + " lookups, rate " + rate + ", expectedFpp " + expected;
      assertTrue(expected >= 0 && expected <= 1, at);
      double sd = Math.sqrt(expected * (1 - expected) / queries);
      assertTrue(Math.abs(rate - expected) <= 6 * sd + 0.03 * expected + 2.0 / queries,
          at + ": the rate is not near expectedFpp");
      if (quarter == 4) {
        double bound = fppBound(f);
        double mean = bound * queries;
        assertTrue(positives <= mean + 6 * Math.sqrt(mean) + 10, at + ": exceeds the bound " + bound);
        assertTrue(expected <= bound * 1.0001 + 1e-15, at + ": expectedFpp exceeds the bound " + bound);
      }
    }
  }

  /**
   * Adds keys within the capacity (twice the capacity for a variant that refuses when full, so
   * that kicks, their undo and the stash run), then looks up, counts, add-if-absents and removes
   * each; the second run of that must allocate nothing.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void addLookupCountAndRemoveAllocateNothing(String config) {
    CuckooFilter f = newFilter(config);
    if (!allocationFree(f.spec())) {
      return;
    }
    long capacity = f.spec().capacity().getAsLong();
    long n = refusesWhenFull(f.spec()) ? Math.min(2 * capacity, 100_000) : Math.min(capacity / 4, 25_000);
    SplittableRandom r = random("allocation", config);
    long[] keys = new long[(int) Math.max(1, n)];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = r.nextLong();
    }
    long bytes = AllocationMeter.allocatedByOperations(f, keys);
    // The meter's own reflective call allocates a few dozen bytes; one object per operation
    // would show as hundreds of kilobytes.
    assertTrue(bytes < 1024, where(config, "allocation") + ": " + bytes + " bytes allocated by "
        + 5 * keys.length + " operations");
  }

  // ---------------------------------------------------------------- keys, spec, clear

  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void everyKeyFormIsTheSameKey(String config) {
    SplittableRandom r = random("forms", config);
    CuckooFilter f = newFilter(config);
    String where = where(config, "forms");
    int n = (int) Math.min(500, f.spec().capacity().getAsLong() / 4);
    List<TestKey> keys = distinctKeys(r, n);
    for (int i = 0; i < keys.size(); i++) {
      TestKey k = keys.get(i);
      if (!added(KeyForms.add(f, k, k.randomForm(r)), f.spec(), where + ": add of " + k)) {
        keys = keys.subList(0, i);
      }
    }
    for (TestKey k : keys) {
      for (Form form : Form.values()) {
        if (k.has(form)) {
          assertTrue(KeyForms.mightContain(f, k, form), where + ": " + k + " not found as " + form);
          assertTrue(KeyForms.count(f, k, form) >= 1, where + ": " + k + " counted 0 as " + form);
        }
      }
    }
    assertTrue(f.add("x") && f.mightContain("x".getBytes(java.nio.charset.StandardCharsets.UTF_8)), where + ": \"x\" as bytes");
    long before = f.size();
    for (TestKey k : keys) {
      assertTrue(KeyForms.remove(f, k, k.randomForm(r)), where + ": remove of " + k);
    }
    assertEquals(before - n, f.size(), where + ": size after removing in other forms");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void specIsResolvedAndRoundTrips(String config) throws IOException {
    CuckooFilter f = newFilter(config);
    FilterSpec spec = f.spec();
    String where = where(config, "spec");
    assertEquals(variant(), spec.variant(), where);
    // A width, or a rate the variant keeps as it is (SpecSchema.Builder.keepsTargetFpp).
    assertTrue(spec.capacity().isPresent() && spec.fingerprintBits().isPresent() != spec.targetFpp().isPresent()
        && spec.bucketSize().isPresent() && spec.hash().isPresent() && spec.seed().isPresent()
        && spec.maxKicks().isPresent(), where + ": not resolved: " + spec);
    assertEquals(spec, FilterSpec.parse(spec.toString()), where + ": text round trip of " + spec);
    assertEquals(spec, CuckooFilters.create(spec).spec(), where + ": resolving twice");
    assertEquals(spec, CuckooFilters.create(spec.toString()).spec(), where + ": from its text");
    Properties props = new Properties();
    props.setProperty("my.filter.variant", spec.variant());
    String query = spec.toString().substring(spec.variant().length() + 1);
    for (String pair : query.split("&")) {
      props.setProperty("my.filter." + pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
    }
    assertEquals(spec, CuckooFilters.fromProperties(props, "my.filter.").spec(), where + ": from properties");
    assertEquals(spec, roundTrip(f).spec(), where + ": spec after write/read");
    assertTrue(f.sizeInBytes() > 0, where + ": sizeInBytes " + f.sizeInBytes());
    assertTrue(f.capacity() > 0, where + ": capacity " + f.capacity());
    assertEquals(0, f.size(), where + ": a new filter is empty");
    assertEquals(0.0, f.loadFactor(), where + ": a new filter's load");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void clearEmptiesAndTheFilterStaysUsable(String config) {
    CuckooFilter f = newFilter(config);
    String where = where(config, "clear");
    int n = (int) Math.min(2_000, f.spec().capacity().getAsLong() / 2);
    boolean[] first = new boolean[n];
    long taken = 0;
    for (int i = 0; i < n; i++) {
      first[i] = added(f.add(i), f.spec(), where + ": add of key " + i);
      taken += first[i] ? 1 : 0;
    }
    long bytes = f.sizeInBytes();
    f.clear();
    assertEquals(0, f.size(), where);
    for (long i = 0; i < n; i++) {
      assertFalse(f.mightContain(i), where + ": cleared filter reports key " + i);
    }
    for (int i = 0; i < n; i++) {
      assertEquals(first[i], f.add(i), where + ": a cleared filter answers add of key " + i + " as a new one did");
    }
    assertEquals(taken, f.size(), where);
    f.clear();
    assertEquals(newFilter(config).sizeInBytes(), f.sizeInBytes(),
        where + ": memory after clear differs from a new filter's (" + bytes + " before clearing)");
  }

  // ---------------------------------------------------------------- hostile input

  /** One dynamic test per bad configuration, so that one failure hides none of the others. */
  @TestFactory
  Stream<DynamicTest> badConfigurationIsRejectedWithAClearMessage() {
    String v = variant();
    SpecSchema schema = dev.cuckoo.internal.ProviderRegistry.provider(v).schema();
    long cap = Math.max(schema.minCapacity(), Math.min(1_000, schema.maxCapacity()));
    String base = v + "?capacity=" + cap;
    List<String[]> cases = new ArrayList<>();
    if (schema.defaultCapacity().isEmpty()) {
      cases.add(new String[] {v, "capacity", v});
    }
    cases.add(new String[] {v + "?capacity=abc", "capacity", "abc"});
    // A value no variant takes reads as one this variant does not: the variant's range.
    cases.add(new String[] {v + "?capacity=0", "capacity=0 is out of range for variant " + v + ": " + schema.minCapacity() + ".." + schema.maxCapacity()});
    cases.add(new String[] {v + "?capacity=-5", "capacity=-5 is out of range for variant " + v});
    cases.add(new String[] {v + "?capacity=1e6", "capacity=1e6", "scientific notation is not accepted", "1000000"});
    cases.add(new String[] {v + "?capacity=1e12", "capacity=1e12", "scientific notation is not accepted", "1000000000000"});
    cases.add(new String[] {v + "?capacity=99999999999999999999", "capacity", "99999999999999999999"});
    if (schema.maxCapacity() < Long.MAX_VALUE) {
      long over = schema.maxCapacity() + 1;
      cases.add(new String[] {v + "?capacity=" + over, "capacity", Long.toString(over), v});
    }
    if (schema.minCapacity() > 1) {
      long under = schema.minCapacity() - 1;
      cases.add(new String[] {v + "?capacity=" + under, "capacity", Long.toString(under), v});
    }
    cases.add(new String[] {base + "&capacity=" + cap, "capacity", "twice"});
    int overBits = schema.maxFingerprintBits() + 1;
    cases.add(new String[] {base + "&fingerprintBits=" + overBits, "fingerprintBits", Integer.toString(overBits), v,
        schema.fingerprintBitsText()});
    if (schema.minFingerprintBits() > 1) {
      int underBits = schema.minFingerprintBits() - 1;
      cases.add(new String[] {base + "&fingerprintBits=" + underBits, "fingerprintBits", Integer.toString(underBits), v});
    }
    cases.add(new String[] {base + "&fingerprintBits=0",
        "fingerprintBits=0 is out of range for variant " + v + ": " + schema.fingerprintBitsText()});
    cases.add(new String[] {base + "&fingerprintBits=-3",
        "fingerprintBits=-3 is out of range for variant " + v + ": " + schema.fingerprintBitsText()});
    cases.add(new String[] {base + "&fingerprintBits=twelve", "fingerprintBits", "twelve"});
    cases.add(new String[] {base + "&bucketSize=0", "bucketSize=0 is out of range for variant " + v + ": " + schema.bucketSizesText()});
    for (int b = 1; b < 1_000; b++) {
      if (!schema.supportsBucketSize(b)) {
        cases.add(new String[] {base + "&bucketSize=" + b, "bucketSize", Integer.toString(b), v, schema.bucketSizesText()});
        break;
      }
    }
    cases.add(new String[] {base + "&maxKicks=-1", "maxKicks=-1 is out of range for variant " + v + ": " + schema.minMaxKicks() + ".." + schema.maxMaxKicks()});
    if (schema.maxMaxKicks() < Integer.MAX_VALUE) {
      int overKicks = schema.maxMaxKicks() + 1;
      cases.add(new String[] {base + "&maxKicks=" + overKicks, "maxKicks", Integer.toString(overKicks), v});
    }
    cases.add(new String[] {base + "&targetFpp=1.5", "targetFpp", "1.5"});
    cases.add(new String[] {base + "&targetFpp=0", "targetFpp"});
    cases.add(new String[] {base + "&targetFpp=-0.1", "targetFpp=-0.1 is out of range", "strictly between 0 and 1"});
    cases.add(new String[] {base + "&targetFpp=1e-300", "targetFpp", v});
    cases.add(new String[] {base + "&fingerprintBits=" + schema.defaultFingerprintBits() + "&targetFpp=0.01", "fingerprintBits", "targetFpp"});
    cases.add(new String[] {base + "&hash=no-such-hash", "no-such-hash", CuckooFilters.hashes().isEmpty() ? "none" : CuckooFilters.hashes().iterator().next()});
    cases.add(new String[] {base + "&noSuchKey=1", "noSuchKey", "capacity", v});
    cases.add(new String[] {base + "&capacty=1", "capacty", "did you mean 'capacity'?", v});
    cases.add(new String[] {base + "&concurrency=sometimes", "concurrency=sometimes", "threadsafe"});
    cases.add(new String[] {base + "&Capacity=1", "Capacity", "capacity"});
    cases.add(new String[] {base + "&", "&"});
    cases.add(new String[] {base + "&seed", "seed"});
    cases.add(new String[] {base + "&seed=0x1234567890abcdef1", "seed"});
    cases.add(new String[] {"no-such-variant?capacity=10", "no-such-variant", v});
    cases.add(new String[] {"", "empty"});
    for (String option : schema.optionNames()) {
      cases.add(new String[] {base + "&" + option + "=not-allowed!", option});
      String allowed = schema.optionAllowed(option);
      int dots = allowed.indexOf("..");
      if (dots > 0) {
        long over = Long.parseLong(allowed.substring(dots + 2)) + 1;
        cases.add(new String[] {base + "&" + option + "=" + over, option, Long.toString(over), v, allowed});
      } else {
        cases.add(new String[] {base + "&" + option + "=no-such-choice", option, "no-such-choice", v});
      }
    }
    Stream<DynamicTest> configs = cases.stream().map(c -> DynamicTest.dynamicTest("'" + c[0] + "'", () -> {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> CuckooFilters.create(c[0]), "config '" + c[0] + "' was accepted");
      for (int i = 1; i < c.length; i++) {
        assertTrue(e.getMessage().contains(c[i]),
            "message for config '" + c[0] + "' does not mention '" + c[i] + "': " + e.getMessage());
      }
    }));
    DynamicTest noVariant = DynamicTest.dynamicTest("properties without a variant", () -> {
      Properties props = new Properties();
      props.setProperty("cuckoo.capacity", "1000");
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> CuckooFilters.fromProperties(props, "cuckoo."));
      assertTrue(e.getMessage().contains("cuckoo.variant"), e.getMessage());
    });
    return Stream.concat(configs, Stream.of(noVariant));
  }

  /**
   * A filter the heap cannot hold is refused before anything is allocated, with a message that
   * names the bytes it needs, the heap's maximum and a config that fits (here the largest
   * capacity of the variant's widest fingerprints; a variant that does not say what it allocates,
   * or whose largest filter fits this heap, is skipped).
   */
  @Test
  void aFilterTheHeapCannotHoldIsRefusedNamingOneThatFits() {
    SpecSchema schema = dev.cuckoo.internal.ProviderRegistry.provider(variant()).schema();
    // The widest fingerprints: at its largest capacity on the heap such a table nears the most one array holds.
    FilterSpec resolved = null;
    java.util.OptionalLong needed = null;
    for (long capacity = schema.maxCapacity(); resolved == null; capacity = capacity / 4 * 3) {
      try {
        FilterSpec candidate = dev.cuckoo.internal.ProviderRegistry.provider(variant()).validate(FilterSpec.builder(variant())
            .capacity(capacity).fingerprintBits(schema.maxFingerprintBits()).build());
        needed = dev.cuckoo.internal.ProviderRegistry.provider(variant()).memoryToCreate(candidate);
        resolved = candidate;
      } catch (IllegalArgumentException tooLargeForThisShapeOrTheHeap) {
        // the largest capacity is another shape's, or a file's
      }
    }
    long max = Runtime.getRuntime().maxMemory();
    if (needed.isEmpty() || needed.getAsLong() <= max) {
      return;
    }
    FilterSpec spec = resolved;
    long bytes = needed.getAsLong();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CuckooFilters.create(spec),
        () -> "a filter of " + bytes + " bytes was created in a heap of " + max);
    String m = e.getMessage();
    assertTrue(m.contains(bytes + " bytes") && m.contains(max + " bytes") && m.contains("-Xmx"), m);
    // a variant whose filters live in files names the way that the heap does not bound
    assertEquals(dev.cuckoo.internal.ProviderRegistry.provider(variant()).mapsFiles(), m.contains("CuckooFilters.createFile"), m);
    java.util.regex.Matcher fits = java.util.regex.Pattern.compile("(" + java.util.regex.Pattern.quote(variant()) + "\\?\\S+) fits").matcher(m);
    assertTrue(fits.find(), "no config that fits in: " + m);
    FilterSpec smaller = dev.cuckoo.internal.ProviderRegistry.provider(variant()).validate(FilterSpec.parse(fits.group(1)));
    assertTrue(smaller.capacity().getAsLong() < spec.capacity().getAsLong(), m);
    assertTrue(dev.cuckoo.internal.ProviderRegistry.provider(variant()).memoryToCreate(smaller).getAsLong() <= max, m);
    assertEquals(spec.toBuilder().capacity(smaller.capacity().getAsLong()).build(), smaller, "only the capacity differs: " + m);
  }

  // ---------------------------------------------------------------- threads and sizes

  /**
   * {@code concurrency=threadsafe} is the one value every variant takes: it resolves to the
   * variant's own thread-safe mode, and four threads adding distinct keys at once lose none.
   * A variant without a thread-safe mode refuses it with a message saying so.
   */
  @Test
  void concurrencyThreadsafeIsAcceptedAndSafeForWriters() throws InterruptedException {
    SpecSchema schema = dev.cuckoo.internal.ProviderRegistry.provider(variant()).schema();
    long capacity = Math.max(schema.minCapacity(), Math.min(40_000, schema.maxCapacity()));
    String config = variant() + "?capacity=" + capacity + "&concurrency=threadsafe";
    String where = where(config, "threadsafe");
    if (schema.threadSafeMode().isEmpty()) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CuckooFilters.create(config), where);
      assertTrue(e.getMessage().contains("concurrency=threadsafe") && e.getMessage().contains("no thread-safe mode"),
          where + ": " + e.getMessage());
      return;
    }
    CuckooFilter f = newFilter(config);
    assertEquals(schema.threadSafeMode().get(), f.spec().concurrency().orElseThrow(), where);
    assertEquals(f.spec(), CuckooFilters.create(f.spec()).spec(), where + ": resolving the resolved spec");
    int threads = 4;
    int perThread = (int) Math.min(5_000, capacity * 3 / 4 / threads);
    long salt = random("threadsafe", config).nextLong();
    java.util.concurrent.atomic.AtomicLong refused = new java.util.concurrent.atomic.AtomicLong();
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long first = salt + (long) t * perThread;
      workers.add(new Thread(() -> {
        for (int i = 0; i < perThread; i++) {
          if (!f.add(mix(first + i))) {
            refused.incrementAndGet();
          }
        }
      }));
    }
    workers.forEach(Thread::start);
    for (Thread w : workers) {
      w.join();
    }
    assertEquals(0, refused.get(), where + ": adds refused below capacity");
    assertEquals((long) threads * perThread, f.size(), where + ": size after concurrent adds");
    for (long i = 0; i < (long) threads * perThread; i++) {
      if (!f.mightContain(mix(salt + i))) {
        fail(where + ": key " + i + " added by a thread was lost");
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void capacityIsTheConfigsAndLoadIsSizeOverSlots(String config) {
    CuckooFilter f = newFilter(config);
    String where = where(config, "capacity");
    assertEquals(f.spec().capacity().getAsLong(), f.capacity(), where + ": capacity() of a new filter");
    long n = Math.min(1_000, f.capacity() / 2);
    for (long i = 0; i < n; i++) {
      f.add(i);
    }
    assertTrue(f.slots() > 0, where + ": slots " + f.slots());
    assertEquals((double) f.size() / f.slots(), f.loadFactor(), 1e-12, where + ": loadFactor");
  }

  @Test
  void nullKeysAreRejectedNamingTheKey() {
    CuckooFilter f = CuckooFilters.create(variant() + "?capacity="
        + Math.max(dev.cuckoo.internal.ProviderRegistry.provider(variant()).schema().minCapacity(), 100));
    for (org.junit.jupiter.api.function.Executable call : List.<org.junit.jupiter.api.function.Executable>of(
        () -> f.add((byte[]) null), () -> f.add((CharSequence) null),
        () -> f.addIfAbsent((byte[]) null), () -> f.addIfAbsent((CharSequence) null),
        () -> f.mightContain((byte[]) null), () -> f.mightContain((CharSequence) null),
        () -> f.remove((byte[]) null), () -> f.remove((CharSequence) null),
        () -> f.count((byte[]) null), () -> f.count((CharSequence) null))) {
      assertEquals("key must not be null", assertThrows(NullPointerException.class, call).getMessage());
    }
    assertEquals(0, f.size());
  }

  @Test
  void variantIsInstalled() {
    assertTrue(CuckooFilters.variants().contains(variant()), "installed: " + CuckooFilters.variants());
    assertNotNull(dev.cuckoo.internal.ProviderRegistry.provider(variant()).description());
    assertEquals(variant(), dev.cuckoo.internal.ProviderRegistry.provider(variant()).name());
    dev.cuckoo.internal.ProviderRegistry.provider(variant()).schema().defaultCapacity().ifPresent(c ->
        assertEquals(c, CuckooFilters.create(variant()).spec().capacity().getAsLong(), "the default capacity"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void truncatedFilesAreRejected(String config) throws IOException {
    SplittableRandom r = random("truncate", config);
    byte[] file = write(smallLoadedFilter(config, r));
    String where = where(config, "truncate");
    Set<Integer> lengths = new HashSet<>();
    for (int i = 0; i < Math.min(file.length, 128); i++) {
      lengths.add(i);
      lengths.add(file.length - 1 - i);
    }
    for (int i = 0; i < 200; i++) {
      lengths.add(r.nextInt(file.length));
    }
    for (int len : lengths) {
      byte[] cut = java.util.Arrays.copyOf(file, len);
      assertThrows(CorruptFilterException.class, () -> CuckooFilters.read(new ByteArrayInputStream(cut)),
          where + ": a file cut to " + len + " of " + file.length + " bytes was accepted");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void bitFlippedFilesAreRejected(String config) throws IOException {
    SplittableRandom r = random("flip", config);
    byte[] file = write(smallLoadedFilter(config, r));
    String where = where(config, "flip");
    List<Integer> bits = new ArrayList<>();
    for (int i = 0; i < Math.min(file.length, 96) * 8; i++) {
      bits.add(i); // every bit of the header
    }
    for (int i = 0; i < 300; i++) {
      bits.add(r.nextInt(file.length * 8));
    }
    for (int i = 0; i < 32; i++) {
      bits.add(file.length * 8 - 1 - i); // the checksum
    }
    for (int bit : bits) {
      byte[] bad = file.clone();
      bad[bit >>> 3] ^= (byte) (1 << (bit & 7));
      assertThrows(CorruptFilterException.class, () -> CuckooFilters.read(new ByteArrayInputStream(bad)),
          where + ": a file with bit " + bit + " flipped was accepted");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void garbageIsRejectedAndFilesCanBeConcatenated(String config) throws IOException {
    SplittableRandom r = random("garbage", config);
    String where = where(config, "garbage");
    for (int i = 0; i < 50; i++) {
      byte[] junk = new byte[r.nextInt(200)];
      for (int j = 0; j < junk.length; j++) {
        junk[j] = (byte) r.nextInt();
      }
      assertThrows(CorruptFilterException.class, () -> CuckooFilters.read(new ByteArrayInputStream(junk)), where);
    }
    CuckooFilter a = smallLoadedFilter(config, r);
    CuckooFilter b = newFilter(config);
    ByteArrayOutputStream both = new ByteArrayOutputStream();
    a.writeTo(both);
    b.writeTo(both);
    both.write(42);
    ByteArrayInputStream in = new ByteArrayInputStream(both.toByteArray());
    assertEquals(a.size(), CuckooFilters.read(in).size(), where + ": first of two files");
    assertEquals(0, CuckooFilters.read(in).size(), where + ": second of two files");
    assertEquals(42, in.read(), where + ": reading a file consumed bytes after it");
  }

  /**
   * Forges each of the first 64 bytes of a real file's payload as the start of a huge value
   * (2^40 and 2^62 - 1, big- and little-endian, as size fields are written either way), fixes the
   * checksum, and reads the file: each must be rejected with {@link CorruptFilterException} or
   * read as a consistent filter, and never make the reader allocate in proportion to what the
   * forged field declares.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void forgedSizeFieldsAreRejectedWithoutAllocatingWhatTheyDeclare(String config) throws IOException {
    SplittableRandom r = random("forged", config);
    byte[] file = write(smallLoadedFilter(config, r));
    String where = where(config, "forged");
    int payloadStart = ForgedFiles.payloadOffset(file);
    int payloadEnd = file.length - 4;
    long[] values = {1L << 40, Long.MAX_VALUE >>> 1};
    for (int at = payloadStart; at < Math.min(payloadStart + 64, payloadEnd - 7); at++) {
      for (long value : values) {
        for (boolean bigEndian : new boolean[] {true, false}) {
          byte[] forged = file.clone();
          java.nio.ByteBuffer.wrap(forged, at, 8)
              .order(bigEndian ? java.nio.ByteOrder.BIG_ENDIAN : java.nio.ByteOrder.LITTLE_ENDIAN).putLong(value);
          ForgedFiles.fixChecksum(forged);
          long before = AllocationMeter.threadAllocatedBytes();
          try {
            CuckooFilter g = CuckooFilters.read(new ByteArrayInputStream(forged));
            assertTrue(g.size() >= 0 && g.slots() > 0, where + ": forged at payload byte " + (at - payloadStart));
          } catch (CorruptFilterException expected) {
            // rejected, as it should be unless the forged bytes happen to be consistent
          }
          long allocated = AllocationMeter.threadAllocatedBytes() - before;
          assertTrue(allocated < (8L << 20) + 8L * file.length,
              where + ": " + allocated + " bytes allocated to read a file of " + file.length
                  + " bytes with payload byte " + (at - payloadStart) + " forged to " + value);
        }
      }
    }
  }

  // ---------------------------------------------------------------- helpers

  /**
   * Checks an add made by a test that is not about capacity, at a load well below it. Where the
   * spec promises its capacity a refusal fails the test. Elsewhere a refusal can come at any load
   * (RedisBloom's tables of one-slot buckets refuse once a key's two buckets close a second cycle
   * in the cuckoo graph, which two keys of one fingerprint and bucket pair make likelier: about
   * one fill in 250 of 2,048 keys into 8,192 buckets), so the test goes on without the key.
   *
   * @return whether the key went in
   */
  private boolean added(boolean added, FilterSpec spec, String where) {
    if (!added) {
      assertFalse(guaranteesCapacity(spec), where + ": an add refused far below the capacity");
    }
    return added;
  }

  private CuckooFilter smallLoadedFilter(String config, SplittableRandom r) {
    CuckooFilter f = newFilter(config);
    long n = Math.min(1_000, f.spec().capacity().getAsLong() / 2);
    for (long i = 0; i < n; i++) {
      f.add(r.nextLong());
    }
    return f;
  }

  /** @return the filter written to bytes and read back */
  protected static CuckooFilter roundTrip(CuckooFilter f) {
    return Filters.roundTrip(f);
  }

  /** @return the filter's file */
  protected static byte[] write(CuckooFilter f) {
    return Filters.write(f);
  }

  // ---------------------------------------------------------------- many keys, typed keys, merging

  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void addAllAddsInOrderAndStopsAtTheFirstRefusal(String config) {
    String where = where(config, "addAll");
    CuckooFilter f = newFilter(config);
    FilterSpec spec = f.spec();
    int n = (int) Math.min(20_000, spec.capacity().getAsLong() / 4); // twice: half the capacity
    long[] keys = new long[n];
    List<String> texts = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      keys[i] = mix(BASE_SEED + i);
      texts.add("text-" + keys[i]);
    }
    long inKeys = f.addAll(keys);
    long inTexts = inKeys < n ? 0 : f.addAll(texts);
    if (added(inKeys == n && inTexts == n, spec, where + ": addAll of " + n + " keys")) {
      assertEquals(n, CuckooFilters.create(config).addAll(texts.stream()), where);
      assertEquals(2L * n, f.size(), where);
      for (int i = 0; i < n; i++) {
        assertTrue(f.mightContain(keys[i]) && f.mightContain(texts.get(i)), where + ": key " + i);
      }
    } else {
      assertEquals(inKeys + inTexts, f.size(), where + ": addAll says where it stopped");
      for (int i = 0; i < inKeys; i++) {
        assertTrue(f.mightContain(keys[i]), where + ": key " + i + " before the refusal is lost");
      }
    }
    if (refusesWhenFull(spec)) {
      CuckooFilter full = newFilter(config);
      long[] many = new long[(int) Math.min(Integer.MAX_VALUE - 8, 3 * spec.capacity().getAsLong() + 64)];
      for (int i = 0; i < many.length; i++) {
        many[i] = mix(~BASE_SEED + i);
      }
      long added = full.addAll(many);
      assertTrue(added < many.length, where + ": " + added + " of " + many.length + " keys fit");
      assertEquals(added, full.size(), where + ": addAll says where it stopped");
      for (int i = 0; i < added; i++) {
        assertTrue(full.mightContain(many[i]), where + ": key " + i + " before the refusal is lost");
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void mightContainAllAnswersAsEachLookupDoes(String config) {
    String where = where(config, "mightContainAll");
    CuckooFilter f = newFilter(config);
    int n = (int) Math.min(5_000, f.spec().capacity().getAsLong() / 2);
    long[] probes = new long[2 * n + 3]; // not a multiple of any block
    for (int i = 0; i < n && added(f.add(mix(BASE_SEED + 2L * i)), f.spec(), where); i++) {
      // keys at even inputs, so that half the probes are absent
    }
    for (int i = 0; i < probes.length; i++) {
      probes[i] = mix(BASE_SEED + i);
    }
    boolean[] results = new boolean[probes.length + 1];
    int found = f.mightContainAll(probes, results);
    int expected = 0;
    for (int i = 0; i < probes.length; i++) {
      assertEquals(f.mightContain(probes[i]), results[i], where + ": key " + i);
      expected += results[i] ? 1 : 0;
    }
    assertEquals(expected, found, where);
    assertEquals(0, f.mightContainAll(new long[0], new boolean[0]), where);
    assertThrows(IllegalArgumentException.class, () -> f.mightContainAll(probes, new boolean[probes.length - 1]), where);

    // Byte keys: the first lengths[i] bytes of each array are the key, the rest is not.
    byte[][] texts = new byte[probes.length][];
    int[] lengths = new int[probes.length];
    for (int i = 0; i < probes.length; i++) {
      byte[] key = ("text-" + probes[i]).getBytes(java.nio.charset.StandardCharsets.UTF_8);
      texts[i] = java.util.Arrays.copyOf(key, key.length + i % 3);
      lengths[i] = key.length;
      boolean room = f.size() < f.spec().capacity().getAsLong() * 3 / 4;
      if (i % 2 == 0 && i < 200 && room && !added(f.add(key), f.spec(), where)) {
        break;
      }
    }
    boolean[] textResults = new boolean[probes.length];
    int textsFound = f.mightContainAll(texts, lengths, probes.length, textResults);
    int textsExpected = 0;
    for (int i = 0; i < probes.length; i++) {
      assertEquals(f.mightContain(java.util.Arrays.copyOf(texts[i], lengths[i])), textResults[i], where + ": text " + i);
      textsExpected += textResults[i] ? 1 : 0;
    }
    assertEquals(textsExpected, textsFound, where);
    assertThrows(IllegalArgumentException.class, () -> f.mightContainAll(texts, lengths, probes.length + 1, textResults), where);
    assertThrows(IndexOutOfBoundsException.class,
        () -> f.mightContainAll(new byte[][] {{1}}, new int[] {2}, 1, new boolean[1]), where);
  }

  /** A value of two fields, for a custom encoder. */
  private record Order(long id, String customer) {}

  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void aTypedFilterAddsTheKeyItsEncoderWrites(String config) {
    String where = where(config, "typed");
    CuckooFilter f = newFilter(config);
    KeyEncoder<Order> byOrder = (o, sink) -> sink.putLong(o.id()).putString(o.customer());
    TypedFilter<Order> orders = TypedFilter.of(f, byOrder);
    TypedFilter<UUID> uuids = TypedFilter.of(f, KeyEncoder.uuids());
    TypedFilter<CharSequence> strings = TypedFilter.of(f, KeyEncoder.strings());
    TypedFilter<Long> longs = TypedFilter.of(f, KeyEncoder.longs());
    TypedFilter<byte[]> bytes = TypedFilter.of(f, KeyEncoder.bytes());
    SplittableRandom r = random("typed", config);
    int rounds = (int) Math.min(200, f.spec().capacity().getAsLong() / 6);
    for (int i = 0; i < rounds; i++) {
      Order o = new Order(r.nextLong(), "customer-\u00e9-" + i);
      if (!added(orders.add(o), f.spec(), where)) {
        rounds = i; // two keys stay per round
        break;
      }
      byte[] customer = o.customer().getBytes(StandardCharsets.UTF_8);
      int length = 8 + customer.length;
      byte[] written = ByteBuffer.allocate(length + 5).order(ByteOrder.LITTLE_ENDIAN).putLong(o.id()).put(customer).array();
      assertTrue(f.mightContain(Arrays.copyOf(written, length)), where + ": the encoder's bytes are the key");
      assertTrue(f.mightContain(written, 0, length) && orders.mightContain(o), where);
      UUID u = new UUID(r.nextLong(), r.nextLong());
      if (!added(uuids.add(u), f.spec(), where)) {
        rounds = -1; // in the middle of a round: the size is not known
        break;
      }
      byte[] rfc = ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits()).array();
      assertTrue(bytes.mightContain(rfc) && f.mightContain(rfc), where + ": a UUID is its 16 bytes, most significant first");
      long k = r.nextLong();
      if (!added(longs.add(k) && strings.add("s" + k), f.spec(), where)) {
        rounds = -1;
        break;
      }
      assertTrue(f.mightContain(k) && f.mightContain("s" + k), where);
      assertTrue(orders.count(o) >= 1 && orders.remove(o) && uuids.remove(u), where);
    }
    if (rounds >= 0) {
      assertEquals(2L * rounds, f.size(), where);
    }
    assertThrows(NullPointerException.class, () -> orders.add(null), where);
    if (allocationFree(f.spec())) {
      Order o = new Order(7, "seven");
      orders.add(o);
      long allocated = AllocationMeter.allocatedBeyondTheMeter(() -> {
        for (int i = 0; i < 1_000; i++) {
          orders.mightContain(o);
        }
      });
      assertEquals(0, allocated, where + ": a typed lookup allocated");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void aMergeHoldsTheKeysOfBothAndLeavesTheOtherAsItWas(String config) {
    String where = where(config, "merge");
    CuckooFilter a = newFilter(config);
    CuckooFilter b = newFilter(config);
    long third = Math.min(10_000, a.spec().capacity().getAsLong() / 3);
    KeyMultiset model = new KeyMultiset();
    long inA = 0;
    for (long i = 0; i < third; i++) {
      long x = mix(BASE_SEED * 3 + 2 * i); // a's keys at even inputs, b's at odd: disjoint
      TestKey ka = TestKey.ofLong(x);
      // Some keys in both, where a bucket has room for both copies and more: with buckets of
      // one slot, two copies of a key fill both its buckets, and the capacity promise is for
      // distinct keys.
      boolean shared = i % 10 == 0 && a.spec().bucketSize().orElse(4) >= 2;
      TestKey kb = TestKey.ofLong(shared ? x : mix(BASE_SEED * 3 + 2 * i + 1));
      boolean intoA = added(a.add(ka.bytes), a.spec(), where);
      if (intoA) {
        model.add(ka);
        inA++;
      }
      boolean intoB = added(b.add(kb.bytes), b.spec(), where);
      if (intoB) {
        model.add(kb);
      }
      if (!intoA || !intoB) {
        break;
      }
    }
    byte[] before = write(b);
    byte[] beforeA = write(a);
    long sizeA = a.size();
    long moved;
    try {
      moved = a.addAll(b);
    } catch (IllegalArgumentException refused) {
      assertTrue(mayRefuseMerge(a.spec()), where + ": a merge of one shape was refused: " + refused.getMessage());
      assertTrue(Arrays.equals(beforeA, write(a)), where + ": a refused merge changed the filter merged into");
      assertTrue(Arrays.equals(before, write(b)), where + ": a refused merge changed the merged-in filter");
      return;
    }
    assertTrue(Arrays.equals(before, write(b)), where + ": the merged-in filter changed");
    assertEquals(sizeA + moved, a.size(), where);
    if (!mergesWhole(a.spec()) && moved < b.size()) {
      for (long i = 0; i < inA; i++) {
        assertTrue(a.mightContain(mix(BASE_SEED * 3 + 2 * i)), where + ": a key of the filter merged into is lost");
      }
      return;
    }
    assertEquals(b.size(), moved, where + ": every fingerprint moves in");
    assertAllFound(a, model, where);
    CuckooFilter roundTripped = roundTrip(a);
    assertAllFound(roundTripped, model, where + " after write/read");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void aMergeIntoAFullFilterStopsLosingNothing(String config) {
    String where = where(config, "merge-full");
    CuckooFilter a = newFilter(config);
    if (!refusesWhenFull(a.spec())) {
      return;
    }
    List<Long> inA = new ArrayList<>();
    for (long i = 0; a.add(mix(BASE_SEED * 7 + 2 * i)); i++) { // a's keys at even inputs, b's at odd
      inA.add(mix(BASE_SEED * 7 + 2 * i));
    }
    CuckooFilter b = newFilter(config);
    List<Long> inB = new ArrayList<>();
    for (long i = 0; b.add(mix(BASE_SEED * 7 + 2 * i + 1)); i++) { // full too: the two cannot fit in one
      inB.add(mix(BASE_SEED * 7 + 2 * i + 1));
    }
    byte[] before = write(b);
    long sizeA = a.size();
    long moved = a.addAll(b);
    assertTrue(moved < b.size(), where + ": a full filter took all of " + b.size());
    assertEquals(sizeA + moved, a.size(), where);
    assertKeysFound(a, inA, where + ": a key of the full filter");
    assertKeysFound(b, inB, where + ": a key of the merged-in filter");
    assertTrue(Arrays.equals(before, write(b)), where + ": the merged-in filter changed");
  }

  @Test
  void aMergeRefusesAnotherShapeOrHashOrItself() {
    String config = configs().get(0);
    CuckooFilter a = newFilter(config);
    FilterSpec spec = a.spec();
    IllegalArgumentException self = assertThrows(IllegalArgumentException.class, () -> a.addAll(a));
    assertTrue(self.getMessage().contains("itself"), self.getMessage());
    String otherHash = spec.hash().orElse("xxh3").equals("murmur3") ? "xxh3" : "murmur3";
    if (CuckooFilters.hashes().contains(otherHash) && spec.hashInstance().isEmpty()) {
      CuckooFilter b = CuckooFilters.create(spec.toBuilder().hash(otherHash).build());
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.addAll(b));
      assertTrue(e.getMessage().contains("hash"), e.getMessage());
    }
    for (String v : CuckooFilters.variants()) {
      if (!v.equals(spec.variant())) {
        SpecSchema schema = dev.cuckoo.internal.ProviderRegistry.provider(v).schema();
        CuckooFilter other = CuckooFilters.create(v + "?capacity=" + Math.max(schema.minCapacity(), 100));
        IllegalArgumentException variant = assertThrows(IllegalArgumentException.class, () -> a.addAll(other));
        assertTrue(variant.getMessage().contains(spec.variant()), variant.getMessage());
      }
    }
    // Not much larger: a variant may refuse the shortest fingerprints for many more keys.
    CuckooFilter larger = CuckooFilters.create(spec.toBuilder().capacity(spec.capacity().getAsLong() * 2 + 1000).build());
    larger.add("in the larger one");
    if (mergesAcrossCapacities(spec)) {
      assertEquals(1, a.addAll(larger));
      assertTrue(a.mightContain("in the larger one"));
    } else {
      IllegalArgumentException shape = assertThrows(IllegalArgumentException.class, () -> a.addAll(larger));
      assertTrue(shape.getMessage().contains("cannot merge"), shape.getMessage());
      assertFalse(shape.getMessage().contains(" 1 shards"), "one table is not told as shards: " + shape.getMessage());
    }
  }

  /**
   * Every variant records the kind of key it is told its keys are ({@link FilterSpec#KEYS}),
   * keeps it through a file, refuses a value that is not a kind, and refuses to merge a filter
   * whose keys are of another kind; a filter told nothing records nothing, as before the key.
   */
  @Test
  void aFilterRecordsItsKeysKindAndMergesOnlyItsOwnKind() throws IOException {
    FilterSpec spec = newFilter(configs().get(0)).spec();
    assertTrue(spec.keyKind().isEmpty(), spec.toString());
    assertFalse(spec.toString().contains(FilterSpec.KEYS + "="), spec.toString());
    CuckooFilter strings = CuckooFilters.create(spec.toBuilder().keyKind(KeyKind.STRING).build());
    strings.add("a");
    assertEquals(Optional.of(KeyKind.STRING), strings.spec().keyKind());
    CuckooFilter read = roundTrip(strings);
    assertEquals(Optional.of(KeyKind.STRING), read.spec().keyKind());
    assertTrue(read.mightContain("a"));
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.create(spec.toBuilder().set(FilterSpec.KEYS, "text").build()));
    assertTrue(bad.getMessage().contains("keys=text") && bad.getMessage().contains("string, binary, long"),
        bad.getMessage());
    if (spec.hashInstance().isEmpty()) {
      CuckooFilter longs = CuckooFilters.create(spec.toBuilder().keyKind(KeyKind.LONG).build());
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> strings.addAll(longs));
      assertTrue(e.getMessage().contains("keys are longs"), e.getMessage());
      CuckooFilter unsaid = CuckooFilters.create(spec);
      unsaid.add("b");
      try {
        strings.addAll(unsaid);
        assertTrue(strings.mightContain("b"), "a filter that records no kind merges into one that does");
      } catch (UnsupportedOperationException cannotMerge) {
        // a variant that merges nothing
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configSource")
  void aParallelCollectHoldsWhatASequentialBuildHolds(String config) {
    String where = where(config, "collect");
    long capacity = CuckooFilters.create(config).spec().capacity().getAsLong();
    int n = (int) Math.min(20_000, capacity / 2);
    List<String> keys = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      keys.add("k" + mix(BASE_SEED + i) + (i % 7 == 0 ? "" : "-" + i)); // a few repeat below
    }
    for (int i = 0; i < n / 20; i++) {
      keys.add(keys.get(i * 7 % n));
    }
    CuckooFilter sequential = newFilter(config);
    long fit = sequential.addAll(keys);
    if (fit < keys.size()) { // a shape that does not promise its capacity: the keys that fit
      keys = new ArrayList<>(keys.subList(0, (int) fit));
      sequential = newFilter(config);
      assertEquals(fit, sequential.addAll(keys), where);
    }
    CuckooFilter parallel;
    try {
      parallel = keys.parallelStream().collect(CuckooFilters.toFilter(config));
    } catch (IllegalArgumentException e) {
      assertTrue(mayRefuseMerge(sequential.spec()), where + ": " + e);
      return;
    } catch (IllegalStateException e) {
      assertFalse(mergesWhole(sequential.spec()), where + ": " + e);
      assertTrue(e.getMessage().contains("ran out of room"), e.getMessage());
      return;
    }
    Map<String, Long> multiplicity = new HashMap<>();
    for (String k : keys) {
      multiplicity.merge(k, 1L, Long::sum);
    }
    assertEquals(sequential.size(), parallel.size(), where);
    assertCountsMatch(sequential, parallel, multiplicity, where);
    CuckooFilter typed;
    try {
      typed = keys.parallelStream().map(k -> k.getBytes(StandardCharsets.UTF_8))
          .collect(CuckooFilters.toFilter(config, KeyEncoder.bytes()));
    } catch (IllegalArgumentException e) {
      assertTrue(mayRefuseMerge(sequential.spec()), where + ": " + e);
      return;
    } catch (IllegalStateException e) {
      assertFalse(mergesWhole(sequential.spec()), where + ": " + e);
      return;
    }
    assertEquals(sequential.size(), typed.size(), where);
    assertCountsMatch(sequential, typed, multiplicity, where);
  }

  /**
   * Where counts do not depend on placement, a merged build counts every key exactly as the
   * sequential one; elsewhere only false positives may differ, so each count is at least the key's
   * multiplicity.
   */
  private void assertCountsMatch(CuckooFilter sequential, CuckooFilter merged,
      Map<String, Long> multiplicity, String where) {
    boolean exact = countsIndependentOfPlacement(sequential.spec());
    for (Map.Entry<String, Long> e : multiplicity.entrySet()) {
      String k = e.getKey();
      assertTrue(merged.mightContain(k), where + ": " + k);
      if (exact) {
        assertEquals(sequential.count(k), merged.count(k), where + ": the count of " + k);
      } else {
        assertTrue(merged.count(k) >= e.getValue(),
            where + ": the count of " + k + " is " + merged.count(k) + ", below " + e.getValue());
      }
    }
  }

  private static void assertAllFound(CuckooFilter f, KeyMultiset model, String where) {
    for (TestKey k : model.distinct()) {
      if (!f.mightContain(k.bytes)) {
        fail(where + ": false negative for " + k + " (stored " + model.count(k) + " times)");
      }
      long c = f.count(k.bytes);
      if (c < model.count(k)) {
        fail(where + ": count " + c + " below multiplicity " + model.count(k) + " of " + k);
      }
    }
  }

  private static void assertKeysFound(CuckooFilter f, List<Long> keys, String where) {
    for (long k : keys) {
      if (!f.mightContain(k)) {
        fail(where + ": false negative for key " + k + " (" + keys.size() + " keys stored)");
      }
    }
  }

  private static List<TestKey> distinctKeys(SplittableRandom r, int n) {
    Set<TestKey> seen = new HashSet<>();
    List<TestKey> keys = new ArrayList<>(n);
    while (keys.size() < n) {
      TestKey k = TestKey.random(r);
      if (seen.add(k)) {
        keys.add(k);
      }
    }
    return keys;
  }

  /** A bijection on longs: distinct inputs give distinct keys ({@link Filters#mix}). */
  protected static long mix(long z) {
    return Filters.mix(z);
  }

  /** @return a random source for one test and config, derived from {@link #BASE_SEED} */
  protected static SplittableRandom random(String test, String config) {
    return TestSeed.random(test + " " + config);
  }

  /** @return the context every failure message carries: config, test and the seed to rerun */
  protected static String where(String config, String test) {
    return "[" + config + ", " + test + ", " + TestSeed.rerun() + "]";
  }
}
