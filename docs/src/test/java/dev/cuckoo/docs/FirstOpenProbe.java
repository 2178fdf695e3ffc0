package dev.cuckoo.docs;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Run in a fresh JVM that logs every class it loads (see {@link FirstOpenTest}): opens a filter
 * file and looks up a long key and a string key, the first and only things the library does in
 * that JVM, so that every class of the library in the log is one they loaded.
 */
public final class FirstOpenProbe {
  private FirstOpenProbe() {}

  /**
   * @param args the filter file
   * @throws IOException if it cannot be opened
   */
  public static void main(String[] args) throws IOException {
    MappedFilter f = CuckooFilters.open(Path.of(args[0]));
    System.out.println("found=" + f.mightContain(1L) + "," + f.mightContain("https://example.com/"));
    // Not closed: the JVM exits now and unmaps it, and close() would load classes of its own.
  }
}
