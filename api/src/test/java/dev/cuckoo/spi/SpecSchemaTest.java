package dev.cuckoo.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.Concurrency;
import dev.cuckoo.FilterSpec;
import org.junit.jupiter.api.Test;

class SpecSchemaTest {
  // The test-only hash "fnv1a-mix" is installed in this module's tests.
  private static final SpecSchema SCHEMA =
      SpecSchema.builder("demo")
          .capacity(2, 1_000_000)
          .fingerprintBits(4, 32, 12)
          .bucketSizes(4, 1, 2, 4, 8)
          .maxKicks(0, 10_000, 500)
          .defaultHash("fnv1a-mix")
          .wholeOption("expansion", 0, 32_768, 1)
          .threadSafeMode(Concurrency.STRIPED)
          .build();

  private static FilterSpec resolve(String config) {
    return SCHEMA.resolve(FilterSpec.parse(config));
  }

  private static String rejection(String config) {
    return assertThrows(IllegalArgumentException.class, () -> resolve(config), config).getMessage();
  }

  @Test
  void fillsEveryDefault() {
    assertEquals(
        "demo?capacity=100&fingerprintBits=12&bucketSize=4&hash=fnv1a-mix&seed=0&maxKicks=500&concurrency=none&expansion=1",
        resolve("demo?capacity=100").toString());
  }

  @Test
  void resolvingIsIdempotentAndKeepsWhatWasGiven() {
    FilterSpec once = resolve("demo?capacity=100&bucketSize=8&seed=-3&maxKicks=0&expansion=0_8&concurrency=striped");
    assertEquals(once, SCHEMA.resolve(once));
    assertEquals("8", once.option("expansion").get(), "whole options are written canonically");
    assertEquals(-3, once.seed().getAsLong());
    assertEquals(0, once.maxKicks().getAsInt());
  }

  @Test
  void targetFppBecomesTheSmallestWidthThatMeetsIt() {
    // 2b/2^f <= fpp with b = 4: 2^-9 needs exactly 12 bits; a hair less needs 13.
    assertEquals(12, resolve("demo?capacity=100&targetFpp=" + Math.scalb(1.0, -9)).fingerprintBits().getAsInt());
    assertEquals(13, resolve("demo?capacity=100&targetFpp=" + Math.nextDown(Math.scalb(1.0, -9))).fingerprintBits().getAsInt());
    assertEquals(9, resolve("demo?capacity=100&targetFpp=0.01&bucketSize=2").fingerprintBits().getAsInt());
    assertEquals(4, resolve("demo?capacity=100&targetFpp=0.9").fingerprintBits().getAsInt(), "at least the minimum width");
    assertTrue(resolve("demo?capacity=100&targetFpp=0.01").targetFpp().isEmpty(), "targetFpp is replaced by the width");
    String m = rejection("demo?capacity=100&targetFpp=1e-12");
    assertTrue(m.contains("targetFpp=1.0E-12 needs 43-bit fingerprints") && m.contains("demo") && m.contains("4..32"), m);
    assertEquals(SpecSchema.fingerprintBitsFor(0.03, 2), 8);
  }

  @Test
  void everyRejectionNamesKeyValueVariantAndWhatIsAllowed() {
    assertEquals("capacity is missing for variant demo: give capacity=N with N in 2..1000000", rejection("demo"));
    assertEquals("capacity=1 is out of range for variant demo: 2..1000000", rejection("demo?capacity=1"));
    assertEquals("capacity=1000001 is out of range for variant demo: 2..1000000", rejection("demo?capacity=1000001"));
    assertEquals("fingerprintBits=40 is out of range for variant demo: 4..32", rejection("demo?capacity=9&fingerprintBits=40"));
    assertEquals("fingerprintBits=3 is out of range for variant demo: 4..32", rejection("demo?capacity=9&fingerprintBits=3"));
    assertEquals("bucketSize=3 is out of range for variant demo: 1, 2, 4, 8", rejection("demo?capacity=9&bucketSize=3"));
    assertEquals("maxKicks=10001 is out of range for variant demo: 0..10000", rejection("demo?capacity=9&maxKicks=10001"));
    assertEquals("expansion=40000 is out of range for variant demo: 0..32768", rejection("demo?capacity=9&expansion=40000"));
    assertEquals("expansion=two is not a whole number", rejection("demo?capacity=9&expansion=two"));
    assertEquals("concurrency=locks is not a concurrency mode: none, threadsafe, striped, locked",
        rejection("demo?capacity=9&concurrency=locks"));
    assertEquals("concurrency=locked is out of range for variant demo: none, threadsafe, striped",
        rejection("demo?capacity=9&concurrency=locked"));
    assertEquals("unknown key 'bogus' for variant demo; allowed keys: capacity, fingerprintBits, targetFpp, bucketSize,"
        + " hash, seed, maxKicks, concurrency, expansion, keys", rejection("demo?capacity=9&bogus=1"));
    assertEquals("unknown key 'capacty' for variant demo; did you mean 'capacity'?; allowed keys: capacity,"
        + " fingerprintBits, targetFpp, bucketSize, hash, seed, maxKicks, concurrency, expansion, keys",
        rejection("demo?capacity=9&capacty=1"));
    assertTrue(rejection("demo?capacity=9&expanson=1").contains("did you mean 'expansion'?"));
    assertEquals("sha256", resolve("demo?capacity=9&hash=sha256").hash().orElseThrow(),
        "whether a hash is installed is for the registry to say, not the schema");
    assertTrue(rejection("other?capacity=9").contains("is for variant other, not demo"));
  }

  @Test
  void aRangeOfBucketSizesIsDescribedAsARange() {
    SpecSchema s = SpecSchema.builder("r").capacity(1, 10).fingerprintBits(8, 8, 8).bucketSizeRange(1, 255, 2)
        .maxKicks(1, 65_535, 20).defaultHash("fnv1a-mix").build();
    assertEquals("1..255", s.bucketSizesText());
    assertTrue(s.supportsBucketSize(255) && !s.supportsBucketSize(256) && !s.supportsBucketSize(0));
    String m = assertThrows(IllegalArgumentException.class,
        () -> s.resolve(FilterSpec.parse("r?capacity=5&fingerprintBits=16"))).getMessage();
    assertEquals("fingerprintBits=16 is out of range for variant r: 8..8", m);
  }

  @Test
  void aSetOfWidthsTakesATargetToTheNarrowestThatIsWideEnough() {
    SpecSchema s = SpecSchema.builder("w").capacity(1, 1_000).fingerprintWidths(16, 32, 16).bucketSizes(4, 4)
        .maxKicks(0, 500, 500).defaultHash("fnv1a-mix").build();
    assertEquals("16, 32", s.fingerprintBitsText());
    assertEquals("4..32", SCHEMA.fingerprintBitsText());
    assertTrue(s.supportsFingerprintBits(32) && !s.supportsFingerprintBits(20));
    assertEquals(16, s.minFingerprintBits());
    assertEquals(32, s.maxFingerprintBits());
    assertEquals(16, s.resolve(FilterSpec.parse("w?capacity=9&targetFpp=0.01")).fingerprintBits().getAsInt());
    assertEquals(32, s.resolve(FilterSpec.parse("w?capacity=9&targetFpp=1e-5")).fingerprintBits().getAsInt());
    assertEquals("fingerprintBits=20 is out of range for variant w: 16, 32",
        assertThrows(IllegalArgumentException.class, () -> s.resolve(FilterSpec.parse("w?capacity=9&fingerprintBits=20")))
            .getMessage());
    assertThrows(IllegalArgumentException.class, () -> SpecSchema.builder("x").fingerprintWidths(8, 16, 32));
  }

  @Test
  void aCapacityWithADefaultMayBeLeftOut() {
    SpecSchema s = SpecSchema.builder("g").capacity(1, 1_000, 64).fingerprintBits(16, 16, 16).bucketSizes(4, 4)
        .maxKicks(0, 500, 500).defaultHash("fnv1a-mix").build();
    assertEquals(64, s.defaultCapacity().getAsLong());
    assertTrue(SCHEMA.defaultCapacity().isEmpty(), "capacity(min, max) makes it required");
    FilterSpec resolved = s.resolve(FilterSpec.parse("g"));
    assertEquals(64, resolved.capacity().getAsLong());
    assertEquals(resolved, s.resolve(resolved), "the default is written into the resolved spec");
    assertEquals(9, s.resolve(FilterSpec.parse("g?capacity=9")).capacity().getAsLong());
    assertTrue(s.toString().contains("capacity 1..1000 (default 64)"), s.toString());
    assertThrows(IllegalArgumentException.class, () -> SpecSchema.builder("x").capacity(1, 10, 11));
  }

  @Test
  void anInconsistentSchemaIsABug() {
    assertThrows(IllegalArgumentException.class, () -> SpecSchema.builder("x").fingerprintBits(8, 4, 6));
    assertThrows(IllegalArgumentException.class, () -> SpecSchema.builder("x").bucketSizes(3, 1, 2, 4));
    assertThrows(IllegalArgumentException.class, () -> SpecSchema.builder("x").choiceOption("m", "c", "a", "b"));
    assertThrows(IllegalStateException.class, () -> SpecSchema.builder("x").capacity(1, 2).build());
  }
}
