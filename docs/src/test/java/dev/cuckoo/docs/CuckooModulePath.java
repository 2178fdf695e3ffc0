package dev.cuckoo.docs;

import java.io.File;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The library's modules as this test JVM sees them on its class path, split into what goes on a
 * child JVM's {@code --module-path} (the cuckoo modules and their dependencies) and the test
 * classes, so that tests can run code in a JVM where the library is a set of named modules.
 */
final class CuckooModulePath {
  /** The cuckoo jars or class folders, and zero-allocation-hashing. */
  final List<String> modules = new ArrayList<>();
  /**
   * cuckoo-redis and what a build tool puts beside it for run time: Jedis and the dependencies
   * its pom declares, but SLF4J.
   */
  final List<String> redisModules = new ArrayList<>();
  /** The SLF4J that Jedis's pom brings (1.7), with a binding, as the Redis guide asks for. */
  final List<String> slf4j = new ArrayList<>();
  /** The test class folders. */
  final List<String> testClasses = new ArrayList<>();

  CuckooModulePath() {
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    for (String entry : classPath.split(File.pathSeparator)) {
      String name = Paths.get(entry).toString().replace('\\', '/');
      // The library's modules: the jars of the reactor's artifacts, or their class folders.
      // Not the command line, the benchmarks or these docs (applications, not modules); redis
      // apart, since it needs Jedis and Jedis's dependencies beside it.
      boolean libraryModule = (name.matches(".*/cuckoo-[a-z-]+-[0-9][^/]*\\.jar")
              || name.matches(".*/[a-z-]+/target/classes"))
          && !name.contains("tests");
      if (libraryModule && name.matches(".*/(cuckoo-redis-[0-9][^/]*\\.jar|redis/target/classes)")) {
        redisModules.add(entry);
      } else if (libraryModule && !name.matches(".*/(cuckoo-)?(cli|benchmarks|docs)[-/].*")) {
        modules.add(entry);
      } else if (name.contains("zero-allocation-hashing")) {
        modules.add(entry);
      } else if (name.matches(".*/(redis/clients|org/apache/commons/commons-pool2|com/google/code/gson/gson"
          + "|org/json/json)/.*\\.jar")) {
        redisModules.add(entry);
      } else if (name.matches(".*/org/slf4j/slf4j-(api|nop)/.*\\.jar")) {
        slf4j.add(entry);
      } else if (name.endsWith("test-classes")) {
        testClasses.add(entry);
      }
    }
  }

  /** @return the module path, joined */
  String modulePath() {
    return String.join(File.pathSeparator, modules);
  }

  /**
   * @param logging the SLF4J jars to put beside Jedis, such as {@link #slf4j}
   * @return the module path with cuckoo-redis, its dependencies and those jars, joined
   */
  String redisModulePath(List<String> logging) {
    List<String> all = new ArrayList<>(modules);
    all.addAll(redisModules);
    all.addAll(logging);
    return String.join(File.pathSeparator, all);
  }

  /** @return the {@code java} of this JVM */
  static String java() {
    return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
  }
}
