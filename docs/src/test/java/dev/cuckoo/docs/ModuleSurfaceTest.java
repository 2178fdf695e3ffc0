package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The layers keep their promises as the module descriptors state them: the API module exports
 * the API and a small SPI and nothing else, the engine exports its one package, and a variant
 * exports a package only when it holds real API (as {@code scalable}'s {@code RedisBloomDump}
 * does); {@link java.util.ServiceLoader} needs only {@code provides}.
 */
class ModuleSurfaceTest {

  private static Map<String, ModuleDescriptor> descriptors() {
    Path[] paths = new CuckooModulePath().modules.stream().map(Paths::get).toArray(Path[]::new);
    Map<String, ModuleDescriptor> found = new TreeMap<>();
    for (ModuleReference ref : ModuleFinder.of(paths).findAll()) {
      if (ref.descriptor().name().startsWith("dev.cuckoo")) {
        found.put(ref.descriptor().name(), ref.descriptor());
      }
    }
    return found;
  }

  /** @return the packages a module exports to every module */
  private static Set<String> exports(ModuleDescriptor d) {
    return d.exports().stream().filter(e -> !e.isQualified()).map(ModuleDescriptor.Exports::source)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** @return each package a module exports to named modules only, with the modules */
  private static Map<String, Set<String>> qualifiedExports(ModuleDescriptor d) {
    Map<String, Set<String>> found = new TreeMap<>();
    d.exports().stream().filter(ModuleDescriptor.Exports::isQualified)
        .forEach(e -> found.put(e.source(), new TreeSet<>(e.targets())));
    return found;
  }

  @Test
  void eachModuleExportsWhatItPromisesAndNoMore() {
    Map<String, ModuleDescriptor> modules = descriptors();
    assertEquals(Set.of("dev.cuckoo", "dev.cuckoo.spi"), exports(modules.get("dev.cuckoo")), "the API module");
    // The seam every write to a filter file goes through is the engine's alone, not an application's.
    assertEquals(Map.of("dev.cuckoo.internal.io", Set.of("dev.cuckoo.engine")),
        qualifiedExports(modules.get("dev.cuckoo")), "the API module's qualified exports");
    for (ModuleDescriptor d : modules.values()) {
      if (!d.name().equals("dev.cuckoo")) {
        assertEquals(Map.of(), qualifiedExports(d), d.name() + " exports nothing to chosen modules");
      }
    }
    assertTrue(modules.get("dev.cuckoo").packages().contains("dev.cuckoo.internal"), "the file format and registry live in the API module");
    assertEquals(Set.of("dev.cuckoo.engine"), exports(modules.get("dev.cuckoo.engine")), "the engine");
    assertEquals(Set.of(), exports(modules.get("dev.cuckoo.classic")), "classic exports nothing");
    assertEquals(Set.of(), exports(modules.get("dev.cuckoo.semisorted")), "semi-sorted exports nothing");
    assertEquals(Set.of(), exports(modules.get("dev.cuckoo.expandable")), "expandable exports nothing");
    assertEquals(Set.of(), exports(modules.get("dev.cuckoo.hashing")), "hashing exports nothing");
    assertEquals(Set.of("dev.cuckoo.logstore"), exports(modules.get("dev.cuckoo.logstore")), "the log store exports LogStore's package");
    for (ModuleDescriptor d : modules.values()) {
      if (!d.provides().isEmpty()) {
        assertTrue(d.provides().stream().allMatch(p -> p.service().startsWith("dev.cuckoo.spi.")), d.name());
      }
    }
  }

  /**
   * The API's public types, pinned: a public type is a promise, so adding one is a decision this
   * test makes visible. No public method of them hands an application an SPI provider.
   */
  @Test
  void theApiPackageHoldsThesePublicTypesAndHandsOutNoProvider() throws Exception {
    Set<String> publicTypes = publicTypesOf("dev.cuckoo");
    assertEquals(new TreeSet<>(Set.of("Concurrency", "CorruptFilterException", "CuckooFilter", "CuckooFilters",
        "Durability", "FileRecovery", "FilterFileInfo", "FilterShard", "FilterSpec", "FilterVariant",
        "KeyEncoder", "KeyKind", "KeySink", "MappedFilter", "ShardRouter", "TypedFilter")), publicTypes);
    for (String type : publicTypes) {
      for (java.lang.reflect.Method m : Class.forName("dev.cuckoo." + type).getMethods()) {
        assertTrue(!dev.cuckoo.spi.FilterProvider.class.isAssignableFrom(m.getReturnType())
            && !dev.cuckoo.spi.HashStrategyProvider.class.isAssignableFrom(m.getReturnType()),
            type + "." + m.getName() + " returns an SPI provider");
      }
    }
  }

  /** @return the public top-level types of a package of the API module */
  private static Set<String> publicTypesOf(String packageName) throws Exception {
    Set<String> topLevel = new TreeSet<>(publicTypesOf("dev.cuckoo", packageName));
    topLevel.removeIf(name -> name.contains("$"));
    return topLevel;
  }

  /** @return the public types of a module's package, nested ones named {@code Outer$Inner} */
  private static Set<String> publicTypesOf(String module, String packageName) throws Exception {
    ModuleReference api = ModuleFinder.of(new CuckooModulePath().modules.stream().map(Paths::get).toArray(Path[]::new))
        .find(module).orElseThrow();
    Set<String> publicTypes = new TreeSet<>();
    String prefix = packageName.replace('.', '/') + "/";
    try (java.lang.module.ModuleReader reader = api.open()) {
      for (String resource : reader.list().collect(Collectors.toList())) {
        if (resource.startsWith(prefix) && resource.substring(prefix.length()).matches("[A-Za-z0-9]+(\\$[A-Za-z0-9]+)*\\.class")) {
          String name = resource.replace('/', '.').substring(0, resource.length() - ".class".length());
          if (isPublicAllTheWayOut(Class.forName(name))) {
            publicTypes.add(name.substring(packageName.length() + 1));
          }
        }
      }
    }
    return publicTypes;
  }

  private static boolean isPublicAllTheWayOut(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
      if (!Modifier.isPublic(c.getModifiers())) {
        return false;
      }
    }
    return true;
  }

  /**
   * What a variant author may use of the engine, pinned: its exported package holds at most 14
   * public types, nested ones counted; the storages, the file and its crash safety, the striped
   * stores and the shards live in packages the engine does not export.
   */
  @Test
  void theEnginesExportedPackageHoldsThesePublicTypes() throws Exception {
    Set<String> publicTypes = publicTypesOf("dev.cuckoo.engine", "dev.cuckoo.engine");
    assertEquals(new TreeSet<>(Set.of("BitStringTable", "CuckooSizing", "CuckooTable", "FingerprintStash",
        "FingerprintStore", "FingerprintStore$Snapshot", "KickPath", "PartialKeyHashing", "PlainFingerprintStore", "SwarLanes",
        "TableFilter", "TableFilter$Parts", "TableProvider", "TableWords")), publicTypes);
    assertTrue(publicTypes.size() <= 14, "public engine types: " + publicTypes);
  }

  @Test
  void theSpiHoldsAtMostTenPublicTypesAndNoneOfTheMachinery() throws Exception {
    Set<String> publicTypes = publicTypesOf("dev.cuckoo.spi");
    assertTrue(!publicTypes.isEmpty() && publicTypes.size() <= 10, "public SPI types: " + publicTypes);
    for (String machinery : new String[] {"CuckooTable", "KickPath", "FingerprintStash", "FingerprintStore",
        "CuckooSizing", "PartialKeyHashing", "FilterFile", "EnvelopeReader"}) {
      assertTrue(!publicTypes.contains(machinery), machinery + " is in the SPI: " + publicTypes);
    }
  }
}
