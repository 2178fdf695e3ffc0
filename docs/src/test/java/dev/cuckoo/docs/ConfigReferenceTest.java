package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.FilterProvider;
import dev.cuckoo.spi.SpecSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * The configuration reference in {@code guide/configuration.md} is what the installed variants'
 * schemas say, so it cannot drift: the section between its {@code generated} markers must equal
 * {@link #render()}, which the failure message prints in full.
 */
class ConfigReferenceTest {
  static final String BEGIN = "<!-- generated: config-reference (ConfigReferenceTest) -->";
  static final String END = "<!-- end: config-reference -->";

  static String render() {
    StringBuilder sb = new StringBuilder();
    for (String variant : CuckooFilters.variants()) {
      FilterProvider p = CuckooFilters.provider(variant);
      SpecSchema s = p.schema();
      sb.append("\n### `").append(variant).append("`\n\n").append(p.description()).append("\n\n");
      sb.append("| key | allowed | default |\n|---|---|---|\n");
      sb.append(row(FilterSpec.CAPACITY, s.minCapacity() + ".." + s.maxCapacity(),
          s.defaultCapacity().isPresent() ? Long.toString(s.defaultCapacity().getAsLong()) : "required"));
      sb.append(row(FilterSpec.FINGERPRINT_BITS, s.fingerprintBitsText(),
          Integer.toString(s.defaultFingerprintBits())));
      sb.append(row(FilterSpec.TARGET_FPP, "between 0 and 1; gives the smallest supported `fingerprintBits` f with 2b/2^f ≤ targetFpp",
          "(instead of `fingerprintBits`)"));
      sb.append(row(FilterSpec.BUCKET_SIZE, s.bucketSizesText(), Integer.toString(s.defaultBucketSize())));
      sb.append(row(FilterSpec.HASH, "an installed hash", "`" + s.defaultHash() + "`"));
      sb.append(row(FilterSpec.SEED, "any 64-bit number (decimal, or hex as `0x...`)", "0"));
      sb.append(row(FilterSpec.MAX_KICKS, s.minMaxKicks() + ".." + s.maxMaxKicks(), Integer.toString(s.defaultMaxKicks())));
      sb.append(row(FilterSpec.CONCURRENCY, s.concurrencyText(), "none"));
      for (String option : s.optionNames()) {
        sb.append(row(option, s.optionAllowed(option), s.optionDefault(option)));
      }
    }
    return sb.append('\n').toString();
  }

  private static String row(String key, String allowed, String defaultValue) {
    return "| `" + key + "` | " + allowed + " | " + defaultValue + " |\n";
  }

  @Test
  void theReferenceMatchesTheSchemas() throws IOException {
    Path page = Paths.get("guide/configuration.md");
    String text = Files.readString(page, StandardCharsets.UTF_8);
    int begin = text.indexOf(BEGIN);
    int end = text.indexOf(END);
    assertTrue(begin >= 0 && end > begin, page + " lacks the generated section markers");
    String expected = render();
    Path fresh = Paths.get("target/config-reference.md");
    Files.writeString(fresh, expected, StandardCharsets.UTF_8);
    assertEquals(expected, text.substring(begin + BEGIN.length(), end),
        page + " is out of date; replace its generated section with " + fresh.toAbsolutePath());
  }
}
