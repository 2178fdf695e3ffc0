package dev.cuckoo.semisorted;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cuckoo.testkit.FilterFuzzing;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Fuzzes {@code CuckooFilters.read} on semi-sorted files and payloads ({@link FilterFuzzing#readFile}):
 * a filter that works, or {@link dev.cuckoo.CorruptFilterException}. The normal build replays
 * the inputs under {@code src/test/resources/dev/cuckoo/semisorted/SemiSortedFuzzTestInputs/}; the
 * guide's "Hardening" page has the command for a campaign.
 */
class SemiSortedFuzzTest {
  /** Small filters of several widths: the headline 16 bits, the paper's 13, the narrowest and widest. */
  static final List<String> SPECS = List.of(
      "semi-sorted?capacity=60&fingerprintBits=16",
      "semi-sorted?capacity=70&fingerprintBits=13",
      "semi-sorted?capacity=50&fingerprintBits=5",
      "semi-sorted?capacity=90&fingerprintBits=32",
      "semi-sorted?capacity=40&fingerprintBits=9&hash=murmur3&seed=7");

  @FuzzTest(maxDuration = "30s")
  void read(byte[] input) {
    FilterFuzzing.readFile(input, SPECS);
  }

  /** Regenerates the seed inputs: {@code -Dcuckoo.fuzz.seeds=true -Dtest=SemiSortedFuzzTest#writeSeeds}. */
  @Test
  @EnabledIfSystemProperty(named = "cuckoo.fuzz.seeds", matches = "true")
  void writeSeeds() throws IOException {
    FilterFuzzing.writeReadSeeds(FilterFuzzing.inputsOf(SemiSortedFuzzTest.class, "read"), SPECS);
  }
}
