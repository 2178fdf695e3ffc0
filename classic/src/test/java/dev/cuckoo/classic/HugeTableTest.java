package dev.cuckoo.classic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
    ClassicFilter f = (ClassicFilter) CuckooFilters.create(
        "classic?capacity=" + capacity + "&fingerprintBits=" + bits + "&bucketSize=4");
    BucketTable table = f.table();
    long slots = table.bucketCount * table.slots;
    assertTrue(slots > SLOTS_ABOVE, slots + " slots");
    assertEquals(bits == 8 ? ByteBucketTable.class : PackedBucketTable.class, table.getClass());

    // Keys whose first bucket is among the last 4,096: found by hashing random keys.
    SplittableRandom r = new SplittableRandom(bits);
    long top = table.bucketCount - 4_096;
    List<Long> high = new ArrayList<>();
    List<Long> low = new ArrayList<>();
    while (high.size() < 2_000) {
      long key = r.nextLong();
      long bucket = table.bucketIndex(f.spec().hashStrategy().hashLong(key));
      if (bucket >= top) {
        high.add(key);
      } else if (low.size() < 2_000) {
        low.add(key);
      }
    }
    for (long key : high) {
      assertTrue(f.add(key), "add of a key in a high bucket");
    }
    for (long key : low) {
      assertTrue(f.add(key));
    }
    assertEquals(4_000, f.size());
    for (long key : high) {
      assertTrue(f.mightContain(key), "key " + key + " in a high bucket not found");
      assertTrue(f.count(key) >= 1);
    }
    // The slots past 2^31 really hold them: the last bucket is occupied.
    long occupied = 0;
    for (long b = top; b < table.bucketCount; b++) {
      occupied += table.occupied(b);
    }
    assertTrue(occupied >= 1_900, occupied + " fingerprints in the last 4,096 buckets");
    assertTrue(table.slotOffset(top, 0) / bits > SLOTS_ABOVE);

    // Round trip through a file: the payload's table has more than 2^31 slots too.
    Path file = dir.resolve("huge.ckf");
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
      f.writeTo(out);
    }
    f = null;
    table = null;
    CuckooFilter g;
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 20)) {
      g = CuckooFilters.read(in);
    }
    assertEquals(4_000, g.size());
    for (long key : high) {
      assertTrue(g.mightContain(key), "key " + key + " lost by write/read");
    }
    for (int i = 0; i < high.size(); i += 2) {
      assertTrue(g.remove(high.get(i)));
    }
    for (int i = 1; i < high.size(); i += 2) {
      assertTrue(g.mightContain(high.get(i)));
    }
    assertFalse(g.mightContain(r.nextLong()) && g.mightContain(r.nextLong()) && g.mightContain(r.nextLong()));
  }
}
