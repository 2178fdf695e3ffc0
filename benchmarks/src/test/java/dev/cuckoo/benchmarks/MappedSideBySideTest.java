package dev.cuckoo.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link MappedSideBySide} looks up every present key in both filters and prints a line per operation. */
class MappedSideBySideTest {
  @Test
  void bothFiltersFindEveryPresentKeyAndEachOperationHasItsLine() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int size = 20 * MappedBenchmark.BLOCK;
    int passes = 5;
    long found = MappedSideBySide.run("classic?fingerprintBits=16", size, passes, new PrintStream(bytes, true,
        StandardCharsets.UTF_8));
    // Each pass looks up a tenth of the keys one at a time and, in whole blocks, again.
    int chunk = size / 10;
    assertEquals((long) passes * (chunk + chunk / MappedBenchmark.BLOCK * MappedBenchmark.BLOCK), found);
    String printed = bytes.toString(StandardCharsets.UTF_8);
    for (String op : new String[] {"positive", "negative", "all", "add"}) {
      assertTrue(printed.contains(op + " "), printed);
    }
  }
}
