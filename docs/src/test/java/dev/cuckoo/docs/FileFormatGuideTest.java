package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.HashStrategy;
import dev.cuckoo.spi.HashStrategyProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HexFormat;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code guide/file-format.md} read as a spec by someone writing a reader: every hash the library
 * installs is defined there, with vectors that are the library's own output (its {@link
 * GeneratedSection} must equal {@link #hashVectors()}); its example of a spec string
 * is what a file records; the layout 3 table section defines the table's bits itself.
 */
class FileFormatGuideTest {
  static final Path PAGE = Paths.get("guide/file-format.md");
  /** The seeds of the vectors: 0, and a negative seed, used as its two's-complement 64 bits. */
  static final long[] SEEDS = {0, -3};
  /** The probe keys of the hash check, as the guide's envelope section lists them. */
  static final byte[][] PROBE_KEYS = {
    {}, HexFormat.of().parseHex("0123456789abcdef"), "cuckoo".getBytes(StandardCharsets.US_ASCII), probe100(),
  };

  private static byte[] probe100() {
    byte[] key = new byte[100];
    for (int i = 0; i < key.length; i++) {
      key[i] = (byte) i;
    }
    return key;
  }

  /** The hashes this library installs, from the {@code hashing} module: not the examples' own. */
  static Set<String> libraryHashes() {
    Set<String> names = new TreeSet<>();
    for (HashStrategyProvider p : ServiceLoader.load(HashStrategyProvider.class)) {
      if (p.getClass().getPackageName().equals("dev.cuckoo.hashing")) {
        names.add(p.name());
      }
    }
    return names;
  }

  static String hashVectors() {
    StringBuilder sb = new StringBuilder("\n| `hash` | `seed` | empty key | `01 23 … EF` | `cuckoo` | `00 01 … 63` |\n");
    sb.append("|---|---|---|---|---|---|\n");
    for (String name : libraryHashes()) {
      for (long seed : SEEDS) {
        sb.append("| `").append(name).append("` | ").append(seed).append(" |");
        HashStrategy hash = dev.cuckoo.CuckooFilters.hashOf(FilterSpec.builder("classic").hash(name).seed(seed).build());
        for (byte[] key : PROBE_KEYS) {
          sb.append(" `").append(String.format("%016x", hash.hashBytes(key, 0, key.length))).append("` |");
        }
        sb.append('\n');
      }
    }
    return sb.append('\n').toString();
  }

  private static String page() throws IOException {
    return Files.readString(PAGE, StandardCharsets.UTF_8);
  }

  @Test
  void theHashVectorsAreTheLibrarysOwnOutput() throws IOException {
    GeneratedSection.assertCurrent(PAGE, "hash-vectors", FileFormatGuideTest.class, hashVectors());
  }

  @Test
  void everyHashTheLibraryInstallsIsDefined() throws IOException {
    String text = page();
    int hashes = text.indexOf("\n## Hashes\n");
    assertTrue(hashes >= 0, PAGE + " has no section Hashes");
    String section = text.substring(hashes, text.indexOf("\n## ", hashes + 1));
    Set<String> defined = new TreeSet<>();
    Matcher row = Pattern.compile("\n\\| `([a-z0-9]+)`[^|]*\\| ([^|]+) \\|").matcher(
        section.substring(0, section.indexOf(GeneratedSection.begin("hash-vectors", FileFormatGuideTest.class))));
    while (row.find()) {
      assertTrue(row.group(2).length() > 20, "hash " + row.group(1) + " is not defined: " + row.group(2));
      defined.add(row.group(1));
    }
    assertEquals(libraryHashes(), defined, "the hashes the guide's Hashes table defines");
  }

  @Test
  void theSpecStringExampleIsWhatAFileRecords() throws IOException {
    Matcher example = Pattern.compile("A filter created with\\s+`([^`]+)` records:\n\n    (\\S+)\n").matcher(page());
    assertTrue(example.find(), PAGE + " lacks its example of a spec string");
    assertEquals(example.group(2), CuckooFilters.create(example.group(1)).spec().toString());
  }

  @Test
  void theLayout3SectionDefinesTheTableItself() throws IOException {
    String text = page();
    int layout3 = text.indexOf("In a version 3 file, layout 3");
    int layout2 = text.indexOf("In a version 2 file, layout 2");
    assertTrue(layout3 >= 0 && layout2 > layout3, PAGE + ": layout 3 is not described before layout 2");
    String section = text.substring(layout3, layout2);
    for (String needed : new String[] {"big-endian", "bit `i mod 64`", "Slot `s` of bucket `k`",
        "`[(k·b + s)·f, (k·b + s + 1)·f)`", "0 is an empty slot"}) {
      assertTrue(section.contains(needed), "the layout 3 section does not say " + needed);
    }
  }
}
