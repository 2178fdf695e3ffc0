package dev.cuckoo.scalable;

import static dev.cuckoo.scalable.Dumps.MURMUR;
import static dev.cuckoo.scalable.Dumps.chunks;
import static dev.cuckoo.scalable.Dumps.fingerprint;
import static dev.cuckoo.scalable.Dumps.hash;
import static dev.cuckoo.scalable.Dumps.header;
import static dev.cuckoo.scalable.Dumps.keyWhere;
import static dev.cuckoo.scalable.Dumps.table;
import static dev.cuckoo.scalable.Dumps.tables;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.scalable.RedisBloomDump.Chunk;
import dev.cuckoo.testkit.AllocationMeter;
import dev.cuckoo.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** RedisBloom's behaviour, operation by operation, beyond what the conformance vectors show. */
class ScalableCuckooFilterTest {

  static ScalableCuckooFilter create(String config) {
    return (ScalableCuckooFilter) CuckooFilters.create(config);
  }

  // ---------------------------------------------------------------- hashing and layout

  @Test
  void hashesFingerprintsAndBucketsAreRedisBloomOnes() {
    assertEquals(0L, hash(""));
    assertEquals(0x071717d2d36b6b11L, hash("a"));
    assertEquals(0xcdde38358fd25b01L, hash("foo"));
    assertEquals(0x7930a108c52a9032L, hash("item1"));
    assertEquals(217, fingerprint("foo"));
    assertEquals(196, fingerprint("a"));
    assertEquals(7, fingerprint("item1"));

    // The CF.SCANDUMP example on redis.io: CF.RESERVE cf 8, CF.ADD cf item1. (The page shows a
    // 46-byte header, from a release whose header had a trailing pointer; Redis 8 and the
    // vectors have 38 bytes.)
    ScalableCuckooFilter f = create("scalable?capacity=8");
    assertTrue(f.add("item1"));
    assertEquals(new Chunk(1, header(1, 4, 0, 1, 2, 20, 1)), RedisBloomDump.scanDump(f, 0));
    assertEquals(new Chunk(9, new byte[] {0, 0, 0, 0, 7, 0, 0, 0}), RedisBloomDump.scanDump(f, 1));
    assertEquals(new Chunk(0, new byte[0]), RedisBloomDump.scanDump(f, 9));
  }

  @Test
  void defaultsAreThoseOfCfReserve() {
    ScalableCuckooFilter f = create("scalable?capacity=1000");
    assertEquals(
        "scalable?capacity=1000&fingerprintBits=8&bucketSize=2&hash=murmur64a&seed=0&maxKicks=20&concurrency=none&expansion=1",
        f.spec().toString());
    assertEquals(512, f.subFilterBuckets(0));
    assertEquals(1000, f.capacity());
    assertEquals(1024, f.slots());
    assertEquals(1, f.subFilterCount());
    assertEquals(1, f.expansion());
  }

  // ---------------------------------------------------------------- configuration

  @Test
  void configurationIsCheckedAsCfReserveChecksIt() {
    assertRejected("scalable?capacity=3&bucketSize=2", "capacity=3", "scalable", "4..1073741824");
    assertRejected("scalable?capacity=509&bucketSize=255", "capacity=509", "510..1073741824");
    assertEquals(2, create("scalable?capacity=510&bucketSize=255").subFilterBuckets(0));
    assertRejected("scalable?capacity=1073741825", "capacity=1073741825", "2..1073741824");
    FilterSpec max = new ScalableProvider().validate(FilterSpec.parse("scalable?capacity=1073741824"));
    assertEquals(1L << 30, max.capacity().getAsLong());
    assertRejected("scalable?capacity=100&bucketSize=0", "bucketSize=0", "at least 1");
    assertRejected("scalable?capacity=1000&bucketSize=256", "bucketSize=256", "1..255");
    assertRejected("scalable?capacity=100&maxKicks=0", "maxKicks=0", "1..65535");
    assertRejected("scalable?capacity=100&maxKicks=65536", "maxKicks=65536", "1..65535");
    assertEquals(65535, create("scalable?capacity=100&maxKicks=65535").spec().maxKicks().getAsInt());
    assertRejected("scalable?capacity=100&expansion=32769", "expansion=32769", "0..32768");
    assertRejected("scalable?capacity=100&expansion=-1", "expansion=-1", "0..32768");
    assertRejected("scalable?capacity=100&fingerprintBits=16", "fingerprintBits=16", "scalable", "8..8");
    assertRejected("scalable?capacity=100&fingerprintBits=7", "fingerprintBits=7", "8..8");
    assertRejected("scalable?capacity=100&targetFpp=0.001", "targetFpp=0.001", "scalable", "8..8");
    assertEquals(8, create("scalable?capacity=100&targetFpp=0.05").spec().fingerprintBits().getAsInt());
  }

  private static void assertRejected(String config, String... mentions) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CuckooFilters.create(config), config);
    for (String m : mentions) {
      assertTrue(e.getMessage().contains(m), "message for " + config + " lacks '" + m + "': " + e.getMessage());
    }
  }

  @ParameterizedTest(name = "expansion {0} is stored as {1}")
  @CsvSource({"0,0", "1,1", "2,2", "3,4", "5,8", "1000,1024", "16385,32768", "32768,32768"})
  void expansionIsRoundedUpToAPowerOfTwo(int given, int stored) {
    ScalableCuckooFilter f = create("scalable?capacity=100&expansion=" + given);
    assertEquals(Integer.toString(stored), f.spec().option("expansion").orElseThrow());
    assertEquals(stored, f.expansion());
    assertEquals(f.spec(), CuckooFilters.create(f.spec()).spec());
  }

  // ---------------------------------------------------------------- insert and the kick loop

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "scalable?capacity=64&bucketSize=1&expansion=0",
      "scalable?capacity=64&bucketSize=2&expansion=0",
      "scalable?capacity=96&bucketSize=3&maxKicks=7&expansion=0",
      "scalable?capacity=64&bucketSize=4&maxKicks=1&expansion=0",
      "scalable?capacity=64&bucketSize=4&maxKicks=500&expansion=0"})
  void aRefusedAddLeavesEveryByteAsItWas(String config) {
    ScalableCuckooFilter f = create(config);
    int refusals = 0;
    for (long k = 0; refusals < 30; k++) {
      byte[] before = tables(f);
      long size = f.size();
      if (!f.add(k)) {
        refusals++;
        assertArrayEquals(before, tables(f), config + ": refused key " + k + " changed the table");
        assertEquals(size, f.size(), config);
      }
    }
    assertTrue(f.loadFactor() > 0.3, config + ": load " + f.loadFactor());
  }

  @Test
  void aFailedKickLoopAddsASubFilterThatTakesTheKeyInItsFirstBucket() {
    ScalableCuckooFilter f = create("scalable?capacity=64&bucketSize=2&expansion=2");
    int grown = 0;
    for (long k = 0; grown < 4; k++) {
      byte[] before = tables(f);
      int subFilters = f.subFilterCount();
      assertTrue(f.add(k));
      if (f.subFilterCount() == subFilters) {
        continue;
      }
      grown++;
      assertEquals(subFilters + 1, f.subFilterCount());
      assertEquals(2 * f.subFilterBuckets(subFilters - 1), f.subFilterBuckets(subFilters));
      byte[] after = tables(f);
      assertArrayEquals(before, Arrays.copyOf(after, before.length), "older sub-filters changed by key " + k);
      long h = MURMUR.hashLong(k);
      byte[] expected = new byte[(int) f.subFilterBuckets(subFilters) * 2];
      expected[(int) (h & (f.subFilterBuckets(subFilters) - 1)) * 2] = (byte) SubFilterChain.fingerprint(h);
      assertArrayEquals(expected, table(f, subFilters), "new sub-filter after key " + k);
    }
  }

  @Test
  void duplicatesAreStoredUntilTheChainGrows() {
    ScalableCuckooFilter f = create("scalable?capacity=8&bucketSize=2&expansion=1");
    String key = keyWhere("dup-", h -> SubFilterChain.fingerprint(h) % 4 != 0); // two distinct buckets
    for (int i = 1; i <= 4; i++) {
      assertTrue(f.add(key));
      assertEquals(i, f.count(key));
    }
    assertEquals(1, f.subFilterCount());
    assertTrue(f.add(key)); // both buckets hold 2 copies: the fifth goes to a new sub-filter
    assertEquals(2, f.subFilterCount());
    assertEquals(5, f.count(key));
    assertFalse(f.addIfAbsent(key));
    assertEquals(5, f.size());
  }

  @Test
  void countCountsABucketTwiceWhenBothCandidatesAreTheSame() {
    // With 2 buckets an even fingerprint's alternate is its own bucket (0x5bd1e995 is odd); with
    // 4 buckets, a fingerprint that is a multiple of 4.
    for (int buckets : new int[] {2, 4}) {
      String same = keyWhere("same-", h -> SubFilterChain.fingerprint(h) % buckets == 0);
      String apart = keyWhere("apart-", h -> SubFilterChain.fingerprint(h) % 2 == 1);
      ScalableCuckooFilter f = create("scalable?capacity=" + 2 * buckets + "&bucketSize=2&expansion=0");
      assertTrue(f.add(same));
      assertEquals(2, f.count(same), buckets + " buckets");
      assertTrue(f.add(same));
      assertEquals(4, f.count(same), buckets + " buckets");
      assertFalse(f.add(same), "a third copy has only one bucket of two slots");
      assertTrue(f.remove(same));
      assertEquals(2, f.count(same));
      assertTrue(f.add(apart));
      assertEquals(1, f.count(apart));
      assertEquals(2, f.size());
    }
  }

  @Test
  void theChainStopsAt32SubFiltersEvenWithRoomLeft() {
    ScalableCuckooFilter f = create("scalable?capacity=2&bucketSize=1&expansion=1");
    String key = keyWhere("copy-", h -> SubFilterChain.fingerprint(h) % 2 == 1); // two buckets
    int added = addUntilRefused(f, key);
    // 31 full sub-filters and a 32nd holding the copy that made it: "Maximum expansions
    // reached" is checked before anything else, so its free slot is never used.
    assertEquals(63, added);
    assertEquals(32, f.subFilterCount());
    assertFalse(f.add("another key"));
    assertFalse(f.addIfAbsent("another key"));
    assertTrue(f.remove(key));
    assertEquals(1, f.deletesSinceCompaction(), "1 > 0.1 * 62 is false: no compaction");
    assertFalse(f.add(key));
    assertEquals(62, f.size());
    assertEquals(62, f.count(key));
    assertTrue(f.mightContain(key));
    f.compact(); // the removed copy was the newest sub-filter's only one: it is dropped
    assertEquals(31, f.subFilterCount());
    assertTrue(f.add(key)); // no room anywhere: a 32nd sub-filter again
    assertEquals(32, f.subFilterCount());
    assertFalse(f.add(key));
    assertEquals(63, f.size());
  }

  @Test
  void aSubFilterTooLargeForTheHeapIsRefusedLikeAFailedAllocation() {
    // 2 buckets of 255 slots, then 2^16 buckets (16 MiB), then 2^31 (547 GB, beyond any test heap).
    ScalableCuckooFilter f = create("scalable?capacity=510&bucketSize=255&expansion=32768");
    String key = keyWhere("big-", h -> SubFilterChain.fingerprint(h) % 2 == 1); // two buckets
    int added = addUntilRefused(f, key);
    assertEquals(2 * 510, added, "two sub-filters hold 510 copies each");
    assertEquals(2, f.subFilterCount());
    assertEquals(1 << 16, f.subFilterBuckets(1));
    assertEquals(1020, f.count(key));
    assertTrue(f.add("another key"), "a key with room is still taken");
  }

  @Test
  void aChainThatWouldOutgrowTheHeapIsRefusedLikeAFailedAllocation() {
    // Copies of one key grow a chain by expansion^i (found by fuzzing: repeated adds of one
    // key to this config died of OutOfMemoryError). With a 1 MiB limit: 8 bytes, then 16, 32,
    // .. 2^19 bytes (about 1 MiB in all), and the next is refused.
    ScalableCuckooFilter f = create("scalable?capacity=8&bucketSize=1&expansion=2");
    f.chain().memoryLimit(1 << 20);
    // A key whose two buckets differ in every sub-filter (they do in the first, of 8).
    String key = keyWhere("same-", h -> ((SubFilter.alternate(h, SubFilterChain.fingerprint(h)) ^ h) & 7) != 0);
    int added = addUntilRefused(f, key);
    assertEquals(17, f.subFilterCount());
    assertTrue(f.chain().dataBytes() <= 1 << 20, f.chain().dataBytes() + " bytes");
    assertEquals(2 * 17, added, "each sub-filter holds two copies");
    assertEquals(added, f.count(key));
    assertTrue(f.mightContain(key));
  }

  // ---------------------------------------------------------------- delete and compaction

  @Test
  void deletesCompactWhenTheyExceedATenthOfTheItems() {
    ScalableCuckooFilter f = create("scalable?capacity=64&bucketSize=2&expansion=1");
    List<Long> keys = new ArrayList<>();
    for (long k = 0; k < 600; k++) {
      assertTrue(f.add(k));
      keys.add(k);
    }
    int mostSubFilters = f.subFilterCount();
    assertTrue(mostSubFilters > 5, "sub-filters: " + mostSubFilters);
    int compactions = 0;
    for (int i = 0; i < 560; i++) {
      long items = f.size();
      long deletes = f.deletesSinceCompaction();
      int subFilters = f.subFilterCount();
      assertTrue(f.remove(keys.get(i)));
      boolean compacts = subFilters > 1 && deletes + 1 > (items - 1) * 0.1;
      assertEquals(compacts ? 0 : deletes + 1, f.deletesSinceCompaction(), "delete " + i);
      if (compacts) {
        compactions++;
      } else {
        assertEquals(subFilters, f.subFilterCount(), "delete " + i);
      }
      assertEquals(f.size(), storedFingerprints(f), "delete " + i);
    }
    for (long k : keys.subList(560, 600)) {
      assertTrue(f.mightContain(k), "key " + k + " lost");
    }
    assertTrue(compactions > 10, "compactions: " + compactions);
    assertTrue(f.subFilterCount() < mostSubFilters, "sub-filters: " + f.subFilterCount());
  }

  @Test
  void theCompactionThresholdIsStrictlyMoreThanATenth() throws IOException {
    ScalableCuckooFilter f = create("scalable?capacity=4&bucketSize=2&expansion=1");
    for (int i = 0; i < 21; i++) {
      assertTrue(f.add("k" + i));
    }
    assertTrue(f.subFilterCount() > 1);
    List<Chunk> chunks = new ArrayList<>(RedisBloomDump.dump(f));
    byte[] header = chunks.get(0).data().clone();
    ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).putLong(16, 1); // numDeletes = 1
    chunks.set(0, new Chunk(1, header));
    ScalableCuckooFilter g = RedisBloomDump.load(chunks);
    int subFilters = g.subFilterCount();
    assertTrue(g.remove("k0")); // 2 deletes, 20 items: 2 > 2.0 is false
    assertEquals(2, g.deletesSinceCompaction());
    assertEquals(subFilters, g.subFilterCount());
    assertTrue(g.remove("k1")); // 3 deletes, 19 items: 3 > 1.9
    assertEquals(0, g.deletesSinceCompaction());
  }

  /*
   * Hand-made chains of 1-slot buckets, 2 buckets per sub-filter (expansion 1): an even
   * fingerprint lives in one bucket only (its alternate is itself), an odd one in either.
   */
  private static final byte A = 5;
  private static final byte Z = 3; // odd
  private static final byte X = 4; // even

  @Test
  void compactMovesEachFingerprintToTheOldestSubFilterWithRoomAndDropsEmptiedNewestOnes() throws IOException {
    ScalableCuckooFilter f = RedisBloomDump.load(
        chunks(header(2, 2, 0, 3, 1, 20, 1), new byte[] {0, 0}, new byte[] {0, Z}, new byte[] {0, X}));
    f.compact();
    // X (bucket 1) goes to sub-filter 0's bucket 1; then Z (bucket 1) finds it full and takes
    // the alternate, bucket 0. Both emptied sub-filters were the newest when emptied.
    assertEquals(1, f.subFilterCount());
    assertArrayEquals(new byte[] {Z, X}, table(f, 0));
    assertEquals(2, f.size());
    assertEquals(0, f.deletesSinceCompaction());
  }

  @Test
  void compactGoesOnPastASubFilterItCannotEmpty() throws IOException {
    ScalableCuckooFilter f = RedisBloomDump.load(
        chunks(header(3, 2, 7, 3, 1, 20, 1), new byte[] {0, A}, new byte[] {0, Z}, new byte[] {0, X}));
    f.compact();
    // X fits nowhere older; Z moves to sub-filter 0's bucket 0, emptying sub-filter 1, which
    // stays because it is not the newest.
    assertEquals(3, f.subFilterCount());
    assertArrayEquals(new byte[] {Z, A}, table(f, 0));
    assertArrayEquals(new byte[] {0, 0}, table(f, 1));
    assertArrayEquals(new byte[] {0, X}, table(f, 2));
    assertEquals(0, f.deletesSinceCompaction());
  }

  @Test
  void aDeleteCompactsOnlyUpToTheFirstSubFilterItCannotEmpty() throws IOException {
    String w = keyWhere("w-", h -> (h & 1) == 0 && SubFilterChain.fingerprint(h) % 2 == 1
        && SubFilterChain.fingerprint(h) != A && SubFilterChain.fingerprint(h) != Z);
    byte fw = (byte) fingerprint(w);
    ScalableCuckooFilter f = RedisBloomDump.load(
        chunks(header(4, 2, 0, 3, 1, 20, 1), new byte[] {0, A}, new byte[] {0, Z}, new byte[] {fw, X}));
    assertTrue(f.remove(w)); // 1 delete > 0.1 * 3 items: compacts, and stops at X
    assertEquals(3, f.subFilterCount());
    assertArrayEquals(new byte[] {0, A}, table(f, 0));
    assertArrayEquals(new byte[] {0, Z}, table(f, 1));
    assertArrayEquals(new byte[] {0, X}, table(f, 2));
    assertEquals(0, f.deletesSinceCompaction());
    assertEquals(3, f.size());
  }

  @Test
  void removingTheLastCopyFromTheNewestSubFilterFirst() {
    ScalableCuckooFilter f = create("scalable?capacity=8&bucketSize=2&expansion=1");
    String key = keyWhere("dup-", h -> SubFilterChain.fingerprint(h) % 4 != 0);
    for (int i = 0; i < 5; i++) {
      assertTrue(f.add(key));
    }
    byte[] older = table(f, 0);
    assertTrue(f.remove(key)); // from the newest sub-filter, then 1 > 0.4: compaction drops it
    assertEquals(1, f.subFilterCount());
    assertArrayEquals(older, table(f, 0));
    assertEquals(4, f.count(key));
  }

  // ---------------------------------------------------------------- clear, files, memory

  @Test
  void clearGoesBackToOneEmptySubFilter() {
    ScalableCuckooFilter f = create("scalable?capacity=64&bucketSize=2&expansion=1");
    for (long k = 0; k < 500; k++) {
      f.add(k);
    }
    assertTrue(f.subFilterCount() > 1);
    f.clear();
    assertEquals(1, f.subFilterCount());
    assertEquals(0, f.size());
    assertEquals(0, f.deletesSinceCompaction());
    assertEquals(64, f.capacity());
    assertEquals(64, f.slots());
    assertArrayEquals(new byte[64], tables(f));
    assertEquals(List.of(), RedisBloomDump.dump(f));
    assertTrue(f.add(1L));
    assertTrue(f.mightContain(1L));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "scalable?capacity=256&bucketSize=3&expansion=2",
      "scalable?capacity=64&bucketSize=1&expansion=1",
      "scalable?capacity=200&bucketSize=8&maxKicks=50&expansion=0"})
  void pagedTablesBehaveExactlyLikeSingleArrays(String config) throws IOException {
    FilterSpec spec = CuckooFilters.create(config).spec();
    ScalableCuckooFilter plain = new ScalableCuckooFilter(spec, ScalableProvider.newChain(spec, 1 << 30));
    ScalableCuckooFilter paged = new ScalableCuckooFilter(spec, ScalableProvider.newChain(spec, 8));
    assertTrue(paged.chain().subFilter(0).pageCount() > 1);
    SplittableRandom r = TestSeed.random("paged tables " + config);
    String seed = ", " + TestSeed.rerun();
    List<Long> present = new ArrayList<>();
    for (int step = 0; step < 6000; step++) {
      long key = r.nextLong(800);
      int op = r.nextInt(10);
      if (op < 4) {
        boolean added = plain.add(key);
        assertEquals(added, paged.add(key), "add, step " + step + seed);
        if (added) {
          present.add(key);
        }
      } else if (op < 5) {
        boolean added = plain.addIfAbsent(key);
        assertEquals(added, paged.addIfAbsent(key), "addIfAbsent, step " + step + seed);
        if (added) {
          present.add(key);
        }
      } else if (op < 7 && !present.isEmpty()) {
        long k = present.remove(r.nextInt(present.size()));
        assertEquals(plain.remove(k), paged.remove(k), "remove, step " + step + seed);
      } else {
        assertEquals(plain.mightContain(key), paged.mightContain(key), "mightContain, step " + step + seed);
        assertEquals(plain.count(key), paged.count(key), "count, step " + step + seed);
      }
      assertEquals(plain.info(), paged.info(), "step " + step + seed);
    }
    assertArrayEquals(tables(plain), tables(paged), "tables" + seed);
    List<Chunk> dump = RedisBloomDump.dump(paged);
    assertEquals(RedisBloomDump.dump(plain), dump, "dumps" + seed);
    assertArrayEquals(tables(plain), tables(RedisBloomDump.load(dump, 8)), "tables loaded from the dump" + seed);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    paged.writeTo(out);
    CuckooFilter read = CuckooFilters.read(new ByteArrayInputStream(out.toByteArray()));
    assertArrayEquals(tables(plain), tables((ScalableCuckooFilter) read), "tables after write/read" + seed);
  }

  @Test
  void hotPathsAllocateNothing() {
    ScalableCuckooFilter f = create("scalable?capacity=100000&bucketSize=4&expansion=1");
    long[] longs = new long[1000];
    byte[][] bytes = new byte[1000][];
    String[] strings = new String[1000];
    for (int i = 0; i < 1000; i++) {
      longs[i] = i * 0x9E3779B97F4A7C15L;
      strings[i] = "key-" + i;
      bytes[i] = strings[i].getBytes(StandardCharsets.UTF_8);
    }
    Runnable operations = () -> {
      for (int i = 0; i < 1000; i++) {
        f.add(longs[i]);
        f.add(bytes[i]);
        f.add(strings[i]);
        f.addIfAbsent(longs[i] + 1);
        f.mightContain(longs[i]);
        f.mightContain(bytes[i]);
        f.mightContain(strings[i]);
        f.count(longs[i]);
        f.remove(longs[i]);
        f.remove(bytes[i]);
        f.remove(strings[i]);
        f.remove(longs[i] + 1);
      }
    };
    assertEquals(0, AllocationMeter.allocatedBeyondTheMeter(operations), "bytes allocated by 12,000 operations");
    assertEquals(1, f.subFilterCount());
  }

  @Test
  void loadFactorAndExpectedFppFollowTheChain() {
    ScalableCuckooFilter f = create("scalable?capacity=64&bucketSize=2&expansion=1");
    assertEquals(0.0, f.expectedFpp());
    for (long k = 0; k < 300; k++) {
      f.add(k);
    }
    assertEquals(64L * f.subFilterCount(), f.capacity());
    assertEquals(64L * f.subFilterCount(), f.slots());
    assertEquals(f.slots(), f.sizeInBytes());
    assertEquals(300.0 / f.slots(), f.loadFactor(), 1e-12);
    double bound = f.subFilterCount() * 4 / 255.0;
    assertTrue(f.expectedFpp() > 0 && f.expectedFpp() < bound, f.expectedFpp() + " vs " + bound);
    assertEquals(40 + 16 * f.subFilterCount() + f.slots(), f.info().get("Size"));
    ScalableCuckooFilter growing = create("scalable?capacity=64&bucketSize=2&expansion=2");
    for (long k = 0; k < 300; k++) {
      growing.add(k);
    }
    assertEquals(3, growing.subFilterCount());
    assertEquals(64 + 128 + 256, growing.capacity(), "what the chain was reserved for");
  }

  /** @return how many copies of the key were added before the first refusal */
  private static int addUntilRefused(ScalableCuckooFilter f, String key) {
    int added = 0;
    while (f.add(key)) {
      added++;
    }
    return added;
  }

  private static long storedFingerprints(ScalableCuckooFilter f) {
    long n = 0;
    for (byte b : tables(f)) {
      if (b != 0) {
        n++;
      }
    }
    return n;
  }
}
