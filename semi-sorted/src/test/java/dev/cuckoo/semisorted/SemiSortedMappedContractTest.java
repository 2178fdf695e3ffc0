package dev.cuckoo.semisorted;

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
 * same table classes as on the heap, over the other storage, for each table class (widths 16,
 * 6, 13 and 24), striped, and split into shards.
 */
class SemiSortedMappedContractTest extends SemiSortedContractTest {
  private final Path dir;
  private final List<MappedFilter> open = new ArrayList<>();
  private int files;

  SemiSortedMappedContractTest() throws IOException {
    this.dir = Files.createTempDirectory("semi-sorted-mapped-contract");
  }

  @Override
  protected List<String> configs() {
    return List.of(
        "semi-sorted?capacity=6000&fingerprintBits=16",
        "semi-sorted?capacity=4499&fingerprintBits=6",
        "semi-sorted?capacity=2998&fingerprintBits=13",
        "semi-sorted?capacity=1500&fingerprintBits=24&maxKicks=20",
        "semi-sorted?capacity=2998&fingerprintBits=13&concurrency=striped",
        "semi-sorted?capacity=6000&fingerprintBits=16&shards=4",
        "semi-sorted?capacity=2998&fingerprintBits=16&shards=7&concurrency=striped");
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
