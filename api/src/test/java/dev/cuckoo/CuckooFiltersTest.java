package dev.cuckoo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CuckooFiltersTest {

  @Test
  void listsWhatIsInstalled() {
    assertTrue(CuckooFilters.variants().contains("exact"), CuckooFilters.variants().toString());
    assertTrue(CuckooFilters.hashes().contains("fnv1a-mix"), CuckooFilters.hashes().toString());
    assertThrows(UnsupportedOperationException.class, () -> CuckooFilters.variants().add("x"));
  }

  @Test
  void unknownNamesListTheInstalledOnes() {
    String v = assertThrows(IllegalArgumentException.class, () -> CuckooFilters.create("bloom?capacity=5")).getMessage();
    assertTrue(v.startsWith("variant 'bloom' is not installed; installed variants: ") && v.contains("exact"), v);
    String h = assertThrows(IllegalArgumentException.class, () -> CuckooFilters.hash("md5")).getMessage();
    assertTrue(h.startsWith("hash 'md5' is not installed; installed hashes: ") && h.contains("fnv1a-mix"), h);
    String c = assertThrows(IllegalArgumentException.class, () -> CuckooFilters.create("exact?capacity=9&hash=sha256")).getMessage();
    assertTrue(c.startsWith("hash=sha256 is not installed; installed hashes: ") && c.contains("fnv1a-mix"), c);
    String typo = assertThrows(IllegalArgumentException.class, () -> CuckooFilters.create("exact?capacity=9&hash=fnv1a-mx")).getMessage();
    assertTrue(typo.startsWith("hash=fnv1a-mx is not installed; did you mean 'fnv1a-mix'?"), typo);
  }

  @Test
  void theThreeWaysToConfigureAgree() {
    Properties p = new Properties();
    p.setProperty("cuckoo.variant", "exact");
    p.setProperty("cuckoo.capacity", "50");
    FilterSpec fromText = CuckooFilters.create("exact?capacity=50").spec();
    assertEquals(fromText, CuckooFilters.create(FilterSpec.builder("exact").capacity(50).build()).spec());
    assertEquals(fromText, CuckooFilters.fromProperties(p, "cuckoo.").spec());
  }

  @Test
  void seededHashesDiffer() {
    assertTrue(CuckooFilters.hash("fnv1a-mix", 1).hashLong(5) != CuckooFilters.hash("fnv1a-mix").hashLong(5));
    assertEquals(CuckooFilters.hash("fnv1a-mix", 0).hashLong(5), CuckooFilters.hash("fnv1a-mix").hashLong(5));
  }

  /**
   * A full filter fails a parallel collect with its own message, not with the message a fork-join
   * pool writes when it rethrows a worker's exception ({@code "java.lang.IllegalStateException:
   * ..."} around the real one). Which thread overflows first varies, so the collect runs a few
   * times.
   */
  @Test
  void aParallelCollectThatOverflowsSaysSoInOneLine() {
    List<String> keys = IntStream.range(0, 200_000).mapToObj(i -> "key-" + i).collect(Collectors.toList());
    for (int run = 0; run < 20; run++) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> keys.parallelStream().collect(CuckooFilters.toFilter("exact?capacity=100")));
      assertTrue(e.getMessage().startsWith("the filter refused a key after 100 (exact?capacity=100")
          && !e.getMessage().contains("Exception") && !e.getMessage().contains("\n"), e.getMessage());
      IllegalStateException typed = assertThrows(IllegalStateException.class,
          () -> keys.parallelStream().collect(CuckooFilters.toFilter("exact?capacity=100", KeyEncoder.strings())));
      assertTrue(typed.getMessage().startsWith("the filter refused a key after 100 (exact?capacity=100")
          && !typed.getMessage().contains("Exception"), typed.getMessage());
    }
  }
}
