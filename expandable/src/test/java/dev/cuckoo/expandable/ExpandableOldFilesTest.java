package dev.cuckoo.expandable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.testkit.Filters;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Files written before lanes could widen (payload layout 1; their README says how) read with
 * every key, keep their one lane width, and go on growing and writing as they did.
 */
class ExpandableOldFilesTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"expandable-16", "expandable-32-b8", "expandable-locked"})
  void aFileWrittenBeforeLanesCouldWidenReadsWithEveryKeyAndGoesOnGrowing(String name)
      throws IOException, URISyntaxException {
    Path dir = Paths.get(ExpandableOldFilesTest.class.getResource("files-before-widening").toURI());
    List<String> keys = Files.readAllLines(dir.resolve(name + ".keys"), StandardCharsets.UTF_8);
    CuckooFilter f;
    try (InputStream in = Files.newInputStream(dir.resolve(name + ".cuckoo"))) {
      f = CuckooFilters.read(in);
      assertEquals(-1, in.read(), name + ": bytes left after the filter");
    }
    assertEquals(keys.size(), f.size(), name);
    assertTrue(f.spec().fingerprintBits().isPresent() && f.spec().targetFpp().isEmpty(), name + ": " + f.spec());
    ExpandableFilter e = (ExpandableFilter) f;
    assertTrue(!e.schedule.isFlat() && e.table.extBits == 0, name + ": lanes of one width");
    int laneBits = e.table.laneBits;
    for (String key : keys) {
      if (!f.mightContain(key)) {
        fail(name + ": key " + key + " not found after reading the file");
      }
    }
    // It grows on, four times its size, in lanes of the same width.
    int k = e.table.k;
    for (int i = 0; i < 4 * keys.size(); i++) {
      assertTrue(f.add("more-" + i), name);
    }
    assertTrue(e.table.k >= k + 2, name + ": grew from 2^" + k + " to 2^" + e.table.k + " buckets");
    assertEquals(laneBits, e.table.laneBits, name);
    CuckooFilter back = Filters.roundTrip(f);
    assertEquals(f.spec(), back.spec(), name);
    assertEquals(5L * keys.size(), back.size(), name);
    for (String key : keys) {
      assertTrue(back.mightContain(key), name + ": " + key + " after growing and writing again");
    }
    for (int i = 0; i < 4 * keys.size(); i++) {
      assertTrue(back.mightContain("more-" + i), name);
    }
  }
}
