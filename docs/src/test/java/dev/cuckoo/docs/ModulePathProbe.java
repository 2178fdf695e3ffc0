package dev.cuckoo.docs;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;

/**
 * Run in a child JVM with the cuckoo jars on the module path (see {@link
 * ModulePathDiscoveryTest}): prints what ServiceLoader finds there, where only the {@code
 * provides} clauses of module-info count, and proves each variant works.
 */
public final class ModulePathProbe {
  private ModulePathProbe() {}

  public static void main(String[] args) {
    System.out.println("api-module=" + CuckooFilters.class.getModule().getName());
    System.out.println("hashes=" + String.join(",", CuckooFilters.hashes()));
    for (String name : CuckooFilters.hashes()) {
      System.out.println("hash-module " + name + "=" + CuckooFilters.hash(name).getClass().getModule().getName());
    }
    System.out.println("variants=" + String.join(",", CuckooFilters.variants()));
    for (String variant : CuckooFilters.variants()) {
      CuckooFilter f = CuckooFilters.create(variant + "?capacity=1000");
      boolean works = f.add("probe") && f.mightContain("probe");
      System.out.println("variant-module " + variant + "=" + f.getClass().getModule().getName() + " works=" + works);
    }
  }
}
