package dev.cuckoo.scalable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.scalable.RedisBloomDump.Chunk;
import dev.cuckoo.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replays the RedisBloom conformance vectors in {@code src/test/resources/redisbloom} (produced
 * by RedisBloom itself; see the README there): every reply, the {@code CF.INFO} fields, the
 * {@code CF.SCANDUMP} chunks byte for byte, and loading those chunks back.
 */
class RedisBloomVectorTest {

  static Stream<String> vectors() throws IOException {
    try (Stream<Path> dirs = Files.list(root())) {
      return dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList().stream();
    }
  }

  @Test
  void allFourVectorsArePresent() throws IOException {
    assertEquals(List.of("cap100-bs4-mi20-ex2", "cap1000-bs2-mi20-ex1", "cap256-bs8-mi500-ex2-dups",
        "cap64-bs1-mi20-ex0"), vectors().toList());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void everyReplyMatches(String vector) throws IOException {
    Replay r = replay(vector);
    assertTrue(r.commands > 1000, vector + ": only " + r.commands + " commands replayed");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void infoMatches(String vector) throws IOException {
    ScalableCuckooFilter f = replay(vector).filter;
    List<String> lines = Files.readAllLines(root().resolve(vector).resolve("info.txt"), StandardCharsets.UTF_8);
    Map<String, Long> expected = new LinkedHashMap<>();
    for (String field : lines.get(0).split("\\|")) {
      String t = field.strip();
      int space = t.lastIndexOf(' ');
      expected.put(t.substring(0, space), Long.parseLong(t.substring(space + 1)));
    }
    assertEquals(expected, f.info(), vector);
    List<String> subs = lines.subList(1, lines.size()).stream().filter(l -> !l.isBlank()).toList();
    assertEquals(subs.size(), f.subFilterCount(), vector);
    for (int i = 0; i < subs.size(); i++) {
      String expectedLine = "sub[" + i + "] numBuckets=" + f.subFilterBuckets(i) + " bytes="
          + f.subFilterBuckets(i) * f.spec().bucketSize().getAsInt();
      assertEquals(subs.get(i).strip(), expectedLine, vector);
    }
    assertEquals(expected.get("Number of items inserted"), f.size(), vector);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void dumpIsTheScanDumpByteForByte(String vector) throws IOException {
    ScalableCuckooFilter f = replay(vector).filter;
    List<Chunk> expected = chunks(vector);
    List<Chunk> actual = RedisBloomDump.dump(f);
    assertEquals(expected.size(), actual.size(), vector + ": chunk count");
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.get(i).iterator(), actual.get(i).iterator(), vector + ": iterator of chunk " + i);
      assertArrayEquals(expected.get(i).data(), actual.get(i).data(), vector + ": bytes of chunk " + i);
    }
    Chunk last = RedisBloomDump.scanDump(f, expected.get(expected.size() - 1).iterator());
    assertEquals(new Chunk(0, new byte[0]), last, vector + ": end of the dump");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void loadingTheChunksInAnyOrderAnswersLikeTheReplayedFilter(String vector) throws IOException {
    Replay r = replay(vector);
    List<Chunk> chunks = chunks(vector);
    List<List<Chunk>> orders = new ArrayList<>();
    orders.add(chunks);
    List<Chunk> reversed = new ArrayList<>(chunks);
    Collections.reverse(reversed);
    orders.add(reversed);
    SplittableRandom random = TestSeed.random("chunk orders and probes " + vector);
    Random shuffler = new Random(random.nextLong()); // Collections.shuffle takes only a Random
    for (int i = 0; i < 3; i++) {
      List<Chunk> shuffled = new ArrayList<>(chunks);
      Collections.shuffle(shuffled, shuffler);
      orders.add(shuffled);
    }
    List<byte[]> probes = probes(r, random);
    for (List<Chunk> order : orders) {
      ScalableCuckooFilter loaded = RedisBloomDump.load(order);
      assertEquals(r.filter.info(), loaded.info(), vector + ": CF.INFO after load");
      assertEquals(r.filter.spec().bucketSize(), loaded.spec().bucketSize(), vector);
      assertEquals(r.filter.spec().maxKicks(), loaded.spec().maxKicks(), vector);
      assertEquals(r.filter.spec().option("expansion"), loaded.spec().option("expansion"), vector);
      assertSameAnswers(r.filter, loaded, probes, vector + " loaded from " + order + ", " + TestSeed.rerun());
      assertEquals(chunks, RedisBloomDump.dump(loaded), vector + ": dump of the loaded filter");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void theCommonFileFormatKeepsEverything(String vector) throws IOException {
    Replay r = replay(vector);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    r.filter.writeTo(out);
    CuckooFilter read = CuckooFilters.read(new ByteArrayInputStream(out.toByteArray()));
    assertTrue(read instanceof ScalableCuckooFilter, vector);
    assertEquals(r.filter.spec(), read.spec(), vector);
    assertEquals(r.filter.info(), ((ScalableCuckooFilter) read).info(), vector);
    assertSameAnswers(r.filter, read, probes(r, TestSeed.random("probes after write/read " + vector)),
        vector + " after write/read, " + TestSeed.rerun());
    assertEquals(chunks(vector), RedisBloomDump.dump(read), vector + ": dump after write/read");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void replayingOnALoadedFilterContinuesIdentically(String vector) throws IOException {
    // Replay the first half, dump and load, replay the rest on the loaded filter: the replies and
    // the final dump must still be RedisBloom's (the loaded filter carries numDeletes too).
    Replay full = replay(vector);
    int half = full.commands / 2;
    Replay split = replay(vector, half);
    assertEquals(chunks(vector), RedisBloomDump.dump(split.filter), vector);
  }

  // ---------------------------------------------------------------- replay

  /** A replayed filter and every key its commands named. */
  private static final class Replay {
    ScalableCuckooFilter filter;
    final List<byte[]> keys = new ArrayList<>();
    int commands;
  }

  private static Replay replay(String vector) throws IOException {
    return replay(vector, -1);
  }

  /**
   * Runs ops.txt against a new filter, asserting each reply; after {@code reloadAfter} commands
   * (if not -1) the filter is dumped and loaded, and the rest runs on the loaded one.
   */
  private static Replay replay(String vector, int reloadAfter) throws IOException {
    Path dir = root().resolve(vector);
    List<byte[]> ops = lines(Files.readAllBytes(dir.resolve("ops.txt")));
    List<String> replies = Files.readAllLines(dir.resolve("expected.txt"), StandardCharsets.UTF_8);
    assertEquals(ops.size(), replies.size(), vector + ": ops and expected replies");
    Replay r = new Replay();
    for (int line = 0; line < ops.size(); line++) {
      byte[] op = ops.get(line);
      int space = indexOf(op, (byte) ' ');
      String command = new String(op, 0, space < 0 ? op.length : space, StandardCharsets.US_ASCII);
      byte[] key = space < 0 ? new byte[0] : Arrays.copyOfRange(op, space + 1, op.length);
      String where = vector + " line " + (line + 1) + ": " + new String(op, StandardCharsets.UTF_8);
      String reply;
      if (command.equals("reserve")) {
        String[] a = new String(key, StandardCharsets.US_ASCII).split(" ");
        r.filter = (ScalableCuckooFilter) CuckooFilters.create("scalable?capacity=" + a[0] + "&bucketSize=" + a[1]
            + "&maxKicks=" + a[2] + "&expansion=" + a[3]);
        reply = "OK";
      } else {
        r.keys.add(key);
        reply = apply(r.filter, command, key, where);
      }
      assertEquals(replies.get(line).strip(), reply, where);
      r.commands++;
      if (r.commands == reloadAfter && r.filter.size() > 0) {
        r.filter = RedisBloomDump.load(RedisBloomDump.dump(r.filter));
      }
    }
    return r;
  }

  private static String apply(ScalableCuckooFilter f, String command, byte[] key, String where) {
    return switch (command) {
      case "add" -> f.add(key) ? "1" : "-1";
      case "addnx" -> {
        boolean present = f.mightContain(key);
        boolean added = f.addIfAbsent(key);
        assertFalse(present && added, where + ": addIfAbsent added a present key");
        yield added ? "1" : present ? "0" : "-1";
      }
      case "exists" -> f.mightContain(key) ? "1" : "0";
      case "count" -> Long.toString(f.count(key));
      case "del" -> f.remove(key) ? "1" : "0";
      default -> fail(where + ": unknown command " + command);
    };
  }

  private static void assertSameAnswers(CuckooFilter expected, CuckooFilter actual, List<byte[]> probes, String where) {
    assertEquals(expected.size(), actual.size(), where + ": size");
    for (byte[] k : probes) {
      if (expected.mightContain(k) != actual.mightContain(k) || expected.count(k) != actual.count(k)) {
        fail(where + ": answers differ for key " + new String(k, StandardCharsets.UTF_8));
      }
    }
  }

  /** @return every key of the ops, and as many random ones */
  private static List<byte[]> probes(Replay r, SplittableRandom random) {
    List<byte[]> probes = new ArrayList<>(r.keys);
    for (int i = 0; i < r.keys.size(); i++) {
      byte[] k = new byte[random.nextInt(16)];
      random.nextBytes(k);
      probes.add(k);
    }
    return probes;
  }

  static List<Chunk> chunks(String vector) throws IOException {
    Path dump = root().resolve(vector).resolve("dump");
    List<Chunk> chunks = new ArrayList<>();
    for (String line : Files.readAllLines(dump.resolve("index.txt"), StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.strip().split("\\s+");
      byte[] data = Files.readAllBytes(dump.resolve(f[2]));
      assertEquals(Integer.parseInt(f[1]), data.length, vector + ": length of " + f[2]);
      chunks.add(new Chunk(Long.parseLong(f[0]), data));
    }
    return chunks;
  }

  private static List<byte[]> lines(byte[] text) {
    List<byte[]> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= text.length; i++) {
      if (i == text.length || text[i] == '\n') {
        if (i > start || i < text.length) {
          lines.add(Arrays.copyOfRange(text, start, i));
        }
        start = i + 1;
      }
    }
    return lines;
  }

  private static int indexOf(byte[] a, byte b) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] == b) {
        return i;
      }
    }
    return -1;
  }

  static Path root() {
    try {
      return Path.of(RedisBloomVectorTest.class.getResource("/redisbloom").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
