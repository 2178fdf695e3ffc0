package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CuckooFilters.convert} and {@code open} across the installed variants, as the mapped-file
 * guide tells them: a variant that never maps is refused by {@code open} with the variants that do
 * (converting its file would change nothing), and {@code convert} leaves its file in its current
 * version; 0.1.0's files of the variants that map convert, streaming, to what {@code read} then
 * {@code writeTo} writes.
 */
class ConvertAcrossVariantsTest {
  @TempDir
  Path dir;

  @Test
  void openNamesTheVariantsThatMapForOnesThatDoNot() throws IOException {
    for (String config : new String[] {"scalable?capacity=1000", "expandable?capacity=1000"}) {
      CuckooFilter f = CuckooFilters.create(config);
      f.add("a");
      Path file = write(f, dir.resolve(f.spec().variant() + ".cuckoo"));
      UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> CuckooFilters.open(file));
      assertTrue(e.getMessage().contains("classic") && e.getMessage().contains("semi-sorted"), e.getMessage());
      assertFalse(e.getMessage().contains("convert"), "converting would not change it: " + e.getMessage());

      Path converted = dir.resolve(f.spec().variant() + "-converted.cuckoo");
      assertEquals(2, CuckooFilters.convert(file, converted), config);
      assertEquals(-1, Files.mismatch(file, converted), config + ": left as it was");
      assertThrows(UnsupportedOperationException.class, () -> CuckooFilters.open(converted));
    }
  }

  @Test
  void filesOf0_1_0ConvertStreamingToWhatReadThenWriteToWrites() throws IOException {
    for (String name : new String[] {"classic-16", "classic-12", "classic-8", "classic-7-b2-murmur3",
        "classic-12-striped", "semi-sorted-13", "semi-sorted-16", "scalable"}) {
      Path old = dir.resolve(name + ".cuckoo");
      try (InputStream in = ConvertAcrossVariantsTest.class.getResourceAsStream("files-0.1.0/" + name + ".cuckoo")) {
        Files.copy(in, old);
      }
      CuckooFilter heap;
      try (InputStream in = Files.newInputStream(old)) {
        heap = CuckooFilters.read(in);
      }
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      heap.writeTo(expected);
      Path converted = dir.resolve(name + "-converted.cuckoo");
      int version = CuckooFilters.convert(old, converted);
      assertEquals(name.startsWith("scalable") ? 2 : 3, version, name);
      assertTrue(java.util.Arrays.equals(expected.toByteArray(), Files.readAllBytes(converted)),
          name + ": convert writes what read then writeTo writes");
      if (version == 3) {
        try (MappedFilter mapped = CuckooFilters.open(converted)) {
          assertEquals(heap.size(), mapped.size(), name);
          mapped.verify();
        }
      }
    }
  }

  private static Path write(CuckooFilter f, Path file) throws IOException {
    try (OutputStream out = Files.newOutputStream(file)) {
      f.writeTo(out);
    }
    return file;
  }
}
