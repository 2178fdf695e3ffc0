package app;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;

/** Uses every installed variant with its default hash, and every installed hash. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    for (String variant : CuckooFilters.variants()) {
      check(variant + "?capacity=1000");
    }
    for (String hash : CuckooFilters.hashes()) {
      check("classic?capacity=1000&hash=" + hash);
    }
    System.out.println("module=" + Main.class.getModule().getName());
    System.out.println("variants=" + String.join(",", CuckooFilters.variants()));
    System.out.println("hashes=" + String.join(",", CuckooFilters.hashes()));
  }

  private static void check(String config) {
    CuckooFilter f = CuckooFilters.create(config);
    for (int i = 0; i < 500; i++) {
      f.add("key-" + i);
    }
    for (int i = 0; i < 500; i++) {
      if (!f.mightContain("key-" + i)) {
        throw new AssertionError(config + ": key-" + i + " not found");
      }
    }
    System.out.println("ok " + config);
  }
}
