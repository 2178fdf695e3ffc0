package dev.cuckoo.cli;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A writer that dies as {@code kill -9} kills one, for {@link RecoverCommandTest}: creates a file,
 * adds {@code key-0} up to the count, forcing halfway, and halts with no force, close or hook.
 */
public final class HaltedWriter {
  private HaltedWriter() {}

  /**
   * @param args config, file, key count
   * @throws IOException if the file cannot be written
   */
  public static void main(String[] args) throws IOException {
    MappedFilter filter = CuckooFilters.createFile(args[0], Path.of(args[1]));
    int keys = Integer.parseInt(args[2]);
    for (int i = 0; i < keys; i++) {
      if (!filter.add("key-" + i)) {
        Runtime.getRuntime().halt(2);
      }
      if (i == keys / 2) {
        filter.force();
      }
    }
    Runtime.getRuntime().halt(0);
  }
}
