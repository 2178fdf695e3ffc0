package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterFileInfo;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.FilterVariant;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The public descriptions the command is built on, instead of the SPI provider and the file
 * envelope's internals: {@link CuckooFilters#variant} tells what a variant is and what a config
 * of it takes, {@link CuckooFilters#describe} what a file's header says, for every variant and
 * for files whose hash is not installed.
 */
class FileAndVariantDescriptionTest {
  @TempDir Path dir;

  @Test
  void aVariantTellsWhatAConfigTakesOnTheHeapAndInAFile() throws IOException {
    FilterVariant classic = CuckooFilters.variant("classic");
    assertEquals("classic", classic.name());
    assertTrue(classic.mapsFiles());
    assertFalse(classic.representativeConfigs().isEmpty());
    FilterSpec spec = FilterSpec.parse("classic?capacity=100000&fingerprintBits=16");
    FilterSpec resolved = classic.resolve(spec);
    assertEquals(CuckooFilters.create(spec).spec(), resolved, "resolved as create resolves it");
    long table = classic.heapBytes(spec).getAsLong();
    long held = CuckooFilters.create(spec).sizeInBytes(); // the table, the stash, a small table of offsets
    assertTrue(table <= held && held - table < 4096, "the table create allocates: " + table + " of " + held);
    Path file = dir.resolve("f.cuckoo");
    try (MappedFilter f = CuckooFilters.createFile(spec.toString(), file)) {
      f.add("a");
    }
    assertEquals(Files.size(file), classic.fileBytes(spec).getAsLong(), "the length createFile makes");

    FilterVariant scalable = CuckooFilters.variant("scalable");
    assertFalse(scalable.mapsFiles());
    assertTrue(scalable.fileBytes(FilterSpec.parse("scalable?capacity=1000")).isEmpty());
    IllegalArgumentException other = assertThrows(IllegalArgumentException.class, () -> scalable.resolve(spec));
    assertTrue(other.getMessage().contains("not scalable"), other.getMessage());
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> CuckooFilters.variant("clasic"));
    assertTrue(missing.getMessage().contains("classic"), missing.getMessage());
    IllegalArgumentException pastAnArray = assertThrows(IllegalArgumentException.class,
        () -> classic.heapBytes(FilterSpec.parse("classic?capacity=20000000000&fingerprintBits=16")));
    assertTrue(pastAnArray.getMessage().contains("createFile"), pastAnArray.getMessage());
  }

  @Test
  void aFileIsDescribedFromItsHeaderWhateverItsVersionAndState() throws IOException {
    CuckooFilter heap = CuckooFilters.create("classic?capacity=1000");
    heap.add("a");
    Path current = write(heap, dir.resolve("c.cuckoo"));
    FilterFileInfo info = CuckooFilters.describe(current);
    assertEquals(3, info.formatVersion());
    assertEquals(3, info.currentFormatVersion());
    assertTrue(info.maps());
    assertEquals("classic", info.variant());
    assertEquals(heap.spec().toString(), info.spec());
    assertEquals(Files.size(current), info.fileBytes());
    assertFalse(info.beingChanged());

    Path old = dir.resolve("old.cuckoo");
    try (InputStream in = FileAndVariantDescriptionTest.class.getResourceAsStream("files-0.1.0/classic-16.cuckoo")) {
      Files.copy(in, old);
    }
    FilterFileInfo oldInfo = CuckooFilters.describe(old);
    assertEquals(1, oldInfo.formatVersion());
    assertEquals(3, oldInfo.currentFormatVersion());
    assertFalse(oldInfo.maps());

    CuckooFilter scalable = CuckooFilters.create("scalable?capacity=1000");
    FilterFileInfo scalableInfo = CuckooFilters.describe(write(scalable, dir.resolve("s.cuckoo")));
    assertEquals(2, scalableInfo.formatVersion());
    assertEquals(2, scalableInfo.currentFormatVersion());
    assertFalse(scalableInfo.maps());

    Path writing = dir.resolve("w.cuckoo");
    try (MappedFilter f = CuckooFilters.createFile("classic?capacity=1000", writing)) {
      f.add("a");
      assertTrue(CuckooFilters.describe(writing).beingChanged(), "marked until its first force");
    }
    assertFalse(CuckooFilters.describe(writing).beingChanged());

    Path notAFilter = Files.writeString(dir.resolve("keys.txt"), "alpha\n");
    CorruptFilterException e = assertThrows(CorruptFilterException.class, () -> CuckooFilters.describe(notAFilter));
    assertTrue(e.getMessage().startsWith(notAFilter.toString()), e.getMessage());
  }

  private static Path write(CuckooFilter f, Path file) throws IOException {
    try (OutputStream out = Files.newOutputStream(file)) {
      f.writeTo(out);
    }
    return file;
  }
}
