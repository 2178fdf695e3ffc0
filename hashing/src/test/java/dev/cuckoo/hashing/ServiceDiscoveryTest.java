package dev.cuckoo.hashing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilters;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every hash is found by ServiceLoader, on the class path (through the META-INF/services file
 * auto-service writes) and on the module path (through module-info's {@code provides}); the
 * build runs this class once each way.
 */
class ServiceDiscoveryTest {
  static final Set<String> HASHES =
      Set.of("xxh3", "xxh64", "murmur3", "murmur64a", "wyhash", "metro", "city", "farm");

  @Test
  void runsOnThePathTheBuildAskedFor() {
    String expected = System.getProperty("cuckoo.expectModulePath");
    if (expected != null) {
      assertEquals(Boolean.parseBoolean(expected), CuckooFilters.class.getModule().isNamed(),
          "dev.cuckoo loaded as a named module");
      assertEquals(Boolean.parseBoolean(expected), ServiceDiscoveryTest.class.getModule().isNamed(),
          "dev.cuckoo.hashing loaded as a named module");
    }
  }

  @Test
  void everyHashIsInstalledUnderItsName() {
    assertTrue(CuckooFilters.hashes().containsAll(HASHES), "installed: " + CuckooFilters.hashes());
    for (String name : HASHES) {
      assertEquals(name, CuckooFilters.hash(name).name());
      assertEquals(name, CuckooFilters.hash(name, 7).name());
    }
  }

  @Test
  void murmur64aVectorsOnEitherPath() {
    assertEquals(0x071717d2d36b6b11L, CuckooFilters.hash("murmur64a").hashChars("a"));
  }
}
