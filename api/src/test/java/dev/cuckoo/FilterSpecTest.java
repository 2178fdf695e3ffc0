package dev.cuckoo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.spi.HashStrategy;
import dev.cuckoo.testkit.TestSeed;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FilterSpecTest {
  @Test
  void parsesEveryCommonKeyAndOptions() {
    FilterSpec s = FilterSpec.parse(
        " classic?capacity=1_000_000&fingerprintBits=12&bucketSize=4&hash=xxh3&seed=0x10&maxKicks=500&expansion=2 ");
    assertEquals("classic", s.variant());
    assertEquals(1_000_000L, s.capacity().getAsLong());
    assertEquals(12, s.fingerprintBits().getAsInt());
    assertEquals(4, s.bucketSize().getAsInt());
    assertEquals("xxh3", s.hash().get());
    assertEquals(16L, s.seed().getAsLong());
    assertEquals(500, s.maxKicks().getAsInt());
    assertEquals(Map.of("expansion", "2"), s.options());
    assertTrue(s.targetFpp().isEmpty() && s.hashInstance().isEmpty());
    assertEquals(
        "classic?capacity=1000000&fingerprintBits=12&bucketSize=4&hash=xxh3&seed=16&maxKicks=500&expansion=2",
        s.toString());
  }

  @Test
  void aBareVariantIsASpecWithNothingSet() {
    FilterSpec s = FilterSpec.parse("semi-sorted");
    assertEquals("semi-sorted", s.toString());
    assertTrue(s.capacity().isEmpty() && s.fingerprintBits().isEmpty() && s.bucketSize().isEmpty()
        && s.hash().isEmpty() && s.seed().isEmpty() && s.maxKicks().isEmpty() && s.options().isEmpty());
  }

  @Test
  void textRoundTripsForRandomSpecs() {
    SplittableRandom r = TestSeed.random("spec text round trip");
    for (int i = 0; i < 2_000; i++) {
      FilterSpec.Builder b = FilterSpec.builder(r.nextBoolean() ? "classic" : "x-1.y_2");
      if (r.nextBoolean()) b.capacity(r.nextLong(1, Long.MAX_VALUE));
      if (r.nextBoolean()) b.fingerprintBits(r.nextInt(1, 65));
      else if (r.nextBoolean()) b.targetFpp(Math.nextUp(r.nextDouble()));
      if (r.nextBoolean()) b.bucketSize(r.nextInt(1, 300));
      if (r.nextBoolean()) b.hash(r.nextBoolean() ? "xxh3" : "murmur64a");
      if (r.nextBoolean()) b.seed(r.nextLong());
      if (r.nextBoolean()) b.maxKicks(r.nextInt(0, Integer.MAX_VALUE));
      if (r.nextBoolean()) b.concurrency(anyOf(Concurrency.values(), r));
      if (r.nextBoolean()) b.option("expansion", Integer.toString(r.nextInt(100)));
      if (r.nextBoolean()) b.option("mode", r.nextBoolean() ? "a.b:c" : "x+y,z-1");
      FilterSpec s = b.build();
      FilterSpec back = FilterSpec.parse(s.toString());
      String at = TestSeed.rerun() + ": " + s;
      assertEquals(s, back, at);
      assertEquals(s.hashCode(), back.hashCode(), at);
      assertEquals(s, s.toBuilder().build(), at);
    }
  }

  @Test
  void equalityCoversEveryField() {
    FilterSpec base = FilterSpec.parse("classic?capacity=10&fingerprintBits=8&bucketSize=4&hash=xxh3&seed=1&maxKicks=5&a=1");
    for (String other : new String[] {
        "scalable?capacity=10&fingerprintBits=8&bucketSize=4&hash=xxh3&seed=1&maxKicks=5&a=1",
        "classic?capacity=11&fingerprintBits=8&bucketSize=4&hash=xxh3&seed=1&maxKicks=5&a=1",
        "classic?capacity=10&fingerprintBits=9&bucketSize=4&hash=xxh3&seed=1&maxKicks=5&a=1",
        "classic?capacity=10&targetFpp=0.01&bucketSize=4&hash=xxh3&seed=1&maxKicks=5&a=1",
        "classic?capacity=10&fingerprintBits=8&bucketSize=2&hash=xxh3&seed=1&maxKicks=5&a=1",
        "classic?capacity=10&fingerprintBits=8&bucketSize=4&hash=city&seed=1&maxKicks=5&a=1",
        "classic?capacity=10&fingerprintBits=8&bucketSize=4&hash=xxh3&seed=2&maxKicks=5&a=1",
        "classic?capacity=10&fingerprintBits=8&bucketSize=4&hash=xxh3&seed=1&maxKicks=6&a=1",
        "classic?capacity=10&fingerprintBits=8&bucketSize=4&hash=xxh3&seed=1&maxKicks=5&a=2",
        "classic?capacity=10&fingerprintBits=8&bucketSize=4&hash=xxh3&seed=1&maxKicks=5",
    }) {
      assertNotEquals(base, FilterSpec.parse(other), other);
    }
  }

  @Test
  void aHashInstanceIsWrittenAsItsName() {
    HashStrategy mine = new HashStrategy() {
      @Override public String name() { return "mine"; }
      @Override public long hashBytes(byte[] b, int off, int len) { return len; }
    };
    FilterSpec s = FilterSpec.builder("classic").capacity(5).hash(mine).build();
    assertEquals("classic?capacity=5&hash=mine", s.toString());
    assertEquals(mine, s.hashInstance().get());
    assertEquals(mine, CuckooFilters.hashOf(s));
    assertNotEquals(s, FilterSpec.parse(s.toString()), "an instance is not its name");
    assertEquals(FilterSpec.parse(s.toString()), s.toBuilder().hash("mine").build());
  }

  @Test
  void theHashOfAnUnresolvedSpecSaysWhatToDo() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> CuckooFilters.hashOf(FilterSpec.parse("classic")));
    assertTrue(e.getMessage().contains("names no hash"), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "''                                  | empty",
      "'   '                               | empty",
      "?capacity=1                         | variant name ''",
      "cla ssic?capacity=1                 | variant name 'cla ssic'",
      "classic?                            | ends with '?'",
      "classic?capacity                    | 'capacity' where key=value",
      "classic?=5                          | '=5' where key=value",
      "classic?capacity=1&&seed=2          | '' where key=value",
      "classic?capacity=1&                 | '' where key=value",
      "classic?capacity=                   | capacity has an empty value",
      "classic?capacity=1&capacity=2       | capacity is given twice",
      "classic?capacity=ten                | capacity=ten is not a whole number",
      "classic?capacity=1.5                | capacity=1.5 is not a whole number",
      "classic?capacity=1__0x              | capacity=1__0x is not a whole number",
      "classic?capacity=99999999999999999999 | capacity=99999999999999999999 is out of range",
      "classic?fingerprintBits=99999999999 | fingerprintBits=99999999999 is out of range",
      "classic?targetFpp=abc               | targetFpp=abc is not a decimal number",
      "classic?targetFpp=NaN               | targetFpp=NaN is not a decimal number",
      "classic?targetFpp=-0.1              | targetFpp=-0.1 is out of range: strictly between 0 and 1",
      "classic?targetFpp=-1e999            | targetFpp=-1e999 is out of range: at least -1.7976931348623157E308",
      "classic?capacity=1e12               | capacity=1e12 is not a whole number: scientific notation is not accepted; write it in digits, 1000000000000",
      "classic?capacity=+1.5E3             | capacity=+1.5E3 is not a whole number: scientific notation is not accepted; write it in digits, 1500",
      "classic?capacity=1e-3               | capacity=1e-3 is not a whole number (scientific notation is not accepted either)",
      "classic?capacity=1e99               | capacity=1e99 is not a whole number (scientific notation is not accepted either)",
      "classic?fingerprintBits=0           | fingerprintBits=0 is out of range: 1..64",
      "exact?fingerprintBits=0             | fingerprintBits=0 is out of range: 1..64",
      "exact?capacity=0                    | capacity=0 is out of range: at least 1",
      "classic?targetFpp=0x1p-3            | targetFpp=0x1p-3 is not a decimal number",
      "classic?targetFpp=.9e344            | targetFpp=.9e344 is out of range: at most 1.7976931348623157E308",
      "classic?seed=0x                     | seed=0x is not a whole number",
      "classic?seed=0x1ffffffffffffffff    | seed=0x1ffffffffffffffff is not a whole number",
      "classic?hash=x/y                    | hash=x/y is not a valid hash name",
      "classic?fingerprintBits=8&targetFpp=0.01 | fingerprintBits=8 and targetFpp=0.01 are both given",
      "classic?Capacity=5                  | unknown key 'Capacity'; did you mean 'capacity'?",
      "classic?max kicks=5                 | key 'max kicks' is not valid",
      "classic?expansion=a b               | expansion=a b is not a valid option value",
      "classic?variant=scalable            | 'variant' is not a key",
  })
  void malformedConfigStringsSayWhatIsWrong(String config, String message) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FilterSpec.parse(config));
    assertTrue(e.getMessage().contains(message), "'" + config + "': " + e.getMessage());
  }

  /**
   * A spec is a value and looks nothing up, so it names what any variant could take; a config
   * string given to CuckooFilters names the range of its variant when that is installed.
   */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "exact?fingerprintBits=0             | fingerprintBits=0 is out of range for variant exact: 64..64",
      "exact?capacity=0                    | capacity=0 is out of range for variant exact: 1..16777216",
      "exact?bucketSize=0                  | bucketSize=0 is out of range for variant exact: 1",
      "exact?maxKicks=-1                   | maxKicks=-1 is out of range for variant exact: 0..0",
      "nosuch?capacity=0                   | capacity=0 is out of range: at least 1",
  })
  void configStringsGivenToTheFacadeNameTheVariantsRange(String config, String message) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CuckooFilters.spec(config));
    assertTrue(e.getMessage().contains(message), "'" + config + "': " + e.getMessage());
    IllegalArgumentException created = assertThrows(IllegalArgumentException.class, () -> CuckooFilters.create(config));
    assertTrue(created.getMessage().contains(message) || config.startsWith("nosuch"), created.getMessage());
  }

  @Test
  void numbersAcceptUnderscoresSignsAndHexSeeds() {
    assertEquals(-1L, FilterSpec.parse("v?seed=0xffffffffffffffff").seed().getAsLong());
    assertEquals(-5L, FilterSpec.parse("v?seed=-5").seed().getAsLong());
    assertEquals(1_000L, FilterSpec.parse("v?capacity=+1_000").capacity().getAsLong());
    assertEquals(1e-3, FilterSpec.parse("v?targetFpp=1e-3").targetFpp().getAsDouble());
    assertEquals(0.5, FilterSpec.parse("v?targetFpp=.5").targetFpp().getAsDouble());
  }

  @Test
  void propertiesUseTheSameKeys() {
    Properties p = new Properties();
    p.setProperty("app.cuckoo.variant", " classic ");
    p.setProperty("app.cuckoo.capacity", "1000");
    p.setProperty("app.cuckoo.fingerprintBits", "16 ");
    p.setProperty("app.cuckoo.expansion", "2");
    p.setProperty("app.other", "ignored");
    p.setProperty("unrelated", "ignored");
    FilterSpec s = FilterSpec.fromProperties(p, "app.cuckoo.");
    assertEquals(FilterSpec.parse("classic?capacity=1000&fingerprintBits=16&expansion=2"), s);

    Properties noPrefix = new Properties();
    noPrefix.setProperty("variant", "classic");
    noPrefix.setProperty("capacity", "7");
    assertEquals(FilterSpec.parse("classic?capacity=7"), FilterSpec.fromProperties(noPrefix, ""));

    Properties bad = new Properties();
    bad.setProperty("c.variant", "classic");
    bad.setProperty("c.capacity", "lots");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FilterSpec.fromProperties(bad, "c."));
    assertTrue(e.getMessage().contains("capacity=lots"), e.getMessage());

    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> FilterSpec.fromProperties(new Properties(), "c."));
    assertTrue(missing.getMessage().contains("c.variant is missing"), missing.getMessage());
  }

  @Test
  void builderRejectsAtOnceWhatNoVariantAccepts() {
    assertEquals(OptionalInt.of(3), FilterSpec.builder("v").bucketSize(3).build().bucketSize(),
        "a variant's own ranges are its to check, so its message can say what it allows");
    assertEquals("capacity=-1 is out of range: at least 1",
        assertThrows(IllegalArgumentException.class, () -> FilterSpec.builder("classic").capacity(-1)).getMessage());
    assertEquals("capacity=0 is out of range: at least 1",
        assertThrows(IllegalArgumentException.class, () -> FilterSpec.builder("classic").capacity(0)).getMessage());
    assertEquals("targetFpp=2.0 is out of range: strictly between 0 and 1, e.g. 0.001",
        assertThrows(IllegalArgumentException.class, () -> FilterSpec.builder("classic").targetFpp(2)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> FilterSpec.builder("v").targetFpp(0));
    assertThrows(IllegalArgumentException.class, () -> FilterSpec.builder("v").targetFpp(Double.NaN));
    assertEquals("bucketSize=0 is out of range: at least 1",
        assertThrows(IllegalArgumentException.class, () -> FilterSpec.builder("v").bucketSize(0)).getMessage());
    assertEquals("fingerprintBits=65 is out of range: 1..64",
        assertThrows(IllegalArgumentException.class, () -> FilterSpec.builder("v").fingerprintBits(65)).getMessage());
    assertEquals("maxKicks=-1 is out of range: at least 0",
        assertThrows(IllegalArgumentException.class, () -> FilterSpec.builder("v").maxKicks(-1)).getMessage());
    assertEquals("capacity=0 is out of range: at least 1",
        assertThrows(IllegalArgumentException.class, () -> FilterSpec.parse("v?capacity=0")).getMessage());
    assertThrows(IllegalArgumentException.class, () -> FilterSpec.builder("v").option("capacity", "1"));
    assertThrows(IllegalArgumentException.class, () -> FilterSpec.builder("v").option("x", ""));
    assertThrows(IllegalArgumentException.class, () -> FilterSpec.builder("-v"));
    assertThrows(IllegalArgumentException.class, () -> FilterSpec.builder("v".repeat(65)));
    assertThrows(NullPointerException.class, () -> FilterSpec.builder(null));
  }

  @Test
  void nullArgumentsSayWhatMustNotBeNull() {
    assertEquals("variant must not be null",
        assertThrows(NullPointerException.class, () -> FilterSpec.builder(null)).getMessage());
    assertEquals("config must not be null",
        assertThrows(NullPointerException.class, () -> FilterSpec.parse(null)).getMessage());
    assertEquals("hash name must not be null",
        assertThrows(NullPointerException.class, () -> FilterSpec.builder("v").hash((String) null)).getMessage());
    assertEquals("hash strategy must not be null",
        assertThrows(NullPointerException.class, () -> FilterSpec.builder("v").hash((HashStrategy) null)).getMessage());
    assertEquals("concurrency must not be null",
        assertThrows(NullPointerException.class, () -> FilterSpec.builder("v").concurrency(null)).getMessage());
    assertEquals("value of option 'x' must not be null",
        assertThrows(NullPointerException.class, () -> FilterSpec.builder("v").option("x", null)).getMessage());
  }

  @Test
  void concurrencyIsACommonKey() {
    FilterSpec s = FilterSpec.parse("classic?capacity=10&concurrency=threadsafe");
    assertEquals(Concurrency.THREADSAFE, s.concurrency().orElseThrow());
    assertEquals("classic?capacity=10&concurrency=threadsafe", s.toString());
    assertEquals(s, FilterSpec.builder("classic").capacity(10).concurrency(Concurrency.THREADSAFE).build());
    assertTrue(FilterSpec.COMMON_KEYS.contains(FilterSpec.CONCURRENCY));
    assertTrue(s.options().isEmpty());
    assertEquals("concurrency=sometimes is not a concurrency mode: none, threadsafe, striped, locked",
        assertThrows(IllegalArgumentException.class, () -> FilterSpec.parse("classic?concurrency=sometimes")).getMessage());
    assertEquals("'concurrency' is a common key, not an option: set it with its own method",
        assertThrows(IllegalArgumentException.class, () -> FilterSpec.builder("v").option("concurrency", "none")).getMessage());
  }

  /** @return one of the values, chosen by {@code r}: any of them, whatever their order */
  private static <T> T anyOf(T[] values, SplittableRandom r) {
    return values[r.nextInt(values.length)];
  }
}
