package dev.cuckoo.docs.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import org.junit.jupiter.api.Test;

class QuickStartExample {

  @Test
  void quickStart() {
    // tag::quick-start[]
    CuckooFilter seen = CuckooFilters.create("classic?capacity=1000000&targetFpp=0.001");
    seen.add("alice@example.com");
    seen.mightContain("alice@example.com");   // true: never a false negative
    seen.mightContain("bob@example.com");     // false, or true about once in a thousand
    seen.remove("alice@example.com");         // deletes, unlike a Bloom filter
    // end::quick-start[]
    assertEquals(0, seen.size());
    assertFalse(seen.mightContain("alice@example.com"), "an empty filter holds nothing");
    assertEquals(13, seen.spec().fingerprintBits().getAsInt(), "the smallest f with 2*4/2^f <= 0.001");
  }

  @Test
  void keyForms() {
    // tag::key-forms[]
    CuckooFilter f = CuckooFilters.create("classic?capacity=1000");
    f.add("x");
    f.mightContain("x".getBytes(java.nio.charset.StandardCharsets.UTF_8)); // true: the same key
    f.add(42L);
    f.mightContain(new byte[] {42, 0, 0, 0, 0, 0, 0, 0});                 // true: 8 little-endian bytes
    // end::key-forms[]
    assertTrue(f.mightContain("x".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    assertTrue(f.mightContain(new byte[] {42, 0, 0, 0, 0, 0, 0, 0}));
  }
}
