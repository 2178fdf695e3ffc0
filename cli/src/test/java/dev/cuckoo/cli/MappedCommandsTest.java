package dev.cuckoo.cli;

import static dev.cuckoo.cli.CommandRun.cuckoo;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
    assertTrue(error.contains("cannot be mapped") && error.contains("classic"), error);
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

  @Test
  void convertRewritesAVersion2FileSoThatItOpensMapped() throws IOException {
    // A classic file as the previous release wrote it: envelope version 2, payload layout 2, empty.
    CuckooFilter heap = CuckooFilters.create("classic?capacity=1000&fingerprintBits=12&bucketSize=4");
    long buckets = dev.cuckoo.engine.CuckooSizing.bucketCount(1000, 4, 12);
    long words = (buckets * 4 * 12 + 63) / 64;
    Path old = dir.resolve("old.cuckoo");
    try (OutputStream o = Files.newOutputStream(old)) {
      dev.cuckoo.internal.FilterFile.write(o, heap.spec(), heap.spec().hashStrategy(), 4 + 24 + 8 * words + 4, p -> {
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
    assertTrue(run.out().startsWith("wrote " + converted + ": 0 keys"), run.out());
    try (MappedFilter f = CuckooFilters.openWritable(converted)) {
      f.add("alice");
    }
    assertEquals(List.of("alice\tyes"), cuckoo("query", converted.toString(), "alice").ok().outLines());
  }
}
