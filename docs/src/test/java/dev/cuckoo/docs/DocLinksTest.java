package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A reader never follows a dead link: every relative link and image in the guide, the results
 * page and the repository's README files names a file that is in the repository.
 */
class DocLinksTest {
  private static final Path MODULE = Paths.get("").toAbsolutePath();
  private static final Path ROOT = MODULE.getParent();
  // [text](target) and ![alt](target); the target ends at whitespace or ')'.
  private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*]\\(([^)\\s]+)[^)]*\\)");

  static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>();
    try (Stream<Path> s = Files.walk(MODULE, 2)) {
      s.filter(p -> p.toString().endsWith(".md") && !p.startsWith(MODULE.resolve("target")))
          .sorted()
          .forEach(pages::add);
    }
    try (Stream<Path> s = Files.list(ROOT)) {
      s.filter(Files::isDirectory).map(d -> d.resolve("README.md")).filter(Files::exists)
          .sorted().forEach(pages::add);
    }
    pages.add(ROOT.resolve("README.md"));
    return pages;
  }

  @Test
  void everyRelativeLinkResolves() throws IOException {
    List<String> dead = new ArrayList<>();
    int links = 0;
    for (Path page : pages()) {
      String text = Files.readString(page, StandardCharsets.UTF_8);
      Matcher m = LINK.matcher(text);
      while (m.find()) {
        String target = m.group(1);
        if (target.startsWith("http:") || target.startsWith("https:")
            || target.startsWith("mailto:") || target.startsWith("#")) {
          continue;
        }
        links++;
        String file = target.replaceFirst("#.*$", "");
        if (!Files.exists(page.getParent().resolve(file).normalize())) {
          dead.add(ROOT.relativize(page) + ": " + target);
        }
      }
    }
    assertFalse(links == 0, "found no links at all: the page list is wrong");
    assertEquals(List.of(), dead, "links to files that do not exist");
  }
}
