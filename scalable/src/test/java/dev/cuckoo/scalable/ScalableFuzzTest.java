package dev.cuckoo.scalable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.scalable.RedisBloomDump.Chunk;
import dev.cuckoo.testkit.FilterFuzzing;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Fuzzes the two ways bytes from elsewhere become a scalable filter: {@code CuckooFilters.read}
 * on scalable files and payloads ({@link FilterFuzzing#readFile}), and {@link
 * RedisBloomDump#load} on a list of chunks the fuzzer chooses, seeded with the RedisBloom
 * vectors' dumps. Either gives a filter that works or fails with {@link CorruptFilterException}.
 * The normal build replays the inputs under {@code
 * src/test/resources/dev/cuckoo/scalable/ScalableFuzzTestInputs/}; the guide's "Hardening" page
 * has the command for a campaign.
 */
class ScalableFuzzTest {
  /** Small chains of several shapes: RedisBloom's defaults, wide buckets, growing by 2 and 4, never growing. */
  static final List<String> SPECS = List.of(
      "scalable?capacity=16",
      "scalable?capacity=32&bucketSize=4&expansion=2",
      "scalable?capacity=8&bucketSize=1&expansion=4&maxKicks=3",
      "scalable?capacity=64&bucketSize=8&expansion=0",
      "scalable?capacity=20&bucketSize=3&expansion=2&hash=xxh3&seed=5");

  @FuzzTest(maxDuration = "30s")
  void read(byte[] input) {
    FilterFuzzing.readFile(input, SPECS);
  }

  /**
   * The input is a list of chunks, each an 8-byte big-endian iterator, a 2-byte length and that
   * many bytes (fewer if the input ends).
   */
  @FuzzTest(maxDuration = "30s")
  void loadDump(byte[] input) {
    if (input == null) {
      return;
    }
    List<Chunk> chunks = chunksOf(input);
    ScalableCuckooFilter f;
    try {
      f = RedisBloomDump.load(chunks);
    } catch (CorruptFilterException expected) {
      return;
    }
    long size = f.size();
    if (size > 0) {
      ScalableCuckooFilter again;
      try {
        again = RedisBloomDump.load(RedisBloomDump.dump(f));
      } catch (CorruptFilterException e) {
        throw new AssertionError("the dump of a loaded dump does not load", e);
      }
      assertEquals(size, again.size());
      assertEquals(RedisBloomDump.dump(f), RedisBloomDump.dump(again));
    }
    FilterFuzzing.exercise(f, input.length);
    assertTrue(f.subFilterCount() >= 1);
  }

  static List<Chunk> chunksOf(byte[] input) {
    ByteBuffer b = ByteBuffer.wrap(input);
    List<Chunk> chunks = new ArrayList<>();
    while (b.remaining() >= 10) {
      long iterator = b.getLong();
      int length = Math.min(b.getShort() & 0xFFFF, b.remaining());
      byte[] data = new byte[length];
      b.get(data);
      chunks.add(new Chunk(iterator, data));
    }
    return chunks;
  }

  static byte[] inputOf(List<Chunk> chunks) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    for (Chunk c : chunks) {
      out.writeLong(c.iterator());
      out.writeShort(c.data().length);
      out.write(c.data());
    }
    return bytes.toByteArray();
  }

  /** Regenerates the seed inputs: {@code -Dcuckoo.fuzz.seeds=true -Dtest=ScalableFuzzTest#writeSeeds}. */
  @Test
  @EnabledIfSystemProperty(named = "cuckoo.fuzz.seeds", matches = "true")
  void writeSeeds() throws IOException {
    FilterFuzzing.writeReadSeeds(FilterFuzzing.inputsOf(ScalableFuzzTest.class, "read"), SPECS);
    Path dumps = FilterFuzzing.inputsOf(ScalableFuzzTest.class, "loadDump");
    Files.createDirectories(dumps);
    try (Stream<Path> vectors = Files.list(Paths.get("src/test/resources/redisbloom"))) {
      for (Path vector : (Iterable<Path>) vectors.filter(Files::isDirectory).sorted()::iterator) {
        List<Chunk> chunks = new ArrayList<>();
        for (String line : Files.readAllLines(vector.resolve("dump/index.txt"))) {
          String[] f = line.trim().split(" ");
          chunks.add(new Chunk(Long.parseLong(f[0]), Files.readAllBytes(vector.resolve("dump").resolve(f[2]))));
        }
        if (chunks.stream().allMatch(c -> c.data().length <= 0xFFFF)) {
          Files.write(dumps.resolve(vector.getFileName().toString()), inputOf(chunks));
        }
      }
    }
    ScalableCuckooFilter small = ScalableCuckooFilterTest.create("scalable?capacity=8&bucketSize=2&expansion=2");
    for (long k = 0; small.subFilterCount() < 3; k++) {
      small.add(k);
    }
    Files.write(dumps.resolve("three-sub-filters"), inputOf(RedisBloomDump.dump(small)));
  }
}
