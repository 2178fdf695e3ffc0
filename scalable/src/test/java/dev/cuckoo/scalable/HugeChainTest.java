package dev.cuckoo.scalable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.scalable.RedisBloomDump.Chunk;
import dev.cuckoo.testkit.HugeFilters;
import dev.cuckoo.testkit.TestSeed;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chain of more than 2^31 slots, whose newest sub-filter has 2^32 buckets (bucket indexes
 * past any int, its table paged over four 1 GiB arrays), stores and finds keys in its highest
 * buckets, dumps them at the right RedisBloom iterator, and keeps them through a file. The
 * first sub-filter of a chain cannot be that large (CF.RESERVE allows at most 2^30 slots), so
 * the chain is built as a grown one would be: a first sub-filter of 2^28 buckets of 1 and a
 * second 16 times larger. Run with {@code ./mvnw -B verify -Phuge}; it holds 4.25 GB (one
 * chain at a time).
 */
@Tag("huge")
class HugeChainTest {

  @Test
  void keysInTheHighestBucketsOfA4GiBSubFilterAreStoredFoundDumpedWrittenAndRead(@TempDir Path dir) throws IOException {
    SplittableRandom r = TestSeed.random("keys in the highest buckets of a 4 GiB sub-filter");
    Path[] file = new Path[1];
    List<List<Long>> keys = addFindDumpAndWrite(dir, r, file);
    // Only the file is left of the first chain: reading it holds one chain at a time.
    HugeFilters.readAndCheck(file[0], keys, r);
  }

  private static List<List<Long>> addFindDumpAndWrite(Path dir, SplittableRandom r, Path[] file) throws IOException {
    FilterSpec spec = new ScalableProvider().validate(CuckooFilters.create("scalable?capacity=8").spec().toBuilder()
        .capacity(1L << 28).bucketSize(1).option(ScalableProvider.EXPANSION, "16").build());
    DumpHeader header = new DumpHeader(0, 1L << 28, 0, 2, 1, spec.maxKicks().getAsInt(), 16);
    ScalableCuckooFilter f = new ScalableCuckooFilter(spec, ChainDump.shapedAs(header, SubFilterChain.DEFAULT_MAX_PAGE_BYTES));
    SubFilter newest = f.chain().subFilter(1);
    long buckets = newest.numBuckets();
    assertEquals(1L << 32, buckets);
    assertEquals(4, newest.pageCount());
    assertTrue(f.slots() > 1L << 32, f.slots() + " slots");

    // Inserts try the newest sub-filter first: keys whose first bucket there is among the last
    // 2^20 (all past 2^32 - 2^20 > 2^31) land in its last page.
    long top = buckets - (1 << 20);
    List<List<Long>> keys = HugeFilters.highAndLowKeys(f, h -> h & (buckets - 1), top, r);
    HugeFilters.addAndFind(f, keys, b -> newest.fingerprintAt(b, 0) != 0 ? 1 : 0, top, buckets);

    // CF.SCANDUMP of the last bytes: iterator 1 + the offset past them, counted over both
    // sub-filters (2^28 + 2^32 bytes).
    long end = f.chain().subFilter(0).bytes() + newest.bytes();
    Chunk last = RedisBloomDump.scanDump(f, end - 4096 + 1);
    assertEquals(end + 1, last.iterator());
    byte[] expected = new byte[4096];
    newest.copyOut(newest.bytes() - 4096, expected, 0, 4096);
    assertArrayEquals(expected, last.data());
    assertTrue(java.util.stream.IntStream.range(0, 4096).anyMatch(i -> expected[i] != 0), "the last 4096 buckets are empty");

    file[0] = HugeFilters.write(f, dir);
    return keys;
  }
}
