package dev.cuckoo.semisorted;

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
 * offsets need 34 bits or more: no index is an int along the way. Run with {@code ./mvnw -B
 * verify -Phuge}; the 5-bit table takes 1.07 GB, the 16-bit one 4.03 GB (one at a time).
 */
@Tag("huge")
class HugeTableTest {
  private static final long SLOTS_ABOVE = 1L << 31;

  @ParameterizedTest(name = "{0}-bit fingerprints")
  @ValueSource(ints = {5, 16})
  void keysInTheHighestBucketsAreStoredFoundWrittenAndRead(int bits, @TempDir Path dir) throws IOException {
    // Capacity for a table just over 2^31 slots.
    long capacity = 2_000_000_000L;
    TableFilter f = (TableFilter) CuckooFilters.create(
        "semi-sorted?capacity=" + capacity + "&fingerprintBits=" + bits);
    SemiSortedTable table = (SemiSortedTable) f.table();
    long slots = table.bucketCount() * SemiSortedTable.SLOTS;
    assertTrue(slots > SLOTS_ABOVE, slots + " slots");
    assertEquals(bits == 16 ? Width16Table.class : Width5To7Table.class, table.getClass());

    // Keys whose first bucket is among the last 4,096: found by hashing random keys.
    SplittableRandom r = TestSeed.random("keys in the highest buckets, f=" + bits);
    long top = table.bucketCount() - 4_096;
    List<List<Long>> keys = HugeFilters.highAndLowKeys(f, table::bucketIndex, top, r);
    // The slots past 2^31 really hold them: the last buckets are occupied.
    HugeFilters.addAndFind(f, keys, table::occupied, top, table.bucketCount());
    assertTrue(top * SemiSortedTable.SLOTS > SLOTS_ABOVE, "slots past 2^31");
    assertTrue(table.offset(top) > 1L << 33, "bit offsets past 2^33");

    // Round trip through a file: the payload's table has more than 2^31 slots too.
    Path file = HugeFilters.write(f, dir);
    f = null;
    table = null;
    HugeFilters.readAndCheck(file, keys, r);
  }
}
