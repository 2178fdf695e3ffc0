package dev.cuckoo.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;

/**
 * Fuzzes the config-string parser: any text either parses into a spec that round-trips through
 * its own text, or is rejected with {@link IllegalArgumentException}; creating a filter from it
 * either works or fails the same way. The normal build replays the committed inputs under
 * {@code src/test/resources/dev/cuckoo/fuzz/ConfigParserFuzzTestInputs/}; run a campaign with
 * {@code JAZZER_FUZZ=1 ./mvnw -B -pl api test -Dtest=ConfigParserFuzzTest}.
 */
class ConfigParserFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void parseRoundTripsOrRejects(String config) {
    if (config == null) {
      return; // null is documented to throw NullPointerException
    }
    FilterSpec spec;
    try {
      spec = FilterSpec.parse(config);
    } catch (IllegalArgumentException expected) {
      return;
    }
    assertEquals(spec, FilterSpec.parse(spec.toString()));
    try {
      CuckooFilters.create(spec).add(config);
    } catch (IllegalArgumentException expected) {
      // a well-formed spec the variant rejects, or an unknown variant
    }
  }
}
