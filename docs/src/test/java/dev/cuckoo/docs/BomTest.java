package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The bill of materials has no parent (so that it passes nothing of the build's own to its
 * users), so nothing keeps it in step with the build but this: it must pin every artifact the
 * build publishes (every module but the bom, the benchmarks, the jcstress tests and these
 * docs) at the project's version, and nothing else.
 */
class BomTest {

  @Test
  void theBomPinsEveryPublishedArtifactAtTheProjectsVersion() throws Exception {
    Path root = Paths.get(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
    Element parent = pom(root.resolve("pom.xml"));
    String version = child(parent, "version");
    List<String> published = new ArrayList<>();
    NodeList modules = parent.getElementsByTagName("module");
    for (int i = 0; i < modules.getLength(); i++) {
      String module = modules.item(i).getTextContent().strip();
      if (!List.of("bom", "benchmarks", "jcstress", "docs").contains(module)) {
        published.add(child(pom(root.resolve(module).resolve("pom.xml")), "artifactId"));
      }
    }
    Element bom = pom(root.resolve("bom").resolve("pom.xml"));
    assertEquals(version, child(bom, "version"), "the bom's own version");
    Map<String, String> pinned = new TreeMap<>();
    NodeList dependencies = bom.getElementsByTagName("dependency");
    for (int i = 0; i < dependencies.getLength(); i++) {
      Element d = (Element) dependencies.item(i);
      assertEquals("dev.cuckoo", child(d, "groupId"));
      pinned.put(child(d, "artifactId"), child(d, "version"));
    }
    assertEquals(new java.util.TreeSet<>(published), pinned.keySet(), "the artifacts the bom pins");
    for (Map.Entry<String, String> e : pinned.entrySet()) {
      assertEquals(version, e.getValue(), e.getKey() + "'s version in the bom");
    }
    assertTrue(Files.exists(root.resolve("LICENSE")), "the license the poms name");
  }

  private static Element pom(Path file) throws Exception {
    Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
    return d.getDocumentElement();
  }

  /** @return the text of the element's direct child of that name */
  private static String child(Element e, String name) {
    for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element c && c.getTagName().equals(name)) {
        return c.getTextContent().strip();
      }
    }
    throw new AssertionError(e.getTagName() + " has no " + name);
  }
}
