package dev.cuckoo.cli;

import static dev.cuckoo.cli.CommandRun.cuckoo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code query} and {@code info} on mapped files, {@code convert}, and {@code build --in-place}. */
class MappedCommandsTest {
  @TempDir Path dir;

  private Path keys(int n) throws IOException {
    String text = IntStream.range(0, n).mapToObj(i -> "key-" + i + "\n").collect(Collectors.joining());
    return Files.write(dir.resolve("keys.txt"), text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void buildInPlaceWritesAFileThatOpensMappedWithEveryKey() throws IOException {
    Path out = dir.resolve("f.cuckoo");
    CommandRun run = cuckoo("build", "--in-place", "-c", "classic?capacity=5000", "-i", keys(3000).toString(), "-o",
        out.toString()).ok();
    assertTrue(run.out().startsWith("wrote " + out + ": 3,000 keys"), run.out());
    try (MappedFilter f = CuckooFilters.open(out)) {
      assertEquals(3000, f.size());
      for (int i = 0; i < 3000; i++) {
        assertTrue(f.mightContain("key-" + i));
      }
      f.verify();
    }
    try (var files = Files.list(dir)) {
      assertEquals(List.of("f.cuckoo", "keys.txt"), files.map(p -> p.getFileName().toString()).sorted().toList(),
          "no temporary file left");
    }
    assertEquals(List.of("key-7\tyes"), cuckoo("query", out.toString(), "key-7").ok().outLines());
  }

  @Test
  void buildInPlaceOfAVariantThatDoesNotMapSaysWhichDo() throws IOException {
    String error = cuckoo("build", "--in-place", "-c", "scalable?capacity=5000", "-i", keys(10).toString(), "-o",
        dir.resolve("f.cuckoo").toString()).error();
    assertTrue(error.contains("is not mapped") && error.contains("classic, semi-sorted"), error);
    assertFalse(error.contains("CuckooFilters"), "no Java API in a command's error: " + error);
  }

  /** A refused build in place is advised about the file it builds, tried in place, never about the heap. */
  @Test
  void aRefusedBuildInPlaceIsAdvisedAConfigTriedInAFile() throws IOException {
    Path out = dir.resolve("f.cuckoo");
    CommandRun run = cuckoo("build", "--in-place", "-c", "classic?capacity=1000&fingerprintBits=16", "-i",
        keys(5000).toString(), "-o", out.toString());
    assertEquals(CuckooCommand.EXIT_INCOMPLETE, run.status(), run.err());
    assertTrue(run.err().contains("a filter that takes them is --config 'classic?capacity=5500&fingerprintBits=16'"),
        run.err());
    assertFalse(run.err().contains("heap"), run.err());
    assertEquals(List.of("keys.txt"), listing(), "nothing written, no temporary file left");
  }

  /** A build on the heap that the heap cannot hold names --in-place and JAVA_OPTS, not the Java API. */
  @Test
  void aBuildTheHeapCannotHoldNamesInPlaceAndTheHeapOption() throws IOException {
    long max = Runtime.getRuntime().maxMemory();
    // 32-bit fingerprints in buckets of 4: about 4.15 bytes a key, so this needs about 1.3 times the heap
    long capacity = (long) (max * 1.3 / 4.15);
    String error = cuckoo("build", "-c", "classic?fingerprintBits=32&capacity=" + capacity, "-i", keys(10).toString(),
        "-o", dir.resolve("f.cuckoo").toString()).error();
    assertTrue(error.contains("--in-place") && error.contains("JAVA_OPTS=-Xmx"), error);
    assertFalse(error.contains("CuckooFilters"), error);
    // past one Java array: no heap would do, and the error says so
    String pastAnArray = cuckoo("build", "-c", "classic?fingerprintBits=16&capacity=20000000000", "-i",
        keys(10).toString(), "-o", dir.resolve("f.cuckoo").toString()).error();
    assertTrue(pastAnArray.contains("one Java array") && pastAnArray.contains("--in-place"), pastAnArray);
    assertFalse(pastAnArray.contains("CuckooFilters"), pastAnArray);
  }

  @Test
  void infoTellsTheFormatVersionWhetherItMapsAndWhatVerifyChecked() throws IOException {
    Path classic = dir.resolve("c.cuckoo");
    cuckoo("build", "-c", "classic?capacity=5000", "-i", keys(3000).toString(), "-o", classic.toString()).ok();
    String info = cuckoo("info", classic.toString()).ok().out();
    assertTrue(info.contains("format        version 3 (maps"), info);
    assertFalse(info.contains("verified"), info);
    String verified = cuckoo("info", "--verify", classic.toString()).ok().out();
    assertTrue(verified.contains("verified      checksum ok over all " + TextFormat.grouped(Files.size(classic))
        + " bytes; the table holds the 3,000 items it declares"), verified);
    String json = cuckoo("info", "--json", "--verify", classic.toString()).ok().out();
    assertTrue(json.contains("\"formatVersion\": 3, \"maps\": true, \"verified\": \"checksum ok"), json);

    Path scalable = dir.resolve("s.cuckoo");
    cuckoo("build", "-c", "scalable?capacity=5000", "-i", keys(3000).toString(), "-o", scalable.toString()).ok();
    String scalableInfo = cuckoo("info", scalable.toString()).ok().out();
    assertTrue(scalableInfo.contains("format        version 2 (current for scalable, whose files are read, not mapped)"),
        scalableInfo);
    assertTrue(cuckoo("info", "--json", scalable.toString()).ok().out().contains("\"formatVersion\": 2, \"maps\": false"));
  }

  @Test
  void progressShowsForQueryInputAndInfoVerify() throws IOException {
    Path out = dir.resolve("f.cuckoo");
    cuckoo("build", "-c", "classic?capacity=5000", "-i", keys(3000).toString(), "-o", out.toString()).ok();
    long before = ProgressBar.firstAfterNanos;
    ProgressBar.firstAfterNanos = 0;
    try {
      CommandRun query = cuckoo("query", "--quiet", "--progress", out.toString(), "--input",
          dir.resolve("keys.txt").toString());
      assertEquals(CuckooCommand.EXIT_OK, query.status(), query.err());
      assertTrue(query.err().contains("keys/s") && query.err().contains("%"), query.err());
      CommandRun verify = cuckoo("info", "--verify", "--progress", out.toString());
      assertEquals(CuckooCommand.EXIT_OK, verify.status(), verify.err());
      assertTrue(verify.err().contains("checking " + out), verify.err());
      assertTrue(verify.out().contains("verified"), verify.out());
    } finally {
      ProgressBar.firstAfterNanos = before;
    }
  }

  @Test
  void aDamagedFileIsNamedOnceAndADamagedVersionFieldIsDamageNotAnOldFile() throws IOException {
    Path out = dir.resolve("f.cuckoo");
    cuckoo("build", "-c", "classic?capacity=5000", "-i", keys(3000).toString(), "-o", out.toString()).ok();
    byte[] good = Files.readAllBytes(out);
    byte[] flippedTable = good.clone();
    flippedTable[flippedTable.length - 100] ^= 0x40;
    Files.write(out, flippedTable);
    String error = cuckoo("info", "--verify", out.toString()).error();
    assertEquals(error.indexOf(out.toString()), error.lastIndexOf(out.toString()), "the file named once: " + error);

    byte[] flippedVersion = good.clone();
    flippedVersion[5] = 2;
    Files.write(out, flippedVersion);
    for (String command : new String[] {"info", "query", "convert"}) {
      String e = command.equals("convert")
          ? cuckoo(command, out.toString(), dir.resolve("g.cuckoo").toString()).error()
          : command.equals("query") ? cuckoo(command, out.toString(), "x").error() : cuckoo(command, out.toString()).error();
      assertTrue(e.contains("damaged"), command + ": " + e);
    }
  }

  @Test
  void aFileAWriterHasOpenIsSaidToBeBeingWritten() throws IOException {
    Path out = dir.resolve("f.cuckoo");
    try (MappedFilter writer = CuckooFilters.createFile("classic?capacity=5000", out)) {
      writer.add("a");
      writer.force();
      writer.add("b");
      for (String command : new String[] {"info", "query"}) {
        String e = command.equals("query") ? cuckoo(command, out.toString(), "a").error()
            : cuckoo(command, out.toString()).error();
        assertTrue(e.contains("a writer that has it open now"), command + ": " + e);
      }
    }
    assertEquals(List.of("b\tyes"), cuckoo("query", out.toString(), "b").ok().outLines());
  }

  private List<String> listing() throws IOException {
    try (var files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void infoVerifyFindsAFlippedTableByteThatOpenDoesNotRead() throws IOException {
    Path out = dir.resolve("f.cuckoo");
    cuckoo("build", "-c", "classic?capacity=5000", "-i", keys(3000).toString(), "-o", out.toString()).ok();
    assertTrue(cuckoo("info", "--verify", out.toString()).ok().out().contains("classic"));
    byte[] bytes = Files.readAllBytes(out);
    bytes[bytes.length - 100] ^= 0x40;
    Files.write(out, bytes);
    cuckoo("info", out.toString()).ok(); // open reads no table
    String error = cuckoo("info", "--verify", out.toString()).error();
    assertTrue(error.contains("checksum"), error);
  }

  private static Path write(CuckooFilter f, Path file) throws IOException {
    try (OutputStream out = Files.newOutputStream(file)) {
      f.writeTo(out);
    }
    return file;
  }

  @Test
  void convertRewritesAVersion2FileSoThatItOpensMapped() throws IOException {
    // A classic file as the previous release wrote it: envelope version 2, payload layout 2, empty.
    CuckooFilter heap = CuckooFilters.create("classic?capacity=1000&fingerprintBits=12&bucketSize=4");
    long buckets = dev.cuckoo.engine.CuckooSizing.bucketCount(1000, 4, 12);
    long words = (buckets * 4 * 12 + 63) / 64;
    Path old = dir.resolve("old.cuckoo");
    try (OutputStream o = Files.newOutputStream(old)) {
      dev.cuckoo.internal.FilterFile.write(o, heap.spec(), dev.cuckoo.CuckooFilters.hashOf(heap.spec()), 4 + 24 + 8 * words + 4, p -> {
        p.writeInt(2);
        p.writeLong(buckets);
        p.writeLong(0);
        p.writeLong(words);
        for (long w = 0; w < words; w++) {
          p.writeLong(0);
        }
        p.writeInt(0);
      }, false);
    }
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> CuckooFilters.open(old));
    assertTrue(e.getMessage().contains("cuckoo convert"), e.getMessage());
    assertEquals(List.of("alice\tno"), cuckoo("query", old.toString(), "alice").outLines(), "a version 2 file is read");

    Path converted = dir.resolve("new.cuckoo");
    CommandRun run = cuckoo("convert", old.toString(), converted.toString()).ok();
    assertTrue(run.out().startsWith("wrote " + converted + " in format version 3, which query and info map without"
        + " reading it: 0 keys"), run.out());
    assertEquals(-1, Files.mismatch(converted, write(heap, dir.resolve("expected.cuckoo"))),
        "streamed into what writeTo writes");
    Path scalable = dir.resolve("s.cuckoo");
    cuckoo("build", "-c", "scalable?capacity=5000", "-i", keys(30).toString(), "-o", scalable.toString()).ok();
    String left = cuckoo("convert", scalable.toString(), dir.resolve("s2.cuckoo").toString()).ok().out();
    assertTrue(left.contains("already the current format of variant scalable") && left.contains("as it was"), left);
    try (MappedFilter f = CuckooFilters.openWritable(converted)) {
      f.add("alice");
    }
    assertEquals(List.of("alice\tyes"), cuckoo("query", converted.toString(), "alice").ok().outLines());
  }
}
