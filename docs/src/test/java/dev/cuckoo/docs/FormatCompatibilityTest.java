package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files written by an earlier release still read, with every key they hold: the files under
 * {@code files-0.1.0} were written by 0.1.0 (their README says how).
 */
class FormatCompatibilityTest {

  static Stream<String> files0_1_0() throws IOException, URISyntaxException {
    try (Stream<Path> files = Files.list(folder("files-0.1.0"))) {
      return files.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".cuckoo"))
          .map(n -> n.substring(0, n.length() - ".cuckoo".length()))
          .sorted()
          .toList()
          .stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("files0_1_0")
  void filesOf0_1_0ReadWithEveryKey(String name) throws IOException, URISyntaxException {
    Path dir = folder("files-0.1.0");
    List<String> keys = Files.readAllLines(dir.resolve(name + ".keys"), StandardCharsets.UTF_8);
    CuckooFilter f;
    try (InputStream in = Files.newInputStream(dir.resolve(name + ".cuckoo"))) {
      f = CuckooFilters.read(in);
      assertEquals(-1, in.read(), name + ": bytes left after the filter");
    }
    assertTrue(name.startsWith(f.spec().variant()), name + " read as " + f.spec());
    assertEquals(keys.size(), f.size(), name + ": size");
    for (String key : keys) {
      if (!f.mightContain(key)) {
        fail(name + ": key " + key + " not found after reading the 0.1.0 file");
      }
    }
    // Written again and read back, it keeps its table (sized as 0.1.0 sized it) and every key.
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    f.writeTo(again);
    CuckooFilter back = CuckooFilters.read(new ByteArrayInputStream(again.toByteArray()));
    assertEquals(f.sizeInBytes(), back.sizeInBytes(), name + ": memory after writing it again");
    assertEquals(f.size(), back.size(), name + ": size after writing it again");
    for (String key : keys) {
      if (!back.mightContain(key)) {
        fail(name + ": key " + key + " not found after writing the 0.1.0 filter again");
      }
    }
  }

  private static Path folder(String name) throws URISyntaxException {
    return Paths.get(FormatCompatibilityTest.class.getResource(name).toURI());
  }
}
