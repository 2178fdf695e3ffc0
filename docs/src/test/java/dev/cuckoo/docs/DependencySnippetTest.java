package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;

/**
 * The dependency snippets users copy name the version the build makes, so they cannot drift
 * when the version moves: the README has a Maven and a Gradle snippet, and every
 * {@code dev.cuckoo} artifact named with a version in the README or the guide names the root
 * pom's.
 */
class DependencySnippetTest {
  /** A Maven dependency on a cuckoo artifact with a version. */
  private static final Pattern MAVEN = Pattern.compile(
      "<groupId>dev\\.cuckoo</groupId>\\s*<artifactId>(cuckoo-[a-z-]+)</artifactId>\\s*<version>([^<]*)</version>");
  /** Gradle's (or any) {@code group:artifact:version} of a cuckoo artifact. */
  private static final Pattern COORDINATES = Pattern.compile("dev\\.cuckoo:(cuckoo-[a-z-]+):([^\"'\\s)]+)");

  @Test
  void theReadmeAndTheGuideNameTheRootPomsVersion() throws Exception {
    Path root = Paths.get(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
    String version = XPathFactory.newInstance().newXPath().evaluate("/project/version",
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(root.resolve("pom.xml").toFile()));
    assertFalse(version.isEmpty(), "the root pom's version");

    String readme = Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8);
    assertTrue(MAVEN.matcher(readme).find(), "the README has no Maven snippet with a cuckoo artifact's version");
    assertTrue(COORDINATES.matcher(readme).find(), "the README has no Gradle line with a cuckoo artifact's version");

    List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("docs").resolve("README.md")));
    try (Stream<Path> guide = Files.list(root.resolve("docs").resolve("guide"))) {
      pages.addAll(guide.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList()));
    }
    for (Path page : pages) {
      String text = Files.readString(page, StandardCharsets.UTF_8);
      for (Pattern snippet : List.of(MAVEN, COORDINATES)) {
        Matcher m = snippet.matcher(text);
        while (m.find()) {
          assertEquals(version, m.group(2), root.relativize(page) + " names " + m.group(1) + " at another version"
              + " than the root pom's");
        }
      }
    }
  }
}
