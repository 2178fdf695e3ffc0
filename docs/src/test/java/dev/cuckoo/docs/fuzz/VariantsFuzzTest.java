package dev.cuckoo.docs.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cuckoo.testkit.FilterFuzzing;
import dev.cuckoo.testkit.OperationSequence;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Fuzz tests across every installed variant (this module sees them all): the config parser and
 * {@code CuckooFilters.create(String)} ({@link FilterFuzzing#createFromConfig}), and operation
 * sequences against the multiset model ({@link OperationSequence}) on small filters of each
 * variant, so that sequences reach refusals, growth, stashes and compaction. The normal build
 * replays the inputs under {@code src/test/resources/dev/cuckoo/docs/fuzz/VariantsFuzzTestInputs/};
 * the guide's "Hardening" page has the command for a campaign.
 */
class VariantsFuzzTest {
  /**
   * The filters operations run on: the first byte of an input picks one. Growing scalable chains
   * grow by 1: copies of one key add a sub-filter every 2*bucketSize of them, and with an
   * expansion above 1 a few dozen copies ask for the whole heap, which the chain then refuses
   * (ScalableCuckooFilterTest covers that) only after allocating most of it.
   */
  static final List<String> CONFIGS = List.of(
      "classic?capacity=40&fingerprintBits=4&bucketSize=1",
      "classic?capacity=60&fingerprintBits=8&bucketSize=4",
      "classic?capacity=50&fingerprintBits=13&bucketSize=2&maxKicks=5",
      "classic?capacity=80&fingerprintBits=16&bucketSize=8",
      "semi-sorted?capacity=40&fingerprintBits=5",
      "semi-sorted?capacity=60&fingerprintBits=16",
      "semi-sorted?capacity=50&fingerprintBits=13&maxKicks=5",
      "scalable?capacity=8&bucketSize=1&expansion=1&maxKicks=2",
      "scalable?capacity=16",
      "scalable?capacity=16&bucketSize=4&expansion=0",
      "scalable?capacity=4&bucketSize=2&expansion=1&maxKicks=1");

  private static final List<OperationSequence> SEQUENCES =
      CONFIGS.stream().map(OperationSequence::new).toList();

  @FuzzTest(maxDuration = "30s")
  void config(byte[] input) {
    if (input != null) {
      FilterFuzzing.createFromConfig(new String(input, StandardCharsets.UTF_8));
    }
  }

  @FuzzTest(maxDuration = "30s")
  void operations(byte[] input) {
    if (input != null && input.length > 0) {
      byte[] program = java.util.Arrays.copyOfRange(input, 1, input.length);
      SEQUENCES.get((input[0] & 0xFF) % SEQUENCES.size()).run(program);
    }
  }

  /** Regenerates the seed inputs: {@code -Dcuckoo.fuzz.seeds=true -Dtest=VariantsFuzzTest#writeSeeds}. */
  @Test
  @EnabledIfSystemProperty(named = "cuckoo.fuzz.seeds", matches = "true")
  void writeSeeds() throws IOException {
    FilterFuzzing.writeConfigSeeds(FilterFuzzing.inputsOf(VariantsFuzzTest.class, "config"), List.of(
        "classic?capacity=1000&fingerprintBits=12&bucketSize=4&hash=xxh3",
        "classic?capacity=1000&targetFpp=0.001&seed=0x9e3779b97f4a7c15&maxKicks=20",
        "semi-sorted?capacity=5000&fingerprintBits=13",
        "semi-sorted?capacity=100&targetFpp=1e-4&hash=murmur3&seed=-1",
        "scalable?capacity=1000&bucketSize=4&expansion=3&maxKicks=500",
        "scalable?capacity=64&expansion=0&hash=murmur64a",
        "classic?capacity=99999999999&fingerprintBits=4&bucketSize=8",
        "scalable?capacity=2&bucketSize=1",
        "semi-sorted?capacity=1&bucketSize=4&fingerprintBits=32&hash=wyhash"));
    Path ops = FilterFuzzing.inputsOf(VariantsFuzzTest.class, "operations");
    Files.createDirectories(ops);
    // Fixed, not TestSeed's: regenerating the committed inputs must reproduce them.
    SplittableRandom r = new SplittableRandom(8);
    for (int c = 0; c < CONFIGS.size(); c++) {
      // Mostly adds, so that the small filter fills, refuses, grows; then everything mixed.
      byte[] program = new byte[1 + 2 * 300];
      program[0] = (byte) c;
      for (int i = 1; i < program.length; i += 2) {
        program[i] = (byte) (i < 300 ? 10 * r.nextInt(3) + r.nextInt(3) : r.nextInt(256));
        program[i + 1] = (byte) r.nextInt(256);
      }
      Files.write(ops.resolve("config-" + c), program);
    }
  }
}
