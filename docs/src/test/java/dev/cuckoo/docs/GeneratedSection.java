package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * A section of a guide page that a test renders from the code, so that it cannot drift: between
 * the markers {@code <!-- generated: NAME (TEST) -->} and {@code <!-- end: NAME -->} the page must
 * hold exactly what the test renders. On a mismatch the rendered text is in {@code
 * target/NAME.md}, and the failure names it, so that bringing the page up to date is a copy.
 */
final class GeneratedSection {
  private GeneratedSection() {}

  /** @return the marker that opens the section {@code name}, which {@code test} renders */
  static String begin(String name, Class<?> test) {
    return "<!-- generated: " + name + " (" + test.getSimpleName() + ") -->";
  }

  /**
   * Checks that the page's section {@code name} is {@code rendered}.
   *
   * @param page the guide page
   * @param name the section's name in its markers
   * @param test the test that renders it, named in the opening marker
   * @param rendered what the section must hold, from just after the opening marker
   * @throws IOException if the page cannot be read or the rendering not written
   */
  static void assertCurrent(Path page, String name, Class<?> test, String rendered) throws IOException {
    String text = Files.readString(page, StandardCharsets.UTF_8);
    String begin = begin(name, test);
    int from = text.indexOf(begin);
    int to = text.indexOf("<!-- end: " + name + " -->");
    assertTrue(from >= 0 && to > from, page + " lacks the generated section markers of " + name);
    Path fresh = Paths.get("target", name + ".md");
    Files.writeString(fresh, rendered, StandardCharsets.UTF_8);
    assertEquals(rendered, text.substring(from + begin.length(), to),
        page + " is out of date; replace its generated section with " + fresh.toAbsolutePath());
  }
}
