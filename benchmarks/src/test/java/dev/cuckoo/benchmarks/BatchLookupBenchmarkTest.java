package dev.cuckoo.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The loop and the batch answer the same block alike and find every present key; the floor reads
 * the two places its keys name, inside a table of the filter's size.
 */
class BatchLookupBenchmarkTest {
  @Test
  void theLoopAndTheBatchAgree() {
    for (String config : new String[] {"classic?fingerprintBits=16", "classic?fingerprintBits=8", "semi-sorted?fingerprintBits=16"}) {
      agree(config);
    }
  }

  @Test
  void theFloorTableIsAsLargeAsTheFilter() {
    BatchLookupBenchmark b = new BatchLookupBenchmark();
    b.config = "classic?fingerprintBits=16";
    b.size = 20_480;
    b.setUp();
    assertEquals(b.filter.sizeInBytes() / Long.BYTES, b.floorTable.length);
  }

  private static void agree(String config) {
    BatchLookupBenchmark b = new BatchLookupBenchmark();
    b.config = config;
    b.size = 20_480;
    b.setUp();
    for (int block = 0; block < b.blocks.length; block++) {
      b.next = block;
      int loop = b.loop();
      boolean[] first = b.results.clone();
      b.next = block;
      int batch = b.batch();
      assertEquals(loop, batch, config + ", block " + block);
      boolean[] batchResults = b.results.clone();
      b.next = block;
      int floor = b.floor();
      int expected = 0;
      for (int i = 0; i < BatchLookupBenchmark.BLOCK; i++) {
        boolean r = BatchLookupBenchmark.floorRead(b.floorTable, b.floorTable.length, b.blocks[block][i]);
        assertEquals(r, b.results[i], "floor, block " + block + ", key " + i);
        expected += r ? 1 : 0;
      }
      assertEquals(expected, floor, "floor, block " + block);
      b.results = batchResults;
      for (int i = 0; i < BatchLookupBenchmark.BLOCK; i++) {
        assertEquals(first[i], b.results[i], "block " + block + ", key " + i);
        if ((i & 1) == 0) {
          assertTrue(b.results[i], "a present key missed");
        }
      }
    }
  }
}
