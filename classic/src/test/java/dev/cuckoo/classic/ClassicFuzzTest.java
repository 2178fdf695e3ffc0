package dev.cuckoo.classic;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cuckoo.testkit.FilterFuzzing;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Fuzzes {@code CuckooFilters.read} on classic files and payloads ({@link FilterFuzzing#readFile}):
 * a filter that works, or {@link dev.cuckoo.CorruptFilterException}. The normal build replays
 * the inputs under {@code src/test/resources/dev/cuckoo/classic/ClassicFuzzTestInputs/}; the
 * guide's "Hardening" page has the command for a campaign.
 */
class ClassicFuzzTest {
  /** Small filters of several shapes: the fast paths, packed odd widths, every bucket size. */
  static final List<String> SPECS = List.of(
      "classic?capacity=60&fingerprintBits=8&bucketSize=4",
      "classic?capacity=60&fingerprintBits=16&bucketSize=4",
      "classic?capacity=50&fingerprintBits=4&bucketSize=1",
      "classic?capacity=70&fingerprintBits=13&bucketSize=2",
      "classic?capacity=90&fingerprintBits=32&bucketSize=8",
      "classic?capacity=40&fingerprintBits=7&bucketSize=4&hash=murmur3&seed=7");

  @FuzzTest(maxDuration = "30s")
  void read(byte[] input) {
    FilterFuzzing.readFile(input, SPECS);
  }

  /** Regenerates the seed inputs: {@code -Dcuckoo.fuzz.seeds=true -Dtest=ClassicFuzzTest#writeSeeds}. */
  @Test
  @EnabledIfSystemProperty(named = "cuckoo.fuzz.seeds", matches = "true")
  void writeSeeds() throws IOException {
    FilterFuzzing.writeReadSeeds(FilterFuzzing.inputsOf(ClassicFuzzTest.class, "read"), SPECS);
  }
}
