package dev.cuckoo.scalable;

import static dev.cuckoo.scalable.Dumps.chunks;
import static dev.cuckoo.scalable.Dumps.header;
import static dev.cuckoo.scalable.Dumps.tables;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.scalable.RedisBloomDump.Chunk;
import dev.cuckoo.testkit.AllocationMeter;
import dev.cuckoo.testkit.ForgedFiles;
import dev.cuckoo.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link RedisBloomDump}: SCANDUMP's iterator rules, and loading that refuses bad chunks. */
class RedisBloomDumpTest {

  private static ScalableCuckooFilter loaded(String config, int keys) {
    ScalableCuckooFilter f = ScalableCuckooFilterTest.create(config);
    for (long k = 0; k < keys; k++) {
      f.add(k);
    }
    return f;
  }

  /** A filter of 3 sub-filters of 16, 32 and 64 bytes (bucket size 2, expansion 2). */
  private static ScalableCuckooFilter threeSubFilters() {
    ScalableCuckooFilter f = ScalableCuckooFilterTest.create("scalable?capacity=16&bucketSize=2&expansion=2");
    for (long k = 0; f.subFilterCount() < 3; k++) {
      f.add(k);
    }
    return f;
  }

  // ---------------------------------------------------------------- scanning

  @Test
  void scanDumpFollowsTheIteratorFromAnyOffset() {
    ScalableCuckooFilter f = threeSubFilters();
    byte[] all = tables(f);
    assertEquals(16 + 32 + 64, all.length);
    assertEquals(1, RedisBloomDump.scanDump(f, 0).iterator());
    assertEquals(38, RedisBloomDump.scanDump(f, 0).data().length);
    // From offset it-1 to the end of the sub-filter holding it.
    long[][] cases = {{1, 17}, {5, 17}, {16, 17}, {17, 49}, {30, 49}, {49, 113}, {112, 113}};
    for (long[] c : cases) {
      Chunk chunk = RedisBloomDump.scanDump(f, c[0]);
      assertEquals(c[1], chunk.iterator(), "iterator after " + c[0]);
      assertArrayEquals(Arrays.copyOfRange(all, (int) c[0] - 1, (int) c[1] - 1), chunk.data(), "data at " + c[0]);
    }
    assertEquals(new Chunk(0, new byte[0]), RedisBloomDump.scanDump(f, 113));
    assertEquals(new Chunk(0, new byte[0]), RedisBloomDump.scanDump(f, Long.MAX_VALUE));
    List<Chunk> dump = RedisBloomDump.dump(f);
    assertEquals(List.of(1L, 17L, 49L, 113L), dump.stream().map(Chunk::iterator).toList());
  }

  @Test
  void anEmptyFilterDumpsNothing() {
    ScalableCuckooFilter f = threeSubFilters();
    f.clear();
    assertEquals(new Chunk(0, new byte[0]), RedisBloomDump.scanDump(f, 0));
    assertEquals(new Chunk(0, new byte[0]), RedisBloomDump.scanDump(f, 1));
    assertEquals(List.of(), RedisBloomDump.dump(f));
    assertCorrupt(List.of(), "no header");
  }

  @Test
  void aSubFilterLargerThan16MiBGoesOutIn16MiBChunks() throws IOException {
    int mib16 = RedisBloomDump.MAX_CHUNK_BYTES;
    assertEquals(1 << 24, mib16);
    ScalableCuckooFilter f = loaded("scalable?capacity=33554432&bucketSize=1&expansion=0", 1000);
    List<Chunk> dump = RedisBloomDump.dump(f);
    assertEquals(List.of(1L, 1L + mib16, 1L + 2L * mib16), dump.stream().map(Chunk::iterator).toList());
    assertEquals(mib16, dump.get(1).data().length);
    assertEquals(mib16, dump.get(2).data().length);
    Chunk unaligned = RedisBloomDump.scanDump(f, 11);
    assertEquals(mib16, unaligned.data().length);
    assertEquals(11L + mib16, unaligned.iterator());
    assertEquals(mib16 - 10, RedisBloomDump.scanDump(f, unaligned.iterator()).data().length);
    List<Chunk> reversed = new ArrayList<>(dump);
    Collections.reverse(reversed);
    ScalableCuckooFilter back = RedisBloomDump.load(reversed);
    assertEquals(f.info(), back.info());
    for (long k = 0; k < 2000; k++) {
      assertEquals(f.mightContain(k), back.mightContain(k), "key " + k);
    }
  }

  @Test
  void onlyScalableFiltersHashedAsRedisBloomHashesCanBeDumped() {
    assertRejectedForDump(ScalableCuckooFilterTest.create("scalable?capacity=100&hash=xxh3"), "xxh3", "murmur64a");
    assertRejectedForDump(ScalableCuckooFilterTest.create("scalable?capacity=100&seed=1"), "seed 1");
    CuckooFilter other = (CuckooFilter) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {CuckooFilter.class},
        (proxy, method, args) -> method.getName().equals("spec") ? FilterSpec.parse("classic?capacity=10") : null);
    assertRejectedForDump(other, "classic", "scalable");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RedisBloomDump.scanDump(loaded("scalable?capacity=100", 10), -1));
    assertTrue(e.getMessage().contains("-1"), e.getMessage());
  }

  private static void assertRejectedForDump(CuckooFilter f, String... mentions) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RedisBloomDump.dump(f));
    for (String m : mentions) {
      assertTrue(e.getMessage().contains(m), "message lacks '" + m + "': " + e.getMessage());
    }
  }

  // ---------------------------------------------------------------- hostile headers

  @Test
  void badHeadersAreRejected() {
    byte[] data = new byte[4];
    assertCorrupt(List.of(new Chunk(5, data)), "no header");
    assertCorrupt(List.of(new Chunk(1, new byte[0]), new Chunk(5, data)), "0 bytes long", "exactly 38");
    assertCorrupt(List.of(new Chunk(1, new byte[37]), new Chunk(5, data)), "37 bytes long");
    assertCorrupt(List.of(new Chunk(1, new byte[39]), new Chunk(5, data)), "39 bytes long");
    assertCorrupt(List.of(new Chunk(1, new byte[46]), new Chunk(5, data)), "46 bytes long");
    assertCorrupt(headerAnd(header(0, 2, 0, 1, 2, 20, 1), 4, header(0, 2, 0, 1, 2, 20, 1)), "two header chunks");

    assertHeaderRejected(header(0, 2, 0, 1, 0, 20, 1), "bucketSize 0", "1..255");
    assertHeaderRejected(header(0, 2, 0, 1, 256, 20, 1), "bucketSize 256");
    assertHeaderRejected(header(0, 2, 0, 0, 2, 20, 1), "numFilters 0", "1..32");
    assertHeaderRejected(header(0, 2, 0, 33, 2, 20, 1), "numFilters 33");
    assertHeaderRejected(header(0, 2, 0, -1, 2, 20, 1), "numFilters 18446744073709551615");
    assertHeaderRejected(header(0, 2, 0, 1, 2, 0, 1), "maxIterations 0", "1..65535");
    assertHeaderRejected(header(0, 2, 0, 1, 2, 20, 32769), "expansion 32769", "0..32768");
    assertHeaderRejected(header(0, 2, 0, 2, 2, 20, 0), "expansion 0", "2 sub-filters");
    assertHeaderRejected(header(0, 2, 0, 1, 2, 20, 3), "expansion 3", "power of two");
    assertHeaderRejected(header(0, 0, 0, 1, 2, 20, 1), "numBuckets 0");
    assertHeaderRejected(header(0, 6, 0, 1, 2, 20, 1), "numBuckets 6");
    assertHeaderRejected(header(0, 1L << 56, 0, 1, 2, 20, 1), "numBuckets 72057594037927936");
    assertHeaderRejected(header(0, Long.MIN_VALUE, 0, 1, 2, 20, 1), "numBuckets 9223372036854775808");
    assertHeaderRejected(header(-1, 2, 0, 1, 2, 20, 1), "numItems 18446744073709551615");
    assertHeaderRejected(header(5, 2, 0, 1, 2, 20, 1), "numItems 5", "4 slots");
    assertHeaderRejected(header(0, 2, Long.MIN_VALUE, 1, 2, 20, 1), "numDeletes 9223372036854775808");
    assertHeaderRejected(header(0, 1, 0, 1, 2, 20, 1), "numBuckets 1", "no capacity");
    assertHeaderRejected(header(0, 1L << 40, 0, 1, 2, 20, 1), "numBuckets 1099511627776", "no capacity");
    assertHeaderRejected(header(0, 1L << 50, 0, 1, 2, 20, 1), "more than the 70368744177664 bytes");
    assertHeaderRejected(header(0, 1L << 20, 0, 32, 255, 20, 32768), "sub-filter 2");
  }

  private static List<Chunk> headerAnd(byte[] header, int dataLength, byte[]... more) {
    List<Chunk> chunks = new ArrayList<>();
    chunks.add(new Chunk(1, header));
    chunks.add(new Chunk(dataLength + 1, new byte[dataLength]));
    for (byte[] m : more) {
      chunks.add(new Chunk(1, m));
    }
    return chunks;
  }

  private static void assertHeaderRejected(byte[] header, String... mentions) {
    assertCorrupt(headerAnd(header, 4), mentions);
  }

  @Test
  void aForgedHeaderAllocatesNothingInProportionToWhatItDeclares() {
    // 32 sub-filters, the last of 2^20 * 32768^31 buckets, or one of 2^36 bytes: each is
    // refused before any table is allocated.
    List<List<Chunk>> forged = List.of(
        headerAnd(header(0, 1L << 20, 0, 32, 255, 20, 32768), 16),
        headerAnd(header(0, 1L << 28, 0, 32, 255, 20, 2), 16),
        headerAnd(header(0, 1L << 28, 0, 1, 255, 20, 1), 16));
    for (List<Chunk> chunks : forged) {
      long allocated = AllocationMeter.allocatedBy(() -> {
        try {
          RedisBloomDump.load(chunks);
          fail("forged header loaded");
        } catch (CorruptFilterException expected) {
          // what we want
        }
      });
      assertTrue(allocated < 1 << 20, allocated + " bytes allocated to reject " + chunks);
    }
  }

  // ---------------------------------------------------------------- hostile data chunks

  @Test
  void chunksMustCoverEverySubFilterExactlyOnce() {
    // 2 sub-filters of 4 bytes: offsets 0..3 and 4..7.
    byte[] h = header(0, 2, 0, 2, 2, 20, 1);
    byte[] four = new byte[4];
    assertCorrupt(chunks(h, four), "4 data bytes", "8 bytes", "missing");
    assertCorrupt(List.of(new Chunk(1, h), new Chunk(5, four), new Chunk(9, four), new Chunk(9, four)), "overlap");
    assertCorrupt(List.of(new Chunk(1, h), new Chunk(3, new byte[2]), new Chunk(5, four), new Chunk(9, four)), "overlap");
    assertCorrupt(List.of(new Chunk(1, h), new Chunk(5, four), new Chunk(13, four)), "offsets 8..11", "not inside one sub-filter");
    assertCorrupt(List.of(new Chunk(1, h), new Chunk(3, new byte[2]), new Chunk(7, four), new Chunk(9, new byte[2])),
        "offsets 2..5", "not inside one sub-filter");
    assertCorrupt(List.of(new Chunk(1, h), new Chunk(4, four), new Chunk(9, four)), "before offset 0");
    assertCorrupt(List.of(new Chunk(1, h), new Chunk(5, four), new Chunk(9, four), new Chunk(9, new byte[0])),
        "not a data chunk");
    assertCorrupt(List.of(new Chunk(1, h), new Chunk(5, four), new Chunk(9, four), new Chunk(0, new byte[0])),
        "not a data chunk");
    assertCorrupt(List.of(new Chunk(1, h), new Chunk(5, four), new Chunk(-3, four)), "not a data chunk");
    assertCorrupt(List.of(new Chunk(1, h), new Chunk(3, new byte[2]), new Chunk(4, new byte[1]), new Chunk(9, four),
        new Chunk(5, new byte[2])), "overlap");
    assertCorrupt(List.of(new Chunk(1, h), new Chunk(3, new byte[2]), new Chunk(9, four), new Chunk(6, new byte[3])),
        "not inside one sub-filter");
  }

  @Test
  void numItemsMustBeTheFingerprintsTheDataHolds() {
    assertCorrupt(chunks(header(2, 2, 0, 2, 2, 20, 1), new byte[] {1, 2, 0, 0}, new byte[] {0, 0, 0, 9}),
        "numItems 2", "hold 3 fingerprints");
  }

  @Test
  void randomlyDamagedDumpsLoadConsistentlyOrAreRejected() {
    ScalableCuckooFilter f = threeSubFilters();
    List<Chunk> dump = RedisBloomDump.dump(f);
    SplittableRandom r = TestSeed.random("damaged dumps");
    int rejected = 0;
    for (int trial = 0; trial < 3000; trial++) {
      List<Chunk> damaged = new ArrayList<>(dump);
      int which = r.nextInt(damaged.size());
      Chunk c = damaged.get(which);
      byte[] bytes = c.data().clone();
      long iterator = c.iterator();
      switch (r.nextInt(4)) {
        case 0 -> bytes[r.nextInt(bytes.length)] ^= (byte) (1 << r.nextInt(8));
        case 1 -> bytes = Arrays.copyOf(bytes, r.nextInt(bytes.length + 8));
        case 2 -> iterator += r.nextInt(9) - 4;
        default -> damaged.remove(which);
      }
      if (damaged.size() == dump.size()) {
        damaged.set(which, new Chunk(iterator, bytes));
      }
      try {
        ScalableCuckooFilter g = RedisBloomDump.load(damaged);
        long stored = 0;
        for (byte b : tables(g)) {
          stored += b != 0 ? 1 : 0;
        }
        assertEquals(g.size(), stored, "trial " + trial + ", " + TestSeed.rerun());
      } catch (CorruptFilterException e) {
        rejected++;
      }
    }
    assertTrue(rejected > 1000, rejected + " of 3000 damaged dumps rejected, " + TestSeed.rerun());
  }

  private static void assertCorrupt(List<Chunk> chunks, String... mentions) {
    CorruptFilterException e = assertThrows(CorruptFilterException.class, () -> RedisBloomDump.load(chunks),
        "accepted " + chunks);
    for (String m : mentions) {
      assertTrue(e.getMessage().contains(m), "message lacks '" + m + "': " + e.getMessage());
    }
  }

  // ---------------------------------------------------------------- streaming

  @Test
  void theLoaderTakesChunksOneAtATimeInScanDumpOrderAndGrowsPagesWithTheBytes() throws CorruptFilterException {
    ScalableCuckooFilter f = threeSubFilters();
    // Pieces of 3 bytes into pages of 16: every page grows several times before it is whole.
    RedisBloomDump.Loader loader = new RedisBloomDump.Loader(16);
    List<Chunk> pieces = pieces(RedisBloomDump.dump(f), 3);
    for (Chunk c : pieces) {
      loader.accept(c);
    }
    ScalableCuckooFilter g = loader.finish();
    assertEquals(f.info(), g.info());
    assertEquals(f.spec(), g.spec());
    assertArrayEquals(tables(f), tables(g));
    assertEquals(RedisBloomDump.load(pieces).spec(), g.spec(), "the list form gives the same filter");
    IllegalStateException spent = assertThrows(IllegalStateException.class, () -> loader.accept(pieces.get(0)));
    assertTrue(spent.getMessage().contains("use a new one"), spent.getMessage());
    assertThrows(IllegalStateException.class, loader::finish);
  }

  /** @return the dump with every data chunk cut into pieces of at most {@code size} bytes */
  private static List<Chunk> pieces(List<Chunk> dump, int size) {
    List<Chunk> pieces = new ArrayList<>();
    pieces.add(dump.get(0));
    for (Chunk c : dump.subList(1, dump.size())) {
      long start = c.iterator() - c.data().length - 1;
      for (int at = 0; at < c.data().length; at += size) {
        byte[] piece = Arrays.copyOfRange(c.data(), at, Math.min(c.data().length, at + size));
        pieces.add(new Chunk(start + at + piece.length + 1, piece));
      }
    }
    return pieces;
  }

  @Test
  void theLoaderRefusesChunksOutOfPlaceAndIsSpentAfterwards() throws CorruptFilterException {
    // 2 sub-filters of 4 bytes: offsets 0..3 and 4..7.
    byte[] h = header(0, 2, 0, 2, 2, 20, 1);
    byte[] four = new byte[4];
    assertLoaderRefuses(List.of(new Chunk(5, four)), "comes before the header chunk");
    assertLoaderRefuses(List.of(new Chunk(1, h), new Chunk(1, h)), "two header chunks");
    assertLoaderRefuses(List.of(new Chunk(1, h), new Chunk(9, four)), "starts at offset 4 where offset 0",
        "bytes 0..3 are missing");
    assertLoaderRefuses(List.of(new Chunk(1, h), new Chunk(5, four), new Chunk(5, four)), "chunks overlap");
    assertLoaderRefuses(List.of(new Chunk(1, h), new Chunk(5, four), new Chunk(13, four)), "not inside one sub-filter");
    assertLoaderRefuses(List.of(new Chunk(1, h), new Chunk(5, four), new Chunk(0, new byte[0])), "not a data chunk");
    assertLoaderRefuses(List.of(new Chunk(1, new byte[37])), "37 bytes long");

    RedisBloomDump.Loader missing = RedisBloomDump.loader();
    missing.accept(new Chunk(1, h));
    missing.accept(new Chunk(5, four));
    CorruptFilterException e = assertThrows(CorruptFilterException.class, missing::finish);
    assertTrue(e.getMessage().contains("holds 4 data bytes but its header declares 2 sub-filters of 8 bytes: chunks"
        + " are missing"), e.getMessage());
    e = assertThrows(CorruptFilterException.class, () -> RedisBloomDump.loader().finish());
    assertTrue(e.getMessage().contains("no header chunk"), e.getMessage());

    RedisBloomDump.Loader miscounted = RedisBloomDump.loader();
    miscounted.accept(new Chunk(1, header(1, 2, 0, 2, 2, 20, 1)));
    miscounted.accept(new Chunk(5, four));
    miscounted.accept(new Chunk(9, four));
    e = assertThrows(CorruptFilterException.class, miscounted::finish);
    assertTrue(e.getMessage().contains("numItems 1") && e.getMessage().contains("hold 0 fingerprints"), e.getMessage());
  }

  private static void assertLoaderRefuses(List<Chunk> chunks, String... mentions) throws CorruptFilterException {
    RedisBloomDump.Loader loader = RedisBloomDump.loader();
    for (int i = 0; i < chunks.size() - 1; i++) {
      loader.accept(chunks.get(i));
    }
    Chunk last = chunks.get(chunks.size() - 1);
    CorruptFilterException e = assertThrows(CorruptFilterException.class, () -> loader.accept(last),
        "accepted " + chunks);
    for (String m : mentions) {
      assertTrue(e.getMessage().contains(m), "message lacks '" + m + "': " + e.getMessage());
    }
    assertThrows(IllegalStateException.class, () -> loader.accept(last), "a failed loader is spent");
  }

  @Test
  void theLoaderAllocatesInStepWithTheBytesAForgedHeaderCannotInflateIt() {
    // One sub-filter of 1 GiB declared, 1 MiB delivered in 16 chunks: the loader holds about that.
    List<Chunk> chunks = new ArrayList<>();
    chunks.add(new Chunk(1, header(0, 1L << 30, 0, 1, 1, 20, 1)));
    for (int i = 1; i <= 16; i++) {
      chunks.add(new Chunk(i * 65536L + 1, new byte[65536]));
    }
    long allocated = AllocationMeter.allocatedBy(() -> {
      RedisBloomDump.Loader loader = RedisBloomDump.loader();
      try {
        for (Chunk c : chunks) {
          loader.accept(c);
        }
        loader.finish();
        fail("a dump of 1 MiB loaded as 1 GiB");
      } catch (CorruptFilterException expected) {
        assertTrue(expected.getMessage().contains("chunks are missing"), expected.getMessage());
      }
    });
    // A page grows by doubling to twice what it holds at most: 64 KiB + 128 KiB + ... + 1 MiB.
    assertTrue(allocated < 3L << 20, allocated + " bytes allocated for 1 MiB of chunks");
  }

  @Test
  // Thread.yield only makes the writer's interleaving likelier; the assertions hold whatever
  // the scheduler does.
  @SuppressWarnings("ThreadPriorityCheck")
  void aStreamedDumpOfALockedFilterIsOneStateWhileWritersRun() throws Exception {
    ScalableCuckooFilter f = ScalableCuckooFilterTest.create("scalable?capacity=64&bucketSize=2&expansion=2"
        + "&concurrency=locked");
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    Thread writer = new Thread(() -> {
      // Adds and removes: the chain grows, shrinks by compaction, and every count moves.
      SplittableRandom r = TestSeed.random("writer racing a streamed dump");
      long base = r.nextLong();
      for (long i = 0; !stop.get(); i++) {
        f.add(base + i);
        if (i >= 200) {
          f.remove(base + i - 200 + r.nextInt(2));
        }
      }
    });
    writer.start();
    try {
      for (int round = 0; round < 100; round++) {
        RedisBloomDump.Loader loader = RedisBloomDump.loader();
        List<Chunk> seen = new ArrayList<>();
        RedisBloomDump.dump(f, c -> {
          seen.add(c);
          Thread.yield(); // let the writer try to get in between chunks
        });
        if (seen.isEmpty()) {
          continue;
        }
        for (Chunk c : seen) {
          loader.accept(c);
        }
        ScalableCuckooFilter copy = loader.finish(); // numItems matches the data: one state
        assertEquals(copy.size(), storedIn(copy), "round " + round + ", " + TestSeed.rerun());
      }
    } finally {
      stop.set(true);
      writer.join();
    }
  }

  private static long storedIn(ScalableCuckooFilter f) {
    long stored = 0;
    for (byte b : tables(f)) {
      stored += b != 0 ? 1 : 0;
    }
    return stored;
  }

  // ---------------------------------------------------------------- the common file format

  @Test
  void aFileWhoseHeaderDisagreesWithItsSpecOrDeclaresTooMuchIsRejected() throws IOException {
    FilterSpec spec = CuckooFilters.create("scalable?capacity=8").spec(); // 4 buckets of 2
    assertFileRejected(spec, header(0, 8, 0, 1, 2, 20, 1), 16, "does not match its spec");
    assertFileRejected(spec, header(0, 4, 0, 1, 4, 20, 1), 16, "does not match its spec");
    assertFileRejected(spec, header(0, 4, 0, 1, 2, 21, 1), 8, "does not match its spec");
    assertFileRejected(spec, header(0, 4, 0, 1, 2, 20, 2), 8, "does not match its spec");
    assertFileRejected(spec, header(0, 4, 0, 32, 2, 20, 1), 8, "32 sub-filters", "only 8");
    assertFileRejected(spec, header(1, 4, 0, 1, 2, 20, 1), 8, "numItems 1", "hold 0");
    assertFileRejected(spec, header(0, 4, 0, 0, 2, 20, 1), 8, "numFilters 0");
    CuckooFilter ok = readFile(spec, header(0, 4, 0, 1, 2, 20, 1), 8);
    assertEquals(0, ok.size());
  }

  @Test
  void aTruncatedFileDeclaringHugeSubFiltersAllocatesInStepWithTheBytes() throws IOException {
    // A spec whose first sub-filter is 2^30 one-byte buckets, growing by 2^15: the header
    // declares two sub-filters (1 GiB + 32 TiB) and the envelope the payload they need, but the
    // stream ends after 64 KiB. No length check can tell; the tables must grow with the bytes.
    FilterSpec spec = CuckooFilters.create("scalable?capacity=8").spec().toBuilder()
        .capacity(1L << 30).bucketSize(1).option(ScalableProvider.EXPANSION, "32768").build();
    byte[] h = header(0, 1L << 30, 0, 2, 1, 20, 32768);
    long data = (1L << 30) + (1L << 45);
    byte[] file = ForgedFiles.truncated(spec.toString(), DumpHeader.BYTES + data, out -> out.write(h), 1 << 16);
    // At most the first 64 MiB part of the first page, however much the header declares.
    String m = ForgedFiles.rejected(file, 80L << 20).getMessage();
    assertTrue(m.contains("truncated") && m.contains("(" + (DumpHeader.BYTES + data) + " bytes declared)"), m);
  }

  private static void assertFileRejected(FilterSpec spec, byte[] header, int dataBytes, String... mentions) {
    CorruptFilterException e = assertThrows(CorruptFilterException.class, () -> readFile(spec, header, dataBytes));
    for (String m : mentions) {
      assertTrue(e.getMessage().contains(m), "message lacks '" + m + "': " + e.getMessage());
    }
  }

  /** Reads a file with a valid checksum around a hand-made payload. */
  private static CuckooFilter readFile(FilterSpec spec, byte[] header, int dataBytes) throws IOException {
    byte[] file = ForgedFiles.file(spec.toString(), header.length + dataBytes, payload -> {
      payload.write(header);
      payload.write(new byte[dataBytes]);
    });
    return CuckooFilters.read(new ByteArrayInputStream(file));
  }
}
