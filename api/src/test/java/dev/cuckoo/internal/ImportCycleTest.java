package dev.cuckoo.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The API module's sources form no import circle across its packages: no file reaches itself
 * through the types it uses (its imports, the names it writes out in full, and the types of its
 * own package it names in code, comments aside) by way of another package. Files of one package
 * that name each other are one idea in several files (an interface and its enum of ready-made
 * instances, say); the API, the SPI and the internal package are layers, and a circle through
 * them means a layer reaching back up (as the SPI's {@code joinShards} once took a type of
 * {@code CuckooFilters}, and {@code FilterSpec} looked hashes up in the registry). Run it alone
 * with {@code ./mvnw -pl api test -Dtest=ImportCycleTest}; {@code farm-studio look api} draws
 * the same graph.
 */
class ImportCycleTest {
  private static final Path SOURCES = Path.of("src/main/java");
  private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?(dev\\.cuckoo(?:\\.\\w+)*)\\s*;",
      Pattern.MULTILINE);
  private static final Pattern QUALIFIED = Pattern.compile("\\bdev\\.cuckoo(?:\\.[a-z]\\w*)*\\.([A-Z]\\w*)");
  private static final Pattern COMMENTS = Pattern.compile("/\\*.*?\\*/|//[^\\n]*|\"(?:\\\\.|[^\"\\\\])*\"",
      Pattern.DOTALL);

  @Test
  void theApiModuleHasNoImportCircle() throws IOException {
    Map<String, Path> files = new TreeMap<>(); // fully qualified top-level type -> file
    try (Stream<Path> walk = Files.walk(SOURCES)) {
      walk.filter(p -> p.toString().endsWith(".java") && !p.getFileName().toString().contains("-"))
          .forEach(p -> files.put(typeOf(p), p));
    }
    assertTrue(files.size() > 20, "the api sources are where the test looks: " + SOURCES.toAbsolutePath());
    Map<String, Set<String>> uses = new HashMap<>();
    for (Map.Entry<String, Path> e : files.entrySet()) {
      uses.put(e.getKey(), usedTypes(e.getKey(), Files.readString(e.getValue()), files.keySet()));
    }
    List<List<String>> acrossPackages = new ArrayList<>();
    for (List<String> circle : circles(uses)) {
      Set<String> packages = new TreeSet<>();
      for (String type : circle) {
        packages.add(type.substring(0, type.lastIndexOf('.')));
      }
      if (packages.size() > 1) {
        acrossPackages.add(circle);
      }
    }
    assertEquals(List.of(), acrossPackages, "import circles across the api module's packages");
  }

  private static String typeOf(Path file) {
    String relative = SOURCES.relativize(file).toString();
    return relative.substring(0, relative.length() - ".java".length()).replace('/', '.');
  }

  /** @return the module's types this file uses: imported, written in full, or of its package named in code */
  private static Set<String> usedTypes(String self, String source, Set<String> types) {
    Set<String> used = new TreeSet<>();
    Matcher imports = IMPORT.matcher(source);
    while (imports.find()) {
      String name = imports.group(1);
      // an import of a nested type or a static member names its top-level type's file
      while (!types.contains(name) && name.lastIndexOf('.') > 0) {
        name = name.substring(0, name.lastIndexOf('.'));
      }
      used.add(name);
    }
    String code = COMMENTS.matcher(source).replaceAll(" ");
    Matcher qualified = QUALIFIED.matcher(code);
    while (qualified.find()) {
      String name = qualified.group();
      if (types.contains(name)) {
        used.add(name);
      }
    }
    String pkg = self.substring(0, self.lastIndexOf('.'));
    for (String type : types) {
      String simple = type.substring(type.lastIndexOf('.') + 1);
      if (type.startsWith(pkg + ".") && type.lastIndexOf('.') == pkg.length()
          && Pattern.compile("\\b" + simple + "\\b").matcher(code).find()) {
        used.add(type);
      }
    }
    used.remove(self);
    used.retainAll(types);
    return used;
  }

  /** @return the strongly connected sets of more than one file (Tarjan), each sorted */
  private static List<List<String>> circles(Map<String, Set<String>> graph) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new TreeSet<>();
    List<List<String>> found = new ArrayList<>();
    int[] counter = {0};
    for (String v : new TreeSet<>(graph.keySet())) {
      if (!index.containsKey(v)) {
        connect(v, graph, index, low, stack, onStack, found, counter);
      }
    }
    return found;
  }

  private static void connect(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
      Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<List<String>> found, int[] counter) {
    index.put(v, counter[0]);
    low.put(v, counter[0]++);
    stack.push(v);
    onStack.add(v);
    for (String w : graph.getOrDefault(v, Set.of())) {
      if (!index.containsKey(w)) {
        connect(w, graph, index, low, stack, onStack, found, counter);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.contains(w)) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      List<String> component = new ArrayList<>();
      String w;
      do {
        w = stack.pop();
        onStack.remove(w);
        component.add(w);
      } while (!w.equals(v));
      if (component.size() > 1) {
        component.sort(null);
        found.add(component);
      }
    }
  }
}
