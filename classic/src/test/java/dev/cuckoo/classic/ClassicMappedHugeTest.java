package dev.cuckoo.classic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import dev.cuckoo.testkit.MappedFileChild;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An 8-bit classic filter of more than 2^32 slots (a 4 GiB table, more than one mapped segment
 * and more than an {@code int[]} of buckets) built into a file and reopened by JVMs whose heap is
 * 256 MB: the table never touches the heap. The file is sparse, so only the pages the sample of
 * keys reaches take room.
 */
class ClassicMappedHugeTest {
  @TempDir
  Path dir;

  @Test
  void aTablePast2To32SlotsIsBuiltAndReopenedWithA256MbHeap() throws Exception {
    Path file = dir.resolve("huge.cuckoo");
    String config = "classic?capacity=4200000000&fingerprintBits=8&bucketSize=4&hash=murmur64a";
    List<String> small = List.of("-Xmx256m");
    assertEquals(0, MappedFileChild.run(small, "build", config, file.toString(), "20000"));
    assertEquals(0, MappedFileChild.run(small, "query", config, file.toString(), "20000"));
    try (MappedFilter f = CuckooFilters.open(file)) {
      assertTrue(f.slots() > 1L << 32, "slots: " + f.slots());
      assertEquals(20000, f.size());
    }
  }
}
