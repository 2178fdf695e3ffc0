package dev.cuckoo.docs.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MappedExample {
  @TempDir Path dir;

  @Test
  void buildAndOpen() throws IOException {
    List<String> urls = List.of("https://example.com/", "https://example.org/a");
    Path file = dir.resolve("urls.cuckoo");
    // tag::build-open[]
    // Build once, into a file: the table is the file, not the heap
    try (MappedFilter f = CuckooFilters.createFile("classic?capacity=200000&fingerprintBits=12", file)) {
      for (String url : urls) {
        f.add(url);
      }
    }                                          // close() forces, then closes

    // Open it read-only, in any number of processes: milliseconds at any size
    try (MappedFilter f = CuckooFilters.open(file)) {
      f.mightContain("https://example.com/");  // true
    }
    // end::build-open[]
    try (MappedFilter f = CuckooFilters.open(file)) {
      assertTrue(f.mightContain("https://example.com/"));
      assertEquals(2, f.size());
    }
  }

  @Test
  void convertThenOpen() throws IOException {
    Path old = dir.resolve("old.cuckoo"); // a file 0.1.0 wrote: format version 1
    try (java.io.InputStream in = MappedExample.class.getResourceAsStream("/dev/cuckoo/docs/files-0.1.0/classic-16.cuckoo")) {
      Files.copy(in, old);
    }
    Path converted = dir.resolve("new.cuckoo");
    // tag::convert[]
    int version = CuckooFilters.convert(old, converted);   // 3: the table streams into a file that maps
    try (MappedFilter f = CuckooFilters.open(converted)) {
      f.mightContain("alice");
    }
    // end::convert[]
    assertEquals(3, version);
    try (MappedFilter f = CuckooFilters.open(converted)) {
      assertEquals(2250, f.size());
      f.verify();
    }
  }

  @Test
  void writeThenOpen() throws IOException {
    Path file = dir.resolve("heap.cuckoo");
    // tag::write-open[]
    CuckooFilter heap = CuckooFilters.create("classic?capacity=1000000");
    heap.add("alice");
    try (OutputStream out = Files.newOutputStream(file)) {
      heap.writeTo(out);                       // format version 3: the table is aligned
    }
    try (MappedFilter mapped = CuckooFilters.open(file)) {
      mapped.mightContain("alice");            // true: it answers as the heap filter does
      mapped.verify();                         // the pass over the whole file that open skips
    }
    // end::write-open[]
    try (MappedFilter mapped = CuckooFilters.open(file)) {
      assertTrue(mapped.mightContain("alice"));
    }
  }

  @Test
  void mergeAgain() throws IOException {
    Path file = dir.resolve("merged.cuckoo");
    CuckooFilter source = CuckooFilters.create("classic?capacity=1000000");
    source.add("from the source");
    try (MappedFilter f = CuckooFilters.createFile("classic?capacity=1000000", file)) {
      f.add("in the file");
      f.addAll(source);
    }
    // tag::merge-again[]
    try (MappedFilter f = CuckooFilters.openWritable(file)) {   // recovers a file whose writer died
      if (f.unfinishedMerge().isPresent()) {
        f.addAll(source);                     // the same filter: finishes the merge the writer began
      }
    }
    // end::merge-again[]
    try (MappedFilter f = CuckooFilters.open(file)) {
      assertTrue(f.mightContain("in the file") && f.mightContain("from the source"));
      assertTrue(f.size() == 2, "merged once");
    }
  }

  @Test
  void forceAndCrash() throws IOException {
    Path file = dir.resolve("log.cuckoo");
    // tag::force[]
    MappedFilter f = CuckooFilters.createFile("classic?capacity=1000000", file);
    f.add("a");
    f.force();                                 // "a" survives any crash from here
    f.add("b");                                // "b" survives the process's death (durability=process)
    // ... the process dies here, before the next force() or close() ...
    // end::force[]
    // This process cannot die and go on testing: its writer is alive, and a reader is told so.
    IOException live = assertThrows(IOException.class, () -> CuckooFilters.open(file));
    assertTrue(live.getMessage().contains("a writer that has it open now"), live.getMessage());
    f.close();
    // tag::force-recover[]
    MappedFilter g = CuckooFilters.open(file); // recovers the file: "a" and "b" are there
    g.recovery().ifPresent(r -> System.err.println(r.description())); // what the open did, if anything
    // end::force-recover[]
    try (g) {
      assertTrue(g.mightContain("a") && g.mightContain("b"));
    }
  }
}
