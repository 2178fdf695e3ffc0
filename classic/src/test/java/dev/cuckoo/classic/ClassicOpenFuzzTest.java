package dev.cuckoo.classic;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cuckoo.testkit.FilterFuzzing;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Fuzzes {@code CuckooFilters.open} on classic files ({@link FilterFuzzing#openFile}): a mapped
 * filter that answers lookups, or {@link dev.cuckoo.CorruptFilterException}; never a crash of the
 * JVM nor another exception. The normal build replays the inputs under {@code
 * src/test/resources/dev/cuckoo/classic/ClassicOpenFuzzTestInputs/}.
 */
class ClassicOpenFuzzTest {
  @FuzzTest(maxDuration = "30s")
  void open(byte[] input) {
    FilterFuzzing.openFile(input);
  }

  /** Regenerates the seed inputs: {@code -Dcuckoo.fuzz.seeds=true -Dtest=ClassicOpenFuzzTest#writeSeeds}. */
  @Test
  @EnabledIfSystemProperty(named = "cuckoo.fuzz.seeds", matches = "true")
  void writeSeeds() throws IOException {
    FilterFuzzing.writeOpenSeeds(FilterFuzzing.inputsOf(ClassicOpenFuzzTest.class, "open"), ClassicFuzzTest.SPECS);
  }
}
