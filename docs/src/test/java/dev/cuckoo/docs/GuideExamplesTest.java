package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The guide shows no code that is not compiled and run: every {@code java} block in the guide's
 * Markdown is preceded by {@code <!-- example: Class#region -->} and must equal, line for line,
 * the region {@code // tag::region[]} .. {@code // end::region[]} of that class under {@code
 * src/test/java/dev/cuckoo/docs/examples/}, where it runs as a test.
 */
class GuideExamplesTest {
  private static final Path MODULE = Paths.get("").toAbsolutePath();
  private static final Path EXAMPLES = MODULE.resolve("src/test/java/dev/cuckoo/docs/examples");
  private static final Pattern MARKER = Pattern.compile("<!-- example: ([A-Za-z0-9]+)#([a-z0-9-]+) -->");
  private static final Pattern TAG = Pattern.compile("^\\s*// (tag|end)::([a-z0-9-]+)\\[]\\s*$");

  /** A code block of the guide and where it is. */
  record Block(Path file, int line, String example, String region, String code) {}

  static List<Path> guidePages() throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(MODULE.resolve("README.md"));
    try (Stream<Path> s = Files.walk(MODULE.resolve("guide"))) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  static List<Block> blocks(Path page) throws IOException {
    List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).startsWith("```java")) {
        continue;
      }
      int start = i;
      StringBuilder code = new StringBuilder();
      for (i++; i < lines.size() && !lines.get(i).startsWith("```"); i++) {
        code.append(lines.get(i)).append('\n');
      }
      Matcher m = start > 0 ? MARKER.matcher(lines.get(start - 1).trim()) : null;
      if (m == null || !m.matches()) {
        fail(MODULE.relativize(page) + ":" + (start + 1) + ": a java block without an <!-- example: Class#region --> line above it");
      }
      blocks.add(new Block(page, start + 1, m.group(1), m.group(2), code.toString()));
    }
    return blocks;
  }

  /** @return the regions of an example class, dedented */
  static Map<String, String> regions(String example) throws IOException {
    Path source = EXAMPLES.resolve(example + ".java");
    assertTrue(Files.exists(source), "no example source " + MODULE.relativize(source));
    Map<String, String> regions = new LinkedHashMap<>();
    Map<String, List<String>> open = new LinkedHashMap<>();
    for (String line : Files.readAllLines(source, StandardCharsets.UTF_8)) {
      Matcher m = TAG.matcher(line);
      if (m.matches()) {
        if (m.group(1).equals("tag")) {
          open.put(m.group(2), new ArrayList<>());
        } else {
          regions.put(m.group(2), dedent(open.remove(m.group(2))));
        }
        continue;
      }
      open.values().forEach(l -> l.add(line));
    }
    assertTrue(open.isEmpty(), example + ": unclosed regions " + open.keySet());
    return regions;
  }

  private static String dedent(List<String> lines) {
    int indent = lines.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
    return lines.stream().map(l -> l.isBlank() ? "" : l.substring(indent)).collect(Collectors.joining("\n", "", "\n"));
  }

  @Test
  void everyJavaBlockIsAnExampleThatRuns() throws IOException {
    int checked = 0;
    for (Path page : guidePages()) {
      for (Block b : blocks(page)) {
        Map<String, String> regions = regions(b.example());
        String where = MODULE.relativize(b.file()) + ":" + b.line() + " (" + b.example() + "#" + b.region() + ")";
        assertTrue(regions.containsKey(b.region()), where + ": no such region; regions: " + regions.keySet());
        assertEquals(regions.get(b.region()), b.code(), where + ": the guide and the example source disagree");
        checked++;
      }
    }
    assertTrue(checked > 0, "no examples found in the guide");
  }

  @Test
  void everyExampleRegionIsShownSomewhere() throws IOException {
    List<String> shown = new ArrayList<>();
    for (Path page : guidePages()) {
      blocks(page).forEach(b -> shown.add(b.example() + "#" + b.region()));
    }
    try (Stream<Path> s = Files.list(EXAMPLES)) {
      for (Path source : s.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
        String example = source.getFileName().toString().replace(".java", "");
        for (String region : regions(example).keySet()) {
          assertTrue(shown.contains(example + "#" + region), example + "#" + region + " is in no guide page");
        }
      }
    }
    assertFalse(shown.isEmpty());
  }
}
