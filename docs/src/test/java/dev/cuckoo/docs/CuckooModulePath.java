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
  /** The test class folders. */
  final List<String> testClasses = new ArrayList<>();

  CuckooModulePath() {
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    for (String entry : classPath.split(File.pathSeparator)) {
      String name = Paths.get(entry).toString().replace('\\', '/');
      // Every library module whose requirements are the library's own: the jars of the
      // reactor's artifacts, or their class folders. Not the command line, the benchmarks or
      // these docs (applications, not modules), nor redis, which needs Jedis and its own
      // dependencies on the module path.
      boolean cuckooModule = (name.matches(".*/cuckoo-[a-z-]+-[0-9][^/]*\\.jar")
              || name.matches(".*/[a-z-]+/target/classes"))
          && !name.matches(".*/(cuckoo-)?(cli|benchmarks|docs|redis)[-/].*");
      if (cuckooModule && !name.contains("tests")) {
        modules.add(entry);
      } else if (name.contains("zero-allocation-hashing")) {
        modules.add(entry);
      } else if (name.endsWith("test-classes")) {
        testClasses.add(entry);
      }
    }
  }

  /** @return the module path, joined */
  String modulePath() {
    return String.join(File.pathSeparator, modules);
  }

  /** @return the {@code java} of this JVM */
  static String java() {
    return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
  }
}
