package dev.cuckoo.cli;

import static dev.cuckoo.cli.CommandRun.cuckoo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command end to end on a real file of a million lines: build, then query, info and the
 * exit statuses scripts rely on.
 */
class MillionKeysTest {
  static final int KEYS = 1_000_000;
  static final String CONFIG = "classic?capacity=1000000&fingerprintBits=16";

  @TempDir static Path dir;
  static Path keys;
  static Path filter;
  static CommandRun build;

  static String key(int i) {
    return "user-" + i + "@example.com";
  }

  @BeforeAll
  static void buildFromAMillionLines() throws IOException {
    keys = dir.resolve("keys.txt");
    try (BufferedWriter w = Files.newBufferedWriter(keys, StandardCharsets.UTF_8)) {
      for (int i = 0; i < KEYS; i++) {
        w.write(key(i));
        w.write('\n');
      }
    }
    filter = dir.resolve("keys.cuckoo");
    build = cuckoo("build", "--config", CONFIG, "--input", keys.toString(), "--output", filter.toString());
  }

  @Test
  void buildStoresEveryLineAndSummarizes() throws IOException {
    build.ok();
    assertTrue(build.out().startsWith("wrote " + filter + ": 1,000,000 keys from " + keys + " in "), build.out());
    assertTrue(build.out().contains("items         1,000,000\n"), build.out());
    CuckooFilter read;
    try (InputStream in = Files.newInputStream(filter)) {
      read = CuckooFilters.read(in);
    }
    assertEquals(KEYS, read.size());
    assertEquals(CuckooFilters.create(CONFIG).spec(), read.spec());
    for (int i = 0; i < KEYS; i += 997) {
      assertTrue(read.mightContain(key(i)), key(i));
    }
  }

  @Test
  void queryOfPresentKeysSaysYesAndExitsZero() {
    CommandRun run = cuckoo("query", filter.toString(), key(0), key(KEYS / 2), key(KEYS - 1)).ok();
    assertEquals(List.of(key(0) + "\tyes", key(KEYS / 2) + "\tyes", key(KEYS - 1) + "\tyes"), run.outLines());
  }

  @Test
  void queryOfAnAbsentKeySaysNoAndExitsOne() {
    CommandRun run = cuckoo("query", filter.toString(), key(7), "nobody@example.com");
    assertEquals(CuckooCommand.EXIT_INCOMPLETE, run.status());
    assertEquals(List.of(key(7) + "\tyes", "nobody@example.com\tno"), run.outLines());
    assertEquals("", run.err());
  }

  @Test
  void queryReadsKeysFromAFileAndFindsEveryStoredOne() throws IOException {
    Path queries = dir.resolve("queries.txt");
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      lines.add(i % 2 == 0 ? key(i * 400) : "absent-" + i);
    }
    Files.write(queries, lines, StandardCharsets.UTF_8);
    CommandRun run = cuckoo("query", filter.toString(), "--input", queries.toString());
    assertEquals(CuckooCommand.EXIT_INCOMPLETE, run.status());
    List<String> out = run.outLines();
    assertEquals(lines.size(), out.size());
    int falsePositives = 0;
    for (int i = 0; i < lines.size(); i++) {
      String[] answer = out.get(i).split("\t");
      assertEquals(lines.get(i), answer[0]);
      if (i % 2 == 0) {
        assertEquals("yes", answer[1], "a stored key is never absent: " + lines.get(i));
      } else if (answer[1].equals("yes")) {
        falsePositives++;
      }
    }
    assertTrue(falsePositives < 20, falsePositives + " false positives of 1000 with 16-bit fingerprints");
  }

  @Test
  void queryReadsStandardInputAndAnswersQuietlyByStatus() {
    CommandRun all = CommandRun.withStdin(CommandRun.utf8(key(1) + "\n" + key(2) + "\n"),
        "query", "--quiet", filter.toString(), "--input", "-").ok();
    assertEquals("", all.out());
    CommandRun some = CommandRun.withStdin(CommandRun.utf8(key(1) + "\nnobody\n"), "query", "-q", filter.toString(), "-i", "-");
    assertEquals(CuckooCommand.EXIT_INCOMPLETE, some.status());
    assertEquals("", some.out());
  }

  @Test
  void queryCountsCopies() {
    CommandRun run = cuckoo("query", "--count", filter.toString(), key(3), "nobody");
    assertEquals(CuckooCommand.EXIT_INCOMPLETE, run.status());
    assertEquals(List.of(key(3) + "\t1", "nobody\t0"), run.outLines());
  }

  @Test
  void infoDescribesTheFilter() throws IOException {
    CuckooFilter expected = CuckooFilters.create(CONFIG);
    CommandRun run = cuckoo("info", filter.toString()).ok();
    List<String> lines = run.outLines();
    assertEquals("file          " + filter + " (" + String.format("%,d", Files.size(filter)) + " bytes)", lines.get(0));
    assertEquals("format        version 3 (maps: query and info open it without reading its table)", lines.get(1));
    assertTrue(lines.get(2).startsWith("variant       classic ("), lines.get(2));
    assertEquals("spec          " + expected.spec(), lines.get(3));
    assertEquals("items         1,000,000", lines.get(4));
    assertEquals("capacity      1,000,000 items", lines.get(5));
    assertEquals(String.format("slots         %,d", expected.slots()), lines.get(6));
    assertTrue(lines.get(7).matches("load          \\d+\\.\\d%"), lines.get(7));
    assertTrue(lines.get(8).matches("bits/item     1[67]\\.\\d\\d"), lines.get(8));
    // info maps the file: its table is the file's words, without the padding word of one on the heap
    assertEquals(String.format("sizeInBytes   %,d", expected.sizeInBytes() - Long.BYTES), lines.get(9));
    assertTrue(lines.get(10).matches("expected FPP  0\\.000\\d+ \\(about 1 in [\\d,]+\\)"), lines.get(10));
    assertEquals(11, lines.size());
  }

  @Test
  void infoAsJson() throws IOException {
    String json = cuckoo("info", "--json", filter.toString()).ok().out().strip();
    assertTrue(json.startsWith("{\"file\": \"" + filter + "\", \"fileBytes\": " + Files.size(filter)
        + ", \"formatVersion\": 3, \"maps\": true, \"variant\": \"classic\", "), json);
    assertTrue(json.contains("\"spec\": \"" + CuckooFilters.create(CONFIG).spec() + "\""), json);
    assertTrue(json.contains("\"items\": 1000000, \"capacity\": 1000000, \"slots\": "), json);
    assertTrue(json.endsWith("}"), json);
  }
}
