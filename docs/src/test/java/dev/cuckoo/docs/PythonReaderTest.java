package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python reader under {@code docs/reader}, written from the file-format guide alone, answers
 * every lookup as the library does on files the library writes: so the guide's description of
 * how a key becomes two buckets and a fingerprint cannot drift from the code. Skipped where no
 * {@code python3} is installed. The files use {@code murmur64a}, which the reader implements with
 * the standard library. Sharded files ({@code shards=S}) are among them.
 */
class PythonReaderTest {
  @TempDir
  Path dir;

  private static boolean pythonInstalled() {
    try {
      Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  @Test
  void thePythonReaderAnswersAsTheLibrary() throws Exception {
    assumeTrue(pythonInstalled(), "python3 is not installed: the reader under docs/reader is not checked");
    String[] shapes = {
      "classic?capacity=3000&fingerprintBits=12&bucketSize=4&hash=murmur64a&seed=7",
      "classic?capacity=2000&fingerprintBits=8&bucketSize=4&hash=murmur64a",
      "classic?capacity=1000&fingerprintBits=16&bucketSize=4&hash=murmur64a",
      "classic?capacity=999&fingerprintBits=5&bucketSize=2&hash=murmur64a&seed=-3",
      "classic?capacity=500&fingerprintBits=32&bucketSize=8&hash=murmur64a",
      // Sharded tables: both buckets of a key within its shard.
      "classic?capacity=3000&fingerprintBits=12&bucketSize=4&hash=murmur64a&shards=4",
      "classic?capacity=2000&fingerprintBits=8&bucketSize=2&hash=murmur64a&seed=5&shards=7",
    };
    for (String shape : shapes) {
      CuckooFilter f = CuckooFilters.create(shape);
      long added = 0;
      while (f.add("k" + added)) {
        added++; // to the brim, so that the stash holds some too
      }
      Path file = dir.resolve("f.cuckoo");
      try (OutputStream out = Files.newOutputStream(file)) {
        f.writeTo(out);
      }
      List<String> command = new ArrayList<>(List.of("python3", Path.of("reader", "cuckoo_reader.py").toString(),
          file.toString()));
      StringBuilder expected = new StringBuilder();
      for (long i = 0; i < added + 300; i++) {
        String key = "k" + i;
        command.add(key);
        expected.append(key).append('\t').append(f.mightContain(key)).append('\n');
      }
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor(2, TimeUnit.MINUTES);
      assertEquals(expected.toString(), output, shape);
    }
  }
}
