package dev.cuckoo.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterShard;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.MappedFilter;
import dev.cuckoo.ShardRouter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract of filters built in shards ({@code shards=S}): shards built apart from key hashes
 * ({@link CuckooFilters#createShard}, keys routed by {@link ShardRouter}) and joined ({@link
 * CuckooFilters#joinShards}) make a file that {@link CuckooFilters#read} and {@link
 * CuckooFilters#open} answer for every key added, with the items added, and about the
 * false-positive rate of a filter built whole; a sharded filter built whole takes its capacity;
 * the join refuses a missing, duplicated, foreign or damaged shard and stashes that overflow.
 * A variant's test subclasses it and names its shapes. Seeds from {@link TestSeed}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ShardedFilterContractTest {
  @TempDir
  protected Path dir;

  /** @return configs without capacity and shards: the shapes to build in shards */
  protected abstract java.util.List<String> shapes();

  /**
   * @return a shape whose tiny fingerprints, single-slot buckets and zero kicks fill a shard's
   *     stash after a few hundred keys, for the stash overflow refusal
   */
  protected abstract String stashFillingShape();

  private java.util.stream.Stream<String> shapeStream() {
    return shapes().stream();
  }

  /** The shards of one config, built from random keys routed by their hash, and the keys. */
  @SuppressWarnings("ArrayRecordComponent") // a carrier inside a test: never compared
  private record Built(byte[][] shards, byte[][] keys) {}

  private static Built build(String config, int keys, SplittableRandom random) throws IOException {
    ShardRouter router = CuckooFilters.keyHasher(config);
    FilterShard[] shards = new FilterShard[router.shards()];
    for (int i = 0; i < shards.length; i++) {
      shards[i] = CuckooFilters.createShard(config, i);
    }
    byte[][] added = new byte[keys][16];
    for (byte[] key : added) {
      random.nextBytes(key);
      long h = router.hash(key);
      FilterShard shard = shards[router.shardOf(h)];
      assertTrue(shard.addHash(h), () -> "shard refused a key: " + shard + TestSeed.rerun());
    }
    byte[][] bytes = new byte[shards.length][];
    for (int i = 0; i < shards.length; i++) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      shards[i].writeTo(out);
      assertTrue(out.size() <= shards[i].tableBytes() + 4096, "shard bytes " + out.size());
      bytes[i] = out.toByteArray();
    }
    return new Built(bytes, added);
  }

  private static byte[] join(String config, byte[][] shards) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CuckooFilters.joinShards(config, shards.length, i -> new ByteArrayInputStream(shards[i]), out);
    return out.toByteArray();
  }

  @ParameterizedTest
  @MethodSource("shapeStream")
  void shardsBuiltApartJoinIntoAFileThatReadAndOpenAnswer(String shape) throws IOException {
    SplittableRandom random = TestSeed.random("shards " + shape);
    for (int shards : new int[] {4, 7}) {
      String config = shape + "&capacity=40000&shards=" + shards;
      Built built = build(config, 40_000, random);
      byte[] file = join(config, built.shards());
      CuckooFilter read = CuckooFilters.read(new ByteArrayInputStream(file));
      Path path = Files.createTempFile(dir, "joined-" + shards, ".cuckoo");
      Files.write(path, file);
      CuckooFilter whole = CuckooFilters.create(config);
      try (MappedFilter mapped = CuckooFilters.open(path)) {
        mapped.verify();
        assertEquals(built.keys().length, read.size(), config);
        assertEquals(built.keys().length, mapped.size(), config);
        for (byte[] key : built.keys()) {
          assertTrue(read.mightContain(key), () -> config + " lost a key" + TestSeed.rerun());
          assertTrue(mapped.mightContain(key), () -> config + " lost a key (mapped)" + TestSeed.rerun());
          assertTrue(whole.add(key), config);
        }
        int lookups = 100_000;
        int joinedHits = 0;
        int wholeHits = 0;
        byte[] key = new byte[17]; // 17 bytes: never one of the 16-byte keys added
        for (int k = 0; k < lookups; k++) {
          random.nextBytes(key);
          boolean hit = read.mightContain(key);
          assertEquals(hit, mapped.mightContain(key), config);
          joinedHits += hit ? 1 : 0;
          wholeHits += whole.mightContain(key) ? 1 : 0;
        }
        // Same order of false positives as the filter built whole: within a factor 1.5 and noise.
        int joined = joinedHits;
        int built1 = wholeHits;
        double slack = 6 * Math.sqrt(wholeHits + 1.0) + 5;
        assertTrue(joined <= 1.5 * built1 + slack && built1 <= 1.5 * joined + slack, () -> config + ": "
            + joined + " false positives joined, " + built1 + " built whole, in " + lookups + TestSeed.rerun());
      }
    }
  }

  @ParameterizedTest
  @MethodSource("shapeStream")
  void joinedFileFindsEveryKeyAddedToAnyShard(String shape) throws IOException {
    SplittableRandom random = TestSeed.random("every key " + shape);
    String config = shape + "&capacity=30000&shards=5";
    ShardRouter router = CuckooFilters.keyHasher(config);
    FilterShard[] shards = new FilterShard[5];
    for (int i = 0; i < shards.length; i++) {
      shards[i] = CuckooFilters.createShard(config, i);
    }
    String[] keys = new String[30_000];
    long items = 0;
    for (int k = 0; k < keys.length; k++) {
      keys[k] = "key-" + random.nextLong();
      long h = router.hash(keys[k].getBytes(java.nio.charset.StandardCharsets.UTF_8));
      assertTrue(shards[router.shardOf(h)].addHash(h), config);
      items++;
    }
    byte[][] bytes = new byte[shards.length][];
    for (int i = 0; i < shards.length; i++) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      shards[i].writeTo(out);
      bytes[i] = out.toByteArray();
    }
    byte[] file = join(config, bytes);
    CuckooFilter read = CuckooFilters.read(new ByteArrayInputStream(file));
    Path path = Files.createTempFile(dir, "joined", ".cuckoo");
    Files.write(path, file);
    try (MappedFilter mapped = CuckooFilters.open(path)) {
      assertEquals(items, read.size());
      assertEquals(items, mapped.size());
      for (String key : keys) {
        assertTrue(read.mightContain(key), () -> config + " lost " + TestSeed.rerun());
        assertTrue(mapped.mightContain(key), () -> config + " lost (mapped) " + TestSeed.rerun());
      }
    }
  }

  @ParameterizedTest
  @MethodSource("shapeStream")
  void aShardedFilterBuiltWholeTakesItsCapacity(String shape) {
    SplittableRandom random = TestSeed.random("capacity " + shape);
    for (int perShard : new int[] {1_000, 10_000, 100_000}) {
      for (int shards : new int[] {3, 8}) {
        long capacity = (long) perShard * shards;
        String config = shape + "&capacity=" + capacity + "&shards=" + shards;
        CuckooFilter f = CuckooFilters.create(config);
        byte[] key = new byte[16];
        for (long k = 0; k < capacity; k++) {
          random.nextBytes(key);
          assertTrue(f.add(key), () -> config + " refused a key at " + f.size() + TestSeed.rerun());
        }
        assertEquals(capacity, f.size());
      }
    }
  }

  @Test
  void shardsOfOneAreTheTableOfOld() {
    String shape = shapes().get(0) + "&capacity=10000";
    CuckooFilter plain = CuckooFilters.create(shape);
    CuckooFilter one = CuckooFilters.create(shape + "&shards=1");
    assertEquals(plain.spec(), one.spec());
    assertFalse(one.spec().toString().contains(FilterSpec.SHARDS), one.spec().toString());
    assertEquals(1, CuckooFilters.keyHasher(shape).shards());
    assertEquals(plain.sizeInBytes(), one.sizeInBytes());
  }

  @Test
  void badShardCountsAndIndexesAreRefusedNamingTheRange() {
    String shape = shapes().get(0) + "&capacity=10000";
    IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.create(shape + "&shards=0"));
    assertTrue(zero.getMessage().contains("1..1048576"), zero.getMessage());
    IllegalArgumentException many = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.create(shape + "&shards=1048577"));
    assertTrue(many.getMessage().contains("1..1048576"), many.getMessage());
    IllegalArgumentException index = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.createShard(shape + "&shards=4", 4));
    assertTrue(index.getMessage().contains("0..3"), index.getMessage());
    assertThrows(IllegalArgumentException.class, () -> CuckooFilters.createShard(shape + "&shards=4", -1));
  }

  @Test
  void aHashOfAnotherShardIsRefusedNamingBoth() {
    String config = shapes().get(0) + "&capacity=10000&shards=4";
    ShardRouter router = CuckooFilters.keyHasher(config);
    FilterShard shard = CuckooFilters.createShard(config, 1);
    long k = 0;
    while (router.shardOf(router.hash(key(k))) == 1) {
      k++; // until a key of another shard
    }
    long foreign = router.hash(key(k));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> shard.addHash(foreign));
    assertTrue(e.getMessage().contains("shard " + router.shardOf(foreign)) && e.getMessage().contains("shard 1"),
        e.getMessage());
    assertEquals(0, shard.items());
  }

  private static byte[] key(long k) {
    return Long.toString(k).getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  @Test
  void theJoinRefusesMissingDuplicatedForeignAndDamagedShards() throws IOException {
    String config = shapes().get(0) + "&capacity=20000&shards=4";
    SplittableRandom random = TestSeed.random("refusals");
    byte[][] shards = build(config, 15_000, random).shards();
    OutputStream sink = OutputStream.nullOutputStream();
    assertThrows(NoSuchFileException.class, () -> CuckooFilters.joinShards(config, 4, i -> {
      if (i == 2) {
        throw new NoSuchFileException("shard-2");
      }
      return new ByteArrayInputStream(shards[i]);
    }, sink));
    CorruptFilterException twice = assertThrows(CorruptFilterException.class,
        () -> CuckooFilters.joinShards(config, 4, i -> new ByteArrayInputStream(shards[i == 2 ? 1 : i]), sink));
    assertTrue(twice.getMessage().contains("missing or given twice"), twice.getMessage());
    byte[][] foreign = build(shapes().get(0) + "&capacity=20001&shards=4", 100, random).shards();
    CorruptFilterException other = assertThrows(CorruptFilterException.class,
        () -> CuckooFilters.joinShards(config, 4, i -> new ByteArrayInputStream(i == 3 ? foreign[i] : shards[i]), sink));
    assertTrue(other.getMessage().contains("capacity=20001"), other.getMessage());
    for (int at : new int[] {30, shards[1].length / 2, shards[1].length - 2}) {
      byte[][] damaged = shards.clone();
      damaged[1] = shards[1].clone();
      damaged[1][at] ^= 0x10;
      CorruptFilterException e = assertThrows(CorruptFilterException.class,
          () -> CuckooFilters.joinShards(config, 4, i -> new ByteArrayInputStream(damaged[i]), sink));
      assertTrue(e.getMessage().contains("shard 1"), e.getMessage());
    }
    byte[][] truncated = shards.clone();
    truncated[0] = java.util.Arrays.copyOf(shards[0], shards[0].length - 100);
    assertThrows(CorruptFilterException.class,
        () -> CuckooFilters.joinShards(config, 4, i -> new ByteArrayInputStream(truncated[i]), sink));
    assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.joinShards(config, 5, i -> new ByteArrayInputStream(shards[i]), sink));
  }

  @Test
  void theJoinRefusesStashesThatOverflowTheFilters() throws IOException {
    String config = stashFillingShape() + "&shards=2";
    ShardRouter router = CuckooFilters.keyHasher(config);
    SplittableRandom random = TestSeed.random("stash overflow");
    byte[][] bytes = new byte[2][];
    for (int s = 0; s < 2; s++) {
      FilterShard shard = CuckooFilters.createShard(config, s);
      byte[] key = new byte[16];
      // Fill until the shard refuses: its stash is full then.
      for (boolean took = true; took; ) {
        random.nextBytes(key);
        long h = router.hash(key);
        if (router.shardOf(h) == s) {
          took = shard.addHash(h);
        }
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      shard.writeTo(out);
      bytes[s] = out.toByteArray();
    }
    IOException e = assertThrows(IOException.class,
        () -> CuckooFilters.joinShards(config, 2, i -> new ByteArrayInputStream(bytes[i]), OutputStream.nullOutputStream()));
    assertTrue(e.getMessage().contains("stash") && e.getMessage().contains("capacity="), e.getMessage());
  }
}
