package dev.cuckoo.semisorted;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cuckoo.testkit.FilterFuzzing;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Fuzzes {@code CuckooFilters.open} on semi-sorted files ({@link FilterFuzzing#openFile}): a mapped
 * filter that answers lookups, or {@link dev.cuckoo.CorruptFilterException}; never a crash of the
 * JVM nor another exception. The normal build replays the inputs under {@code
 * src/test/resources/dev/cuckoo/semisorted/SemiSortedOpenFuzzTestInputs/}.
 */
class SemiSortedOpenFuzzTest {
  @FuzzTest(maxDuration = "30s")
  void open(byte[] input) {
    FilterFuzzing.openFile(input);
  }

  /** Regenerates the seed inputs: {@code -Dcuckoo.fuzz.seeds=true -Dtest=SemiSortedOpenFuzzTest#writeSeeds}. */
  @Test
  @EnabledIfSystemProperty(named = "cuckoo.fuzz.seeds", matches = "true")
  void writeSeeds() throws IOException {
    FilterFuzzing.writeOpenSeeds(FilterFuzzing.inputsOf(SemiSortedOpenFuzzTest.class, "open"), SemiSortedFuzzTest.SPECS);
  }
}
