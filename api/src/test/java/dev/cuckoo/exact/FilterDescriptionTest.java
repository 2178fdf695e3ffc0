package dev.cuckoo.exact;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** A filter's {@code toString} reads the same on every machine, whatever its default locale. */
class FilterDescriptionTest {

  @Test
  void theLoadIsWrittenWithADecimalPointInEveryLocale() {
    Locale before = Locale.getDefault();
    try {
      // German writes 0,0300: a log line or a parsed description must not change with the host.
      Locale.setDefault(Locale.GERMANY);
      CuckooFilter f = CuckooFilters.create("exact?capacity=100");
      for (int i = 0; i < 3; i++) {
        f.add(i);
      }
      String text = f.toString();
      assertTrue(text.matches(".*, load=\\d+\\.\\d{4}\\]"), text);
    } finally {
      Locale.setDefault(before);
    }
  }
}
