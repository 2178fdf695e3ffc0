package dev.cuckoo.classic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import dev.cuckoo.engine.TableFilter;
import dev.cuckoo.testkit.MappedFileChild;
import dev.cuckoo.testkit.SparseFiles;
import dev.cuckoo.testkit.TestSeed;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
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
    List<String> small = List.of("-Xmx256m", "-Dcuckoo.test.sparseFiles=true"); // see SparseFiles
    assertEquals(0, MappedFileChild.run(small, "build", config, file.toString(), "20000"));
    assertEquals(0, MappedFileChild.run(small, "query", config, file.toString(), "20000"));
    try (MappedFilter f = CuckooFilters.open(file)) {
      assertTrue(f.slots() > 1L << 32, "slots: " + f.slots());
      assertEquals(20000, f.size());
    }
  }

  /**
   * An 8-bit classic filter whose table is more than 2^31 words (24 GB, sparse: see {@link
   * SparseFiles}), more than one Java array holds: created in a file, filled with keys whose first
   * buckets lie past word 2^31, among the last buckets and anywhere, forced, closed and reopened
   * read-only; every key is found. The heap never holds the table.
   */
  @Test
  void aTableOfMoreWordsThanAnArrayHoldsIsBuiltInAFileAndReopened() throws Throwable {
    SparseFiles.during(this::pastOneArray);
  }

  private void pastOneArray() throws Exception {
    Path file = dir.resolve("past-one-array.cuckoo");
    String config = "classic?capacity=23000000000&fingerprintBits=8&bucketSize=4";
    SplittableRandom r = TestSeed.random("a table past 2^31 words");
    List<Long> keys = new ArrayList<>();
    try (MappedFilter f = CuckooFilters.createFile(config, file)) {
      BucketTable table = (BucketTable) ((TableFilter) f).table();
      long words = BucketTable.payloadWords(table.bucketCount(), table.slots, table.fingerprintBits());
      assertTrue(words > Integer.MAX_VALUE, words + " words");
      long pastOneArray = (1L << 37) / ((long) table.slots * table.fingerprintBits()); // its bits start past word 2^31
      long last = table.bucketCount() - table.bucketCount() / 1000;
      int past = 0;
      int end = 0;
      int anywhere = 0;
      // Few keys: each first touches a page of the sparse file, which the file system allocates.
      while (past < 300 || end < 30 || anywhere < 300) {
        long key = r.nextLong();
        long bucket = table.bucketIndex(dev.cuckoo.CuckooFilters.hashOf(f.spec()).hashLong(key));
        if (bucket >= last && end < 30) {
          end++;
        } else if (bucket >= pastOneArray && bucket < last && past < 300) {
          past++;
        } else if (anywhere < 300) {
          anywhere++;
        } else {
          continue;
        }
        keys.add(key);
      }
      for (int i = 0; i < keys.size(); i++) {
        long key = keys.get(i);
        assertTrue(f.add(key), () -> "add of key " + key + "; " + TestSeed.rerun());
        if (i == keys.size() / 2) {
          f.force();
        }
      }
    }
    try (MappedFilter g = CuckooFilters.open(file)) {
      assertEquals(keys.size(), g.size(), TestSeed.rerun());
      for (long key : keys) {
        assertTrue(g.mightContain(key), () -> "key " + key + " not found after reopening; " + TestSeed.rerun());
      }
    }    // read puts a table on the heap: a sound file past one array is refused as create refuses it,
    // naming open, not reported as damage.
    try (InputStream in = Files.newInputStream(file)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CuckooFilters.read(in));
      assertTrue(e.getMessage().contains("CuckooFilters.open"), e.getMessage());
    }
  }
}
