package dev.cuckoo.docs;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.FilterProvider;
import dev.cuckoo.spi.SpecSchema;
import java.io.IOException;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * The configuration reference in {@code guide/configuration.md} is what the installed variants'
 * schemas say, so it cannot drift: the section between its {@code generated} markers must equal
 * {@link #render()} ({@link GeneratedSection}).
 */
class ConfigReferenceTest {
  static String render() {
    StringBuilder sb = new StringBuilder();
    for (String variant : CuckooFilters.variants()) {
      FilterProvider p = dev.cuckoo.internal.ProviderRegistry.provider(variant);
      SpecSchema s = p.schema();
      sb.append("\n### `").append(variant).append("`\n\n").append(p.description()).append("\n\n");
      sb.append("| key | allowed | default |\n|---|---|---|\n");
      sb.append(row(FilterSpec.CAPACITY, s.minCapacity() + ".." + s.maxCapacity(),
          s.defaultCapacity().isPresent() ? Long.toString(s.defaultCapacity().getAsLong()) : "required"));
      sb.append(row(FilterSpec.FINGERPRINT_BITS, s.fingerprintBitsText(),
          Integer.toString(s.defaultFingerprintBits())));
      sb.append(row(FilterSpec.TARGET_FPP, s.keepsTargetFpp()
          ? "between 0 and 1: the false-positive rate held at every size, lanes widening as the table grows"
          : "between 0 and 1; gives the smallest supported `fingerprintBits` f with 2b/2^f ≤ targetFpp",
          "(instead of `fingerprintBits`)"));
      sb.append(row(FilterSpec.BUCKET_SIZE, s.bucketSizesText(), Integer.toString(s.defaultBucketSize())));
      sb.append(row(FilterSpec.HASH, "an installed hash", "`" + s.defaultHash() + "`"));
      sb.append(row(FilterSpec.SEED, "any 64-bit number (decimal, or hex as `0x...`)", "0"));
      sb.append(row(FilterSpec.MAX_KICKS, s.minMaxKicks() + ".." + s.maxMaxKicks(), Integer.toString(s.defaultMaxKicks())));
      sb.append(row(FilterSpec.CONCURRENCY, s.concurrencyText(), "none"));
      for (String option : s.optionNames()) {
        // A hint's default, 0, is none given (SpecSchema.Builder.hintOption).
        String given = s.optionDefault(option);
        boolean hint = given.equals("0") && s.optionAllowed(option).startsWith("1..");
        sb.append(row(option, s.optionAllowed(option), hint ? "none" : given));
      }
    }
    return sb.append('\n').toString();
  }

  private static String row(String key, String allowed, String defaultValue) {
    return "| `" + key + "` | " + allowed + " | " + defaultValue + " |\n";
  }

  @Test
  void theReferenceMatchesTheSchemas() throws IOException {
    GeneratedSection.assertCurrent(Paths.get("guide/configuration.md"), "config-reference", ConfigReferenceTest.class,
        render());
  }
}
