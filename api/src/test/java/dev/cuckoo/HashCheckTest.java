package dev.cuckoo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.spi.HashStrategy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * A file records a check of its hash, so that a filter is never read back with a hash other than
 * the one it was built with (which would miss every key it holds): a hash instance, the same hash
 * with another seed, another function under the same name. Run on the test variant {@code exact},
 * whose lookups use the full hash, with the test hash {@code fnv1a-mix}.
 */
class HashCheckTest {
  private static final int KEYS = 200;

  private static byte[] fileOf(FilterSpec spec) throws IOException {
    CuckooFilter f = CuckooFilters.create(spec);
    for (int i = 0; i < KEYS; i++) {
      f.add("key-" + i);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return out.toByteArray();
  }

  private static void assertHoldsEveryKey(CuckooFilter f) {
    for (int i = 0; i < KEYS; i++) {
      assertTrue(f.mightContain("key-" + i), "key-" + i + " lost by a write/read of " + f.spec());
    }
  }

  private static String rejection(byte[] file, HashStrategy hash) {
    return assertThrows(CorruptFilterException.class,
        () -> {
          if (hash == null) {
            CuckooFilters.read(new ByteArrayInputStream(file));
          } else {
            CuckooFilters.read(new ByteArrayInputStream(file), hash);
          }
        }).getMessage();
  }

  @Test
  void aNamedHashReadsBackByNameWithItsSeed() throws IOException {
    for (long seed : new long[] {0, 7, -1}) {
      byte[] file = fileOf(FilterSpec.parse("exact?capacity=1000&hash=fnv1a-mix&seed=" + seed));
      assertHoldsEveryKey(CuckooFilters.read(new ByteArrayInputStream(file)));
      assertHoldsEveryKey(CuckooFilters.read(new ByteArrayInputStream(file), CuckooFilters.hash("fnv1a-mix", seed)));
    }
  }

  @Test
  void anInstanceWithItsOwnSeedIsNotReadBackWithTheInstalledOne() throws IOException {
    // The instance's seed is its own business: the spec records the name and no seed (a
    // HashStrategy cannot say its seed, and seed=0 would be a claim the instance contradicts).
    HashStrategy seven = CuckooFilters.hash("fnv1a-mix", 7);
    FilterSpec spec = CuckooFilters.create(FilterSpec.builder("exact").capacity(1000).hash(seven).build()).spec();
    assertTrue(spec.seed().isEmpty() && !spec.toString().contains("seed="), spec.toString());
    assertEquals(spec, FilterSpec.parse(spec.toString()).toBuilder().hash(seven).build(), "the text names all but the instance");
    byte[] file = fileOf(FilterSpec.builder("exact").capacity(1000).hash(seven).build());
    assertEquals(spec, CuckooFilters.read(new ByteArrayInputStream(file), seven).spec(), "the spec read back");
    String m = rejection(file, null);
    assertTrue(m.contains("the installed hash 'fnv1a-mix' with seed 0 is not the hash this filter was written with")
        && m.contains("CuckooFilters.read(in, hash)"), m);
    assertHoldsEveryKey(CuckooFilters.read(new ByteArrayInputStream(file), CuckooFilters.hash("fnv1a-mix", 7)));
    String wrongSeed = rejection(file, CuckooFilters.hash("fnv1a-mix", 8));
    assertTrue(wrongSeed.contains("the given hash 'fnv1a-mix' is not the hash this filter was written with"), wrongSeed);
  }

  @Test
  void aSeedGivenWithAnInstanceIsRecordedAsGiven() throws IOException {
    HashStrategy seven = CuckooFilters.hash("fnv1a-mix", 7);
    FilterSpec spec = CuckooFilters.create(FilterSpec.builder("exact").capacity(1000).hash(seven).seed(7).build()).spec();
    assertEquals(7L, spec.seed().getAsLong(), spec.toString());
    byte[] file = fileOf(FilterSpec.builder("exact").capacity(1000).hash(seven).seed(7).build());
    assertHoldsEveryKey(CuckooFilters.read(new ByteArrayInputStream(file))); // by name, with seed 7
  }

  @Test
  void anotherFunctionUnderTheSameNameIsRefused() throws IOException {
    HashStrategy impostor = new HashStrategy() {
      @Override public String name() { return "fnv1a-mix"; }
      @Override public long hashBytes(byte[] b, int off, int len) {
        long h = 17;
        for (int i = off; i < off + len; i++) {
          h = h * 31 + b[i];
        }
        return h * 0x9E3779B97F4A7C15L;
      }
    };
    byte[] byImpostor = fileOf(FilterSpec.builder("exact").capacity(1000).hash(impostor).build());
    assertTrue(rejection(byImpostor, null).contains("is not the hash this filter was written with"));
    assertHoldsEveryKey(CuckooFilters.read(new ByteArrayInputStream(byImpostor), impostor));
    byte[] byInstalled = fileOf(FilterSpec.parse("exact?capacity=1000&hash=fnv1a-mix"));
    assertTrue(rejection(byInstalled, impostor).contains("the given hash 'fnv1a-mix' is not the hash"));
  }

  @Test
  void anInstanceOfAnUninstalledHashSaysHowToReadIt() throws IOException {
    HashStrategy mine = new HashStrategy() {
      @Override public String name() { return "mine"; }
      @Override public long hashBytes(byte[] b, int off, int len) {
        return CuckooFilters.hash("fnv1a-mix", 99).hashBytes(b, off, len);
      }
    };
    byte[] file = fileOf(FilterSpec.builder("exact").capacity(1000).hash(mine).build());
    String m = rejection(file, null);
    assertTrue(m.contains("hash=mine is not installed") && m.contains("CuckooFilters.read(in, hash)"), m);
    CuckooFilter back = CuckooFilters.read(new ByteArrayInputStream(file), mine);
    assertHoldsEveryKey(back);
    assertEquals(mine, back.spec().hashInstance().orElseThrow());
  }
}
