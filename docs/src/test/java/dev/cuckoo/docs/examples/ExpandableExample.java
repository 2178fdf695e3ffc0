package dev.cuckoo.docs.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.Concurrency;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class ExpandableExample {

  @Test
  void growing() {
    // tag::grow[]
    CuckooFilter seen = CuckooFilters.create("expandable?targetFpp=0.001");  // starts at 4,096 keys
    for (long user = 0; user < 1_000_000; user++) {
      seen.add(user);                    // doubles its table as it fills: never refuses here
    }
    seen.mightContain(123_456L);         // true, like every key added
    seen.remove(17L);                    // keys added before any number of doublings
    seen.size();                         // 999,999: exact
    seen.capacity();                     // keys it takes before it doubles next
    seen.expectedFpp();                  // 0.05%: 0.1% asked, held at every size
    // end::grow[]
    assertEquals(999_999, seen.size());
    assertTrue(seen.mightContain(123_456L));
    assertTrue(seen.capacity() >= seen.size());
    assertTrue(seen.expectedFpp() < 0.0006 && seen.expectedFpp() > 0.0004, "expectedFpp " + seen.expectedFpp());
  }

  @Test
  void lockedAndFiles() throws IOException {
    // tag::locked[]
    CuckooFilter shared = CuckooFilters.create("expandable?capacity=100000&concurrency=locked");
    shared.add("a");                     // any thread; lookups take no lock
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    shared.writeTo(file);                // a consistent snapshot, however far it has grown
    CuckooFilter copy = CuckooFilters.read(new ByteArrayInputStream(file.toByteArray()));
    copy.mightContain("a");              // true, and the copy is locked too
    // end::locked[]
    assertTrue(copy.mightContain("a"));
    assertEquals(Concurrency.LOCKED, copy.spec().concurrency().orElseThrow());
  }
}
