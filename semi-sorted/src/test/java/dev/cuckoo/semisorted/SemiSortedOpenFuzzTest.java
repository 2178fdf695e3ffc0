package dev.cuckoo.semisorted;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cuckoo.testkit.FilterFuzzing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Fuzzes {@code CuckooFilters.open} on semi-sorted files ({@link FilterFuzzing#openFile}): a mapped
 * filter that answers lookups, or {@link dev.cuckoo.CorruptFilterException}; never a crash of the
 * JVM nor another exception. The normal build replays the inputs under {@code
 * src/test/resources/dev/cuckoo/semisorted/SemiSortedOpenFuzzTestInputs/}.
 */
class SemiSortedOpenFuzzTest {
  private static final Path FILE = temporaryFile();

  private static Path temporaryFile() {
    try {
      Path file = Files.createTempFile("semi-sorted-open-fuzz", ".cuckoo");
      file.toFile().deleteOnExit();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @FuzzTest(maxDuration = "30s")
  void open(byte[] input) {
    FilterFuzzing.openFile(input, FILE);
  }

  /** Regenerates the seed inputs: {@code -Dcuckoo.fuzz.seeds=true -Dtest=SemiSortedOpenFuzzTest#writeSeeds}. */
  @Test
  @EnabledIfSystemProperty(named = "cuckoo.fuzz.seeds", matches = "true")
  void writeSeeds() throws IOException {
    FilterFuzzing.writeOpenSeeds(FilterFuzzing.inputsOf(SemiSortedOpenFuzzTest.class, "open"), SemiSortedFuzzTest.SPECS);
  }
}
