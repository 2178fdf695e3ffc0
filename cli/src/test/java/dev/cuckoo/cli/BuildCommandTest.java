package dev.cuckoo.cli;

import static dev.cuckoo.cli.CommandRun.cuckoo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cuckoo build}: input formats, configs, refused adds, and what gets written. */
class BuildCommandTest {
  @TempDir Path dir;

  private Path write(String name, String text) throws IOException {
    return Files.write(dir.resolve(name), text.getBytes(StandardCharsets.UTF_8));
  }

  private static CuckooFilter read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return CuckooFilters.read(in);
    }
  }

  private static String lines(int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> "key-" + i + "\n").collect(Collectors.joining());
  }

  @Test
  void linesLoseTheirLineEndsAndBlankLinesAreSkipped() throws IOException {
    Path keys = write("keys.txt", "\uFEFFalpha\r\n\r\n beta \n\ngamma\u00e9\n\ndelta");
    Path out = dir.resolve("f.cuckoo");
    CommandRun run = cuckoo("build", "-c", "classic?capacity=100", "-i", keys.toString(), "-o", out.toString()).ok();
    assertTrue(run.out().startsWith("wrote " + out + ": 4 keys from " + keys), run.out());
    assertTrue(run.out().contains("\nskipped 3 blank lines\n"), run.out());
    CuckooFilter f = read(out);
    assertEquals(4, f.size());
    for (String key : List.of("alpha", " beta ", "gamma\u00e9", "delta")) {
      assertTrue(f.mightContain(key), key);
    }
    assertEquals(List.of("alpha\tyes", " beta \tyes", "gamma\u00e9\tyes", "delta\tyes"),
        cuckoo("query", out.toString(), "alpha", " beta ", "gamma\u00e9", "delta").ok().outLines());
  }

  @Test
  void binaryRecordsAreKeysOfTheirBytes() throws IOException {
    ByteBuffer records = ByteBuffer.allocate(8 * 1000).order(ByteOrder.LITTLE_ENDIAN);
    for (long k = 0; k < 1000; k++) {
      records.putLong(k * 31);
    }
    Path keys = Files.write(dir.resolve("keys.bin"), records.array());
    Path out = dir.resolve("f.cuckoo");
    cuckoo("build", "-c", "classic?capacity=1000", "-i", keys.toString(), "-o", out.toString(),
        "--binary", "--record-size", "8", "-q").ok();
    CuckooFilter f = read(out);
    assertEquals(1000, f.size());
    for (long k = 0; k < 1000; k++) {
      assertTrue(f.mightContain(k * 31), "a long key is its 8 little-endian bytes: " + k * 31);
    }
    Path queries = Files.write(dir.resolve("q.bin"), new byte[] {31, 0, 0, 0, 0, 0, 0, 0});
    assertEquals(List.of("1f00000000000000\tyes"), cuckoo("query", out.toString(), "--input", queries.toString(),
        "--binary", "--record-size", "8").ok().outLines());
  }

  @Test
  void aPartialRecordIsAnError() throws IOException {
    Path keys = Files.write(dir.resolve("keys.bin"), new byte[20]);
    String error = cuckoo("build", "-c", "classic?capacity=10", "-i", keys.toString(), "-o",
        dir.resolve("f.cuckoo").toString(), "--binary", "--record-size", "8").error();
    assertEquals("cuckoo: " + keys + ": ends inside a record: its 20 bytes are not a whole number of 8-byte"
        + " records (--record-size 8); 4 bytes are left over", error);
    assertFalse(Files.exists(dir.resolve("f.cuckoo")));
    String fromStdin = CommandRun.withStdin(new byte[20], "build", "-c", "classic?capacity=10", "-i", "-", "-o",
        dir.resolve("f.cuckoo").toString(), "--binary", "--record-size", "8").error();
    assertTrue(fromStdin.startsWith("cuckoo: stdin: ends inside a record"), fromStdin);
  }

  @Test
  void binaryOptionsGoTogether() throws IOException {
    Path keys = write("keys.txt", "a\n");
    String out = dir.resolve("f.cuckoo").toString();
    assertEquals("cuckoo: --binary needs --record-size N, the size of every key in bytes",
        cuckoo("build", "-c", "classic?capacity=10", "-i", keys.toString(), "-o", out, "--binary").error());
    assertEquals("cuckoo: --record-size is for binary input: add --binary",
        cuckoo("build", "-c", "classic?capacity=10", "-i", keys.toString(), "-o", out, "--record-size", "4").error());
    assertEquals("cuckoo: --record-size 0 is out of range: 1..1048576",
        cuckoo("build", "-c", "classic?capacity=10", "-i", keys.toString(), "-o", out, "--binary", "--record-size", "0").error());
  }

  @Test
  void aLineOverAMebibyteIsAnError() throws IOException {
    Path keys = Files.write(dir.resolve("keys.txt"), ("a\n" + "x".repeat(KeyReader.MAX_LINE_BYTES + 1) + "\n")
        .getBytes(StandardCharsets.UTF_8));
    assertEquals("cuckoo: " + keys + ":2: line longer than 1 MiB; for binary keys use --binary --record-size N",
        cuckoo("build", "-c", "classic?capacity=10", "-i", keys.toString(), "-o", dir.resolve("f.cuckoo").toString()).error());
  }

  @Test
  void keysFromStandardInput() throws IOException {
    Path out = dir.resolve("f.cuckoo");
    CommandRun run = CommandRun.withStdin(CommandRun.utf8(lines(0, 500)), "build", "-c", "classic?capacity=500",
        "-i", "-", "-o", out.toString()).ok();
    assertTrue(run.out().startsWith("wrote " + out + ": 500 keys from - in "), run.out());
    assertEquals(500, read(out).size());
  }

  @Test
  void aConfigFromAPropertiesFile() throws IOException {
    Path keys = write("keys.txt", lines(0, 100));
    Path props = write("filter.properties", "cuckoo.variant=classic\ncuckoo.capacity=200\ncuckoo.fingerprintBits=10\n");
    Path out = dir.resolve("f.cuckoo");
    cuckoo("build", "--config-file", props.toString(), "-i", keys.toString(), "-o", out.toString(), "-q").ok();
    assertEquals(CuckooFilters.create("classic?capacity=200&fingerprintBits=10").spec(), read(out).spec());

    Path bare = write("bare.properties", "variant=classic\ncapacity=300\n");
    cuckoo("build", "--config-file", bare.toString(), "--config-prefix", "", "-i", keys.toString(), "-o", out.toString(), "-q").ok();
    assertEquals(300, read(out).spec().capacity().getAsLong());

    assertEquals("cuckoo: bad config in " + bare + ": property cuckoo.variant is missing: it names the variant,"
            + " e.g. cuckoo.variant=classic",
        cuckoo("build", "--config-file", bare.toString(), "-i", keys.toString(), "-o", out.toString()).error());
  }

  @Test
  void configAndConfigFileExcludeEachOther() throws IOException {
    Path keys = write("keys.txt", "a\n");
    String error = cuckoo("build", "-c", "classic?capacity=10", "--config-file", "x.properties", "-i", keys.toString(),
        "-o", dir.resolve("f.cuckoo").toString()).error();
    assertTrue(error.contains("mutually exclusive"), error);
  }

  @Test
  void theOutputReplacesAnOldFileAndLeavesNoTemporaryFile() throws IOException {
    Path keys = write("keys.txt", lines(0, 10));
    Path out = write("f.cuckoo", "old");
    cuckoo("build", "-c", "classic?capacity=10", "-i", keys.toString(), "-o", out.toString(), "-q").ok();
    assertEquals(10, read(out).size());
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of("f.cuckoo", "keys.txt"), files.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList()));
    }
  }

  @Test
  void aRefusedAddStopsWritesNothingAndSuggestsAConfigThatTakesTheInput() throws IOException {
    Path keys = write("keys.txt", lines(0, 5_000));
    Path out = dir.resolve("f.cuckoo");
    CommandRun run = cuckoo("build", "-c", "classic?capacity=1000&fingerprintBits=8", "-i", keys.toString(), "-o", out.toString());
    assertEquals(CuckooCommand.EXIT_INCOMPLETE, run.status());
    assertEquals("", run.out());
    assertFalse(Files.exists(out), "nothing written");
    String[] err = run.err().split("\n");
    assertEquals(3, err.length, run.err());
    assertTrue(err[0].matches("cuckoo: " + Pattern.quote(keys.toString())
        + ":\\d+: the filter refused this key after storing [\\d,]+ keys \\(load \\d+\\.\\d% of [\\d,]+ slots\\)"), err[0]);
    assertEquals("cuckoo: the input holds 5,000 keys, more than the capacity of 1,000: a filter that takes them is"
        + " --config 'classic?capacity=5500&fingerprintBits=8'", err[1]);
    assertEquals("cuckoo: nothing written to " + out + " (--on-refusal write keeps the keys stored so far,"
        + " --on-refusal skip goes on past refused keys)", err[2]);

    Matcher suggested = Pattern.compile("--config '([^']+)'").matcher(err[1]);
    assertTrue(suggested.find());
    cuckoo("build", "-c", suggested.group(1), "-i", keys.toString(), "-o", out.toString(), "-q").ok();
    assertEquals(5_000, read(out).size());
  }

  @Test
  void onRefusalWriteKeepsTheKeysStoredBeforeIt() throws IOException {
    Path keys = write("keys.txt", lines(0, 5_000));
    Path out = dir.resolve("f.cuckoo");
    CommandRun run = cuckoo("build", "-c", "classic?capacity=1000", "-i", keys.toString(), "-o", out.toString(),
        "--on-refusal", "write");
    assertEquals(CuckooCommand.EXIT_INCOMPLETE, run.status());
    CuckooFilter f = read(out);
    int refusedLine = Integer.parseInt(run.err().replaceFirst("(?s)^cuckoo: [^\n]*keys\\.txt:(\\d+):.*", "$1"));
    assertEquals(refusedLine - 1, f.size());
    for (int i = 0; i < refusedLine - 1; i++) {
      assertTrue(f.mightContain("key-" + i));
    }
    assertTrue(run.err().contains("\ncuckoo: wrote " + out + " without " + String.format("%,d", 5_000 - refusedLine + 1)
        + " keys from " + keys + ":" + refusedLine + " on\n"), run.err());
    assertTrue(run.out().startsWith("wrote " + out + ": "), run.out());
  }

  @Test
  void onRefusalSkipGoesOnAndCountsTheRefusedKeys() throws IOException {
    Path keys = write("keys.txt", lines(0, 3_000));
    Path out = dir.resolve("f.cuckoo");
    CommandRun run = cuckoo("build", "-c", "classic?capacity=1000", "-i", keys.toString(), "-o", out.toString(),
        "--on-refusal", "SKIP", "--quiet");
    assertEquals(CuckooCommand.EXIT_INCOMPLETE, run.status());
    assertEquals("", run.out());
    long stored = read(out).size();
    assertTrue(run.err().contains("\ncuckoo: wrote " + out + " without " + String.format("%,d", 3_000 - stored)
        + " refused keys: query answers no for most of them\n"), run.err());
  }

  @Test
  void tooManyCopiesOfOneKeyPointsToDistinct() throws IOException {
    Path keys = write("keys.txt", "same\n".repeat(100));
    Path out = dir.resolve("f.cuckoo");
    CommandRun run = cuckoo("build", "-c", "classic?capacity=1000", "-i", keys.toString(), "-o", out.toString());
    assertEquals(CuckooCommand.EXIT_INCOMPLETE, run.status());
    assertTrue(run.err().matches("(?s).*\ncuckoo: the filter holds \\d+ copies of that key already, and all copies of a"
        + " key go to its 2 buckets of 4 slots: use --distinct to add each key once\n.*"), run.err());

    CommandRun distinct = cuckoo("build", "-c", "classic?capacity=1000", "-i", keys.toString(), "-o", out.toString(),
        "--distinct").ok();
    assertTrue(distinct.out().contains("\nskipped 99 keys already present (--distinct)\n"), distinct.out());
    assertEquals(1, read(out).size());
  }

  /**
   * The advice after a refusal is a config that takes the input: tried on it before it is given,
   * for shapes that cannot reach their nominal capacity (a scalable filter that never grows, at
   * RedisBloom's sizing and kick limit) and for the setting that causes the refusal (maxKicks=0).
   */
  @Test
  void theConfigSuggestedAfterARefusalTakesTheInput() throws IOException {
    Path keys = write("words.txt", lines(0, 104_000));
    for (String config : List.of("scalable?capacity=4096&expansion=0", "classic?capacity=4096&maxKicks=0",
        "classic?capacity=104000&maxKicks=0", "scalable?capacity=4096&expansion=0&bucketSize=1")) {
      Path out = dir.resolve("f.cuckoo");
      CommandRun run = cuckoo("build", "-c", config, "-i", keys.toString(), "-o", out.toString());
      assertEquals(CuckooCommand.EXIT_INCOMPLETE, run.status(), config + ": " + run.err());
      Matcher suggested = Pattern.compile("a filter that takes them is --config '([^']+)'\n").matcher(run.err());
      assertTrue(suggested.find(), config + ": " + run.err());
      if (config.contains("maxKicks=0")) {
        assertFalse(suggested.group(1).contains("maxKicks"), config + ": " + run.err());
        assertTrue(run.err().contains("maxKicks=0"), "says the cause: " + run.err());
      }
      cuckoo("build", "-c", suggested.group(1), "-i", keys.toString(), "-o", out.toString(), "-q").ok();
      assertEquals(104_000, read(out).size(), config);
    }
  }

  @Test
  void adviceForKeysFromStandardInputSaysItWasNotTried() throws IOException {
    CommandRun run = CommandRun.withStdin(CommandRun.utf8(lines(0, 1_000)), "build", "-c",
        "classic?capacity=1000&maxKicks=0", "-i", "-", "-o", dir.resolve("f.cuckoo").toString());
    assertEquals(CuckooCommand.EXIT_INCOMPLETE, run.status());
    assertTrue(run.err().contains("\ncuckoo: the input holds 1,000 keys, within the capacity of 1,000, but maxKicks=0"
        + " refuses a key as soon as its two buckets are full: a filter that takes them is likely --config"
        + " 'classic?capacity=1000' (not tried: stdin cannot be read again)\n"), run.err());
  }

  @Test
  void progressIsDrawnOnStandardErrorOnlyWhenAsked() throws IOException {
    ProgressBarTest.assertLineShape(ProgressBar.line(500_000, 5_000_000, 10_000_000, 2_000_000_000L));
    Path keys = write("keys.txt", lines(0, 100));
    CommandRun quiet = cuckoo("build", "-c", "classic?capacity=100", "-i", keys.toString(), "-o",
        dir.resolve("f.cuckoo").toString(), "--progress", "--quiet").ok();
    assertEquals("", quiet.out());
  }

  @Test
  void everyInstalledVariantBuildsAndAnswers() throws IOException {
    Path keys = write("keys.txt", lines(0, 2_000));
    for (String variant : CuckooFilters.variants()) {
      Path out = dir.resolve(variant + ".cuckoo");
      cuckoo("build", "-c", variant + "?capacity=2000", "-i", keys.toString(), "-o", out.toString(), "-q").ok();
      assertEquals(2_000, read(out).size(), variant);
      assertEquals(List.of("key-0\tyes", "key-1999\tyes"),
          cuckoo("query", out.toString(), "key-0", "key-1999").ok().outLines(), variant);
      assertTrue(cuckoo("info", out.toString()).ok().out().contains("\nvariant       " + variant + " ("), variant);
    }
  }
  @Test
  void anEmptyInputIsWrittenWithAWarning() throws IOException {
    Path keys = write("empty.txt", "\n\n");
    Path out = dir.resolve("f.cuckoo");
    CommandRun run = cuckoo("build", "-c", "classic?capacity=100", "-i", keys.toString(), "-o", out.toString(), "-q");
    assertEquals(CuckooCommand.EXIT_OK, run.status());
    assertEquals("cuckoo: warning: " + keys + " holds no keys (2 blank lines): the filter written is empty\n", run.err());
    assertEquals(0, read(out).size());
  }

  @Test
  void linesThatAreNotUtf8AreCountedAndPointToBinary() throws IOException {
    byte[] input = new byte[4_000];
    new java.util.SplittableRandom(7).nextBytes(input);
    for (int i = 40; i < input.length; i += 40) {
      input[i] = '\n';
    }
    Path keys = Files.write(dir.resolve("keys.bin"), input);
    Path out = dir.resolve("f.cuckoo");
    CommandRun run = cuckoo("build", "-c", "classic?capacity=1000", "-i", keys.toString(), "-o", out.toString(), "-q");
    assertEquals(CuckooCommand.EXIT_OK, run.status(), run.err());
    Matcher warning = Pattern.compile("cuckoo: warning: ([\\d,]+) of the ([\\d,]+) lines of " + Pattern.quote(keys.toString())
        + " are not valid UTF-8 text \\(the first: line 1\\): if the keys are binary, read them with --binary"
        + " --record-size N\n").matcher(run.err());
    assertTrue(warning.matches(), run.err());
    long lines = read(out).size();
    assertTrue(Long.parseLong(warning.group(1).replace(",", "")) > lines / 2, run.err());

    Path text = write("keys.txt", "caf\u00e9\nplain\n");
    cuckoo("build", "-c", "classic?capacity=100", "-i", text.toString(), "-o", out.toString(), "-q").ok();
  }
}
