package dev.cuckoo.cli;

import static dev.cuckoo.cli.CommandRun.cuckoo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.scalable.RedisBloomDump;
import dev.cuckoo.scalable.RedisBloomDump.Chunk;
import dev.cuckoo.scalable.ScalableCuckooFilter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code export-redis} and {@code import-redis}: the round trip through a dump folder, its layout,
 * the RedisBloom conformance vectors' dumps with their known answers, and every broken folder.
 */
class RedisCommandsTest {
  /** The conformance vectors of module scalable, produced by RedisBloom itself. */
  static final Path VECTORS = Paths.get("../scalable/src/test/resources/redisbloom").toAbsolutePath().normalize();

  @TempDir Path dir;

  static CuckooFilter read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return CuckooFilters.read(in);
    }
  }

  private Path buildScalable(int keys) throws IOException {
    return buildScalable(dir, keys);
  }

  /** @return {@code dir/s.cuckoo}, built by {@code cuckoo build} from the keys {@code key-0 .. key-(keys-1)} */
  static Path buildScalable(Path dir, int keys) throws IOException {
    Path input = Files.write(dir.resolve("keys.txt"), IntStream.range(0, keys).mapToObj(i -> "key-" + i)
        .collect(Collectors.toList()), StandardCharsets.UTF_8);
    Path filter = dir.resolve("s.cuckoo");
    cuckoo("build", "-c", "scalable?capacity=1000&bucketSize=2&expansion=2", "-i", input.toString(),
        "-o", filter.toString(), "-q").ok();
    return filter;
  }

  @Test
  void exportWritesTheDumpAsIndexAndChunkFilesAndImportReadsItBack() throws IOException {
    Path filter = buildScalable(20_000);
    Path dump = dir.resolve("dump");
    CommandRun export = cuckoo("export-redis", filter.toString(), "--out", dump.toString()).ok();

    List<Chunk> expected = RedisBloomDump.dump(read(filter));
    List<String> index = Files.readAllLines(dump.resolve("index.txt"));
    assertEquals(expected.size(), index.size());
    for (int i = 0; i < expected.size(); i++) {
      String file = String.format("%04d.bin", i);
      assertEquals(expected.get(i).iterator() + " " + expected.get(i).data().length + " " + file, index.get(i));
      assertArrayEquals(expected.get(i).data(), Files.readAllBytes(dump.resolve(file)), file);
    }
    try (Stream<Path> files = Files.list(dump)) {
      assertEquals(expected.size() + 1, files.count(), "index.txt and the chunks, nothing else");
    }
    assertEquals(List.of(
            "wrote " + expected.size() + " chunks (" + String.format("%,d", expected.stream().mapToLong(c -> c.data().length).sum())
                + " bytes) and index.txt to " + dump,
            "load them into Redis under a new key with:",
            "  while read it len file; do redis-cli -x CF.LOADCHUNK s \"$it\" < " + dump + "/\"$file\"; done < "
                + dump + "/index.txt"),
        export.outLines());

    Path back = dir.resolve("back.cuckoo");
    CommandRun imported = cuckoo("import-redis", dump.toString(), "--output", back.toString()).ok();
    assertTrue(imported.out().startsWith("wrote " + back + " from " + dump + "\n"), imported.out());
    ScalableCuckooFilter original = (ScalableCuckooFilter) read(filter);
    ScalableCuckooFilter copy = (ScalableCuckooFilter) read(back);
    assertEquals(original.info(), copy.info());
    assertEquals(expected, RedisBloomDump.dump(copy), "the same bytes");
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 20_000; i += 101) {
      keys.add("key-" + i);
    }
    keys.add(0, back.toString());
    keys.add(0, "query");
    assertTrue(cuckoo(keys.toArray(new String[0])).ok().outLines().stream().allMatch(l -> l.endsWith("\tyes")));
    assertEquals(cuckoo("info", filter.toString()).ok().outLines().subList(11, 20),
        cuckoo("info", back.toString()).ok().outLines().subList(11, 20), "the same CF.INFO");
  }

  @Test
  void infoShowsTheRedisInfoOfAScalableFilter() throws IOException {
    Path filter = buildScalable(3_000);
    List<String> lines = cuckoo("info", filter.toString()).ok().outLines();
    assertEquals("CF.INFO", lines.get(11));
    assertEquals("  Number of items inserted   3000", lines.get(15));
    assertTrue(cuckoo("info", "--json", filter.toString()).ok().out().contains(
        "\"cfInfo\": {\"Size\": "), "JSON has CF.INFO too");
  }

  @Test
  void everyVectorDumpImportsWithItsKnownAnswers() throws IOException {
    List<Path> vectors;
    try (Stream<Path> s = Files.list(VECTORS)) {
      vectors = s.filter(p -> Files.isDirectory(p.resolve("dump"))).sorted().collect(Collectors.toList());
    }
    assertEquals(4, vectors.size(), "the vectors in " + VECTORS);
    for (Path vector : vectors) {
      Path out = dir.resolve(vector.getFileName() + ".cuckoo");
      cuckoo("import-redis", vector.resolve("dump").toString(), "-o", out.toString(), "-q").ok();

      String info = Files.readAllLines(vector.resolve("info.txt")).get(0);
      String ours = ((ScalableCuckooFilter) read(out)).info().entrySet().stream()
          .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(" | "));
      assertEquals(info, ours, vector.toString());

      List<String> args = new ArrayList<>(List.of("query", out.toString(), "--"));
      args.addAll(presentAtTheEnd(vector));
      CommandRun run = cuckoo(args.toArray(new String[0])).ok();
      assertEquals(args.size() - 3, run.outLines().size(), vector.toString());
      assertTrue(run.outLines().stream().allMatch(l -> l.endsWith("\tyes")), vector + ": " + run.out());
    }
  }

  /** @return the keys the vector's replies say are stored after its last command */
  private static List<String> presentAtTheEnd(Path vector) throws IOException {
    List<String> ops = Files.readAllLines(vector.resolve("ops.txt"), StandardCharsets.UTF_8);
    List<String> replies = Files.readAllLines(vector.resolve("expected.txt"), StandardCharsets.UTF_8);
    Map<String, Integer> copies = new HashMap<>();
    for (int i = 0; i < ops.size(); i++) {
      String op = ops.get(i);
      String key = op.substring(op.indexOf(' ') + 1);
      if ((op.startsWith("add ") || op.startsWith("addnx ")) && replies.get(i).equals("1")) {
        copies.merge(key, 1, Integer::sum);
      } else if (op.startsWith("del ") && replies.get(i).equals("1")) {
        copies.merge(key, -1, Integer::sum);
      }
    }
    List<String> present = copies.entrySet().stream().filter(e -> e.getValue() > 0).map(Map.Entry::getKey)
        .sorted().collect(Collectors.toList());
    assertFalse(present.isEmpty(), vector.toString());
    return present;
  }

  @Test
  void exportRefusesWhatRedisCannotLoad() throws IOException {
    Path keys = Files.write(dir.resolve("keys.txt"), List.of("a", "b"));
    Path classic = dir.resolve("c.cuckoo");
    cuckoo("build", "-c", "classic?capacity=10", "-i", keys.toString(), "-o", classic.toString(), "-q").ok();
    assertEquals("cuckoo: " + classic + ": cannot be exported to Redis: only filters of variant scalable have a"
        + " RedisBloom dump, not classic", cuckoo("export-redis", classic.toString(), "--out", dir.resolve("d").toString()).error());

    Path otherHash = dir.resolve("h.cuckoo");
    cuckoo("build", "-c", "scalable?capacity=10&hash=xxh3", "-i", keys.toString(), "-o", otherHash.toString(), "-q").ok();
    String error = cuckoo("export-redis", otherHash.toString(), "--out", dir.resolve("d").toString()).error();
    assertTrue(error.startsWith("cuckoo: " + otherHash + ": cannot be exported to Redis: a RedisBloom dump holds"
        + " fingerprints of hash murmur64a"), error);

    Path empty = dir.resolve("e.cuckoo");
    CommandRun built = cuckoo("build", "-c", "scalable?capacity=10", "-i",
        Files.write(dir.resolve("none.txt"), new byte[0]).toString(), "-o", empty.toString(), "-q");
    assertEquals(CuckooCommand.EXIT_OK, built.status());
    assertTrue(built.err().startsWith("cuckoo: warning: "), built.err()); // an empty input is worth a word
    assertEquals("cuckoo: " + empty + ": holds no items, and RedisBloom dumps nothing for an empty filter",
        cuckoo("export-redis", empty.toString(), "--out", dir.resolve("d").toString()).error());
    assertFalse(Files.exists(dir.resolve("d")));
  }

  @Test
  void exportNeverWritesIntoAFolderThatHoldsFiles() throws IOException {
    Path filter = buildScalable(100);
    Path dump = Files.createDirectory(dir.resolve("dump"));
    cuckoo("export-redis", filter.toString(), "--out", dump.toString()).ok(); // empty: fine
    assertEquals("cuckoo: " + dump + ": already exists and is not an empty folder; give a new folder for the dump",
        cuckoo("export-redis", filter.toString(), "--out", dump.toString()).error());
    assertEquals("cuckoo: " + dir.resolve("no/dump") + ": cannot create it: folder " + dir.resolve("no")
        + " does not exist", cuckoo("export-redis", filter.toString(), "--out", dir.resolve("no/dump").toString()).error());
  }

  @Test
  void importNamesWhatIsWrongWithABrokenFolder() throws IOException {
    Path filter = buildScalable(3_000);
    Path dump = dir.resolve("dump");
    cuckoo("export-redis", filter.toString(), "--out", dump.toString()).ok();
    Path index = dump.resolve("index.txt");
    List<String> good = Files.readAllLines(index);
    String out = dir.resolve("x.cuckoo").toString();

    assertEquals("cuckoo: " + dir.resolve("nothere") + ": no such folder",
        cuckoo("import-redis", dir.resolve("nothere").toString(), "-o", out).error());
    assertEquals("cuckoo: " + filter + ": is not a folder; give the folder export-redis wrote",
        cuckoo("import-redis", filter.toString(), "-o", out).error());
    assertEquals("cuckoo: " + dir + ": has no index.txt, so it is not a RedisBloom dump folder (export-redis writes"
        + " index.txt and 0000.bin, 0001.bin, ...)", cuckoo("import-redis", dir.toString(), "-o", out).error());

    Map<String, String> broken = Map.of(
        "1 38", "expected 'ITERATOR LENGTH FILE', found '1 38'",
        "x 38 0000.bin", "iterator 'x' is not a whole number",
        "0 38 0000.bin", "iterator 0 is out of range 1..9223372036854775807",
        "1 0 0000.bin", "length 0 is out of range 1..16777216",
        "1 38 ../s.cuckoo", "file '../s.cuckoo' is not a plain file name inside the folder",
        "1 38 9999.bin", "chunk file " + dump.resolve("9999.bin") + " is missing",
        "1 39 0000.bin", "chunk file " + dump.resolve("0000.bin") + " holds 38 bytes, not the 39 the index gives");
    for (Map.Entry<String, String> b : broken.entrySet()) {
      List<String> lines = new ArrayList<>(good);
      lines.set(0, b.getKey());
      Files.write(index, lines);
      assertEquals("cuckoo: " + index + ":1: " + b.getValue(), cuckoo("import-redis", dump.toString(), "-o", out).error());
    }

    Files.write(index, good.subList(0, good.size() - 1));
    String missing = cuckoo("import-redis", dump.toString(), "-o", out).error();
    assertTrue(missing.startsWith("cuckoo: " + dump + ": not a valid RedisBloom dump: RedisBloom dump holds "),
        missing);
    assertTrue(missing.endsWith(": chunks are missing"), missing);

    Files.write(index, good);
    byte[] header = Files.readAllBytes(dump.resolve("0000.bin"));
    header[24] = (byte) 0xFF; // numFilters: 255, above the 32 RedisBloom allows
    Files.write(dump.resolve("0000.bin"), header);
    assertTrue(cuckoo("import-redis", dump.toString(), "-o", out).error()
        .startsWith("cuckoo: " + dump + ": not a valid RedisBloom dump: "));
    Files.write(index, new byte[0]);
    assertEquals("cuckoo: " + index + ": lists no chunk", cuckoo("import-redis", dump.toString(), "-o", out).error());
    assertFalse(Files.exists(Paths.get(out)), "nothing written by a failed import");
  }
}
