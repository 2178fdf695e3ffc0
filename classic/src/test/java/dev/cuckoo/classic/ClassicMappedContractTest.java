package dev.cuckoo.classic;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;

/**
 * The contract test kit over tables mapped from files ({@link CuckooFilters#createFile}): the
 * same table classes as on the heap, over the other storage, for a shape of each table class
 * (8-bit and 16-bit buckets of 4, packed slots that cross words, buckets of 1 and 8), striped,
 * and split into shards.
 */
class ClassicMappedContractTest extends ClassicContractTest {
  private final Path dir;
  private final List<MappedFilter> open = new ArrayList<>();
  private int files;

  ClassicMappedContractTest() throws IOException {
    this.dir = Files.createTempDirectory("classic-mapped-contract");
  }

  @Override
  protected List<String> configs() {
    return List.of(
        "classic?capacity=4499&fingerprintBits=8",
        "classic?capacity=6000&fingerprintBits=16",
        "classic?capacity=2998&fingerprintBits=13&bucketSize=2",
        "classic?capacity=1500&fingerprintBits=12&bucketSize=8&maxKicks=20",
        "classic?capacity=5997&fingerprintBits=7&bucketSize=1",
        "classic?capacity=6000&fingerprintBits=16&concurrency=striped",
        "classic?capacity=4499&fingerprintBits=13&bucketSize=2&shards=7",
        "classic?capacity=5000&fingerprintBits=8&shards=7&concurrency=striped");
  }

  @Override
  protected CuckooFilter newFilter(String config) {
    try {
      MappedFilter f = CuckooFilters.createFile(config, dir.resolve("f" + files++ + ".cuckoo"));
      open.add(f);
      return f;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @AfterEach
  void closeFiles() throws IOException {
    for (MappedFilter f : open) {
      f.close();
    }
    open.clear();
  }

  @AfterAll
  void removeFiles() throws IOException {
    try (var files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Files.delete(p);
      }
    }
    Files.delete(dir);
  }
}
