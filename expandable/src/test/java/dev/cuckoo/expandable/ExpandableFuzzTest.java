package dev.cuckoo.expandable;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cuckoo.testkit.FilterFuzzing;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Fuzzes {@code CuckooFilters.read} on expandable files and payloads ({@link
 * FilterFuzzing#readFile}): a filter that works, or {@link dev.cuckoo.CorruptFilterException}.
 * The normal build replays the inputs under {@code
 * src/test/resources/dev/cuckoo/expandable/ExpandableFuzzTestInputs/}, among them filters that
 * have doubled; the guide's "Hardening" page has the command for a campaign.
 */
class ExpandableFuzzTest {
  /**
   * Small filters of every shape, each of which grows when the seeds fill it: lanes of one width,
   * and lanes that widen (payload layout 2) with and without a size hint.
   */
  static final List<String> SPECS = List.of(
      "expandable?capacity=60",
      "expandable?capacity=60&bucketSize=8",
      "expandable?capacity=40&fingerprintBits=32",
      "expandable?capacity=30&fingerprintBits=32&bucketSize=8&hash=murmur3&seed=7",
      "expandable?capacity=50&concurrency=locked",
      "expandable?capacity=60&targetFpp=0.0001",
      "expandable?capacity=40&targetFpp=0.01&expectedKeys=500");

  @FuzzTest(maxDuration = "30s")
  void read(byte[] input) {
    FilterFuzzing.readFile(input, SPECS);
  }

  /** Regenerates the seed inputs: {@code -Dcuckoo.fuzz.seeds=true -Dtest=ExpandableFuzzTest#writeSeeds}. */
  @Test
  @EnabledIfSystemProperty(named = "cuckoo.fuzz.seeds", matches = "true")
  void writeSeeds() throws IOException {
    FilterFuzzing.writeReadSeeds(FilterFuzzing.inputsOf(ExpandableFuzzTest.class, "read"), SPECS);
  }
}
