package dev.cuckoo.docs;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Run in a fresh JVM that logs every class it loads (see {@link FirstOpenTest}): opens a filter
 * file, looks up the variants and hashes it is given by name ({@code variant:NAME}, {@code
 * hash:NAME}), prints a line, and only then asks for a third-party variant and hash and for the
 * list of variants, which the class path's last jar provides.
 */
public final class ProviderLookupProbe {
  private ProviderLookupProbe() {}

  /**
   * @param args the filter file, then the names to look up
   * @throws IOException if the file cannot be opened
   */
  public static void main(String[] args) throws IOException {
    MappedFilter f = CuckooFilters.open(Path.of(args[0]));
    System.out.println("found=" + f.mightContain("https://example.com/") + " named=" + f.getClass().getModule().isNamed());
    for (int i = 1; i < args.length; i++) {
      String name = args[i].substring(args[i].indexOf(':') + 1);
      String found = args[i].startsWith("variant:") ? CuckooFilters.variant(name).name() : CuckooFilters.hash(name).name();
      if (!found.equals(name)) {
        throw new AssertionError(args[i] + " found " + found);
      }
    }
    System.out.println("looked-up-by-name");
    System.out.println("third-party=" + CuckooFilters.variant(ThirdPartyProviders.VARIANT).name() + ","
        + CuckooFilters.hash(ThirdPartyProviders.HASH).name());
    System.out.println("variants=" + CuckooFilters.variants());
  }
}
