package dev.cuckoo.logstore;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cuckoo.testkit.FilterFuzzing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Fuzzes {@link LogStore#open} on any bytes as its log: it opens, or refuses with an
 * {@link IOException}; nothing else escapes, and a log it opened takes a put and reopens with
 * the same keys. The normal build replays the inputs under
 * {@code src/test/resources/dev/cuckoo/logstore/LogStoreFuzzTestInputs/}; a campaign runs with
 * {@code JAZZER_FUZZ=1 ./mvnw -B -pl log-store -am test -Dtest=LogStoreFuzzTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class LogStoreFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void open(byte[] log) throws IOException {
    Path dir = Files.createTempDirectory("cuckoo-log-fuzz");
    try {
      Files.write(dir.resolve(LogStore.LOG), log);
      long size;
      try (LogStore s = LogStore.open(dir)) {
        s.put("fuzz".getBytes(UTF_8), log.length > 64 ? new byte[64] : log);
        size = s.size();
      } catch (IOException refused) {
        return;
      }
      try (LogStore s = LogStore.open(dir)) {
        byte[] value = s.get("fuzz".getBytes(UTF_8));
        assertArrayEquals(log.length > 64 ? new byte[64] : log, value);
        assertEquals(size, s.size(), "keys lost on reopen");
      }
    } finally {
      delete(dir);
    }
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }

  /** Regenerates the seed inputs: {@code -Dcuckoo.fuzz.seeds=true -Dtest=LogStoreFuzzTest#writeSeeds}. */
  @Test
  @EnabledIfSystemProperty(named = "cuckoo.fuzz.seeds", matches = "true")
  void writeSeeds() throws IOException {
    Path inputs = FilterFuzzing.inputsOf(LogStoreFuzzTest.class, "open");
    Files.createDirectories(inputs);
    Path dir = Files.createTempDirectory("cuckoo-log-seeds");
    try {
      try (LogStore s = LogStore.open(dir)) {
        s.flush();
      }
      Files.copy(dir.resolve(LogStore.LOG), inputs.resolve("empty"), StandardCopyOption.REPLACE_EXISTING);
      try (LogStore s = LogStore.open(dir)) {
        for (int i = 0; i < 20; i++) {
          s.put(("key-" + i).getBytes(UTF_8), ("value-" + i).repeat(i % 5).getBytes(UTF_8));
        }
        s.remove("key-3".getBytes(UTF_8));
        s.put("key-4".getBytes(UTF_8), "again".getBytes(UTF_8));
      }
      byte[] few = Files.readAllBytes(dir.resolve(LogStore.LOG));
      Files.write(inputs.resolve("few"), few);
      Files.write(inputs.resolve("few-torn"), Arrays.copyOf(few, few.length - 5));
      byte[] damaged = few.clone();
      damaged[40] ^= 1;
      Files.write(inputs.resolve("few-damaged"), damaged);
    } finally {
      delete(dir);
    }
  }
}
