package dev.cuckoo.classic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.engine.TableFilter;
import dev.cuckoo.testkit.HugeFilters;
import dev.cuckoo.testkit.TestSeed;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Filters of more than 2^31 slots store and find keys in their highest buckets, whose bit
 * offsets need 35 bits: no index is an int along the way. Run with {@code ./mvnw -B verify
 * -Phuge}; the 4-bit table takes 1.07 GB, the 8-bit one 2.15 GB (one at a time).
 */
@Tag("huge")
class HugeTableTest {
  private static final long SLOTS_ABOVE = 1L << 31;

  @ParameterizedTest(name = "{0}-bit fingerprints")
  @ValueSource(ints = {4, 8})
  void keysInTheHighestBucketsAreStoredFoundWrittenAndRead(int bits, @TempDir Path dir) throws IOException {
    // Capacity for a table just over 2^31 slots of buckets of 4.
    long capacity = 2_000_000_000L;
    TableFilter f = (TableFilter) CuckooFilters.create(
        "classic?capacity=" + capacity + "&fingerprintBits=" + bits + "&bucketSize=4");
    BucketTable table = (BucketTable) f.table();
    long slots = table.bucketCount() * table.slots;
    assertTrue(slots > SLOTS_ABOVE, slots + " slots");
    assertEquals(bits == 8 ? ByteBucketTable.class : PackedBucketTable.class, table.getClass());

    // Keys whose first bucket is among the last 4,096: found by hashing random keys.
    SplittableRandom r = TestSeed.random("keys in the highest buckets, f=" + bits);
    long top = table.bucketCount() - 4_096;
    List<List<Long>> keys = HugeFilters.highAndLowKeys(f, table::bucketIndex, top, r);
    // The slots past 2^31 really hold them: the last buckets are occupied.
    HugeFilters.addAndFind(f, keys, table::occupied, top, table.bucketCount());
    assertTrue(table.slotOffset(top, 0) / bits > SLOTS_ABOVE);

    // Round trip through a file: the payload's table has more than 2^31 slots too.
    Path file = HugeFilters.write(f, dir);
    f = null;
    table = null;
    HugeFilters.readAndCheck(file, keys, r);
  }
}
