package dev.cuckoo.docs.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OperationsExample {

  @Test
  void duplicatesAndCount() {
    // tag::duplicates[]
    CuckooFilter f = CuckooFilters.create("classic?capacity=1000");
    f.add("job-17");
    f.add("job-17");
    f.count("job-17");     // 2: copies of its fingerprint, an upper bound on its multiplicity
    f.remove("job-17");    // one copy goes
    f.mightContain("job-17"); // still true
    // end::duplicates[]
    assertEquals(1, f.count("job-17"));
    assertTrue(f.mightContain("job-17"));
  }

  @Test
  void addIfAbsent() {
    // tag::add-if-absent[]
    CuckooFilter f = CuckooFilters.create("classic?capacity=1000");
    f.addIfAbsent("job-17");   // true: stored
    f.addIfAbsent("job-17");   // false: already there, nothing stored
    // end::add-if-absent[]
    assertEquals(1, f.size());
  }

  @Test
  void aRefusedAdd() {
    // tag::refused[]
    CuckooFilter f = CuckooFilters.create("classic?capacity=1000&bucketSize=4");
    long stored = 0;
    for (long key = 0; f.add(key); key++) {  // add until the first refusal
      stored++;
    }
    // stored >= 1000: a filter takes its capacity; past that, add may return false,
    // and then every key stored before is still found.
    // end::refused[]
    assertTrue(stored >= 1000);
    for (long key = 0; key < stored; key++) {
      assertTrue(f.mightContain(key));
    }
    assertEquals(stored, f.size());
  }

  @Test
  void filesOnDisk(@TempDir Path dir) throws IOException {
    CuckooFilter filter = CuckooFilters.create("classic?capacity=1000");
    filter.add("alice");
    Path path = dir.resolve("users.cuckoo");
    // tag::files[]
    try (OutputStream out = Files.newOutputStream(path)) {
      filter.writeTo(out);
    }
    CuckooFilter back;
    try (InputStream in = Files.newInputStream(path)) {
      back = CuckooFilters.read(in);   // any installed variant; CorruptFilterException if damaged
    }
    // end::files[]
    assertTrue(back.mightContain("alice"));
    assertFalse(back.mightContain("bob") && back.mightContain("carol") && back.mightContain("dave"));
  }

  @Test
  void concurrentUse() throws InterruptedException {
    // tag::concurrent[]
    CuckooFilter shared = CuckooFilters.create("classic?capacity=1000000&concurrency=threadsafe");
    Thread loader = new Thread(() -> {
      for (long key = 0; key < 100_000; key++) {
        shared.add(key);
      }
    });
    loader.start();
    boolean seen = shared.mightContain(42L);  // safe while the loader writes; takes no lock
    loader.join();
    shared.size();                            // 100000: exact once the writers are done
    // end::concurrent[]
    assertEquals(100_000, shared.size());
    assertTrue(shared.mightContain(42L) || !seen);
  }
}
