package dev.cuckoo.docs.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import java.io.IOException;
import java.io.StringReader;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ConfigurationExample {

  @Test
  void threeFormsOfOneConfiguration() throws IOException {
    // tag::config-string[]
    CuckooFilter a = CuckooFilters.create("classic?capacity=1000000&fingerprintBits=16&bucketSize=4&hash=xxh3");
    // end::config-string[]
    // tag::builder[]
    CuckooFilter b = CuckooFilters.create(
        FilterSpec.builder("classic").capacity(1_000_000).fingerprintBits(16).bucketSize(4).hash("xxh3").build());
    // end::builder[]
    // tag::properties[]
    Properties props = new Properties();
    props.load(new StringReader("""
        cuckoo.variant=classic
        cuckoo.capacity=1000000
        cuckoo.fingerprintBits=16
        """));
    CuckooFilter c = CuckooFilters.fromProperties(props, "cuckoo.");
    // end::properties[]
    assertEquals(a.spec(), b.spec());
    assertEquals(a.spec(), c.spec());
  }

  @Test
  void theResolvedSpec() {
    // tag::resolved[]
    CuckooFilter f = CuckooFilters.create("classic?capacity=1000000&targetFpp=0.0001");
    String resolved = f.spec().toString();
    // classic?capacity=1000000&fingerprintBits=17&bucketSize=4&hash=xxh3&seed=0&maxKicks=2000&concurrency=none
    CuckooFilter sameShape = CuckooFilters.create(resolved);
    // end::resolved[]
    assertEquals("classic?capacity=1000000&fingerprintBits=17&bucketSize=4&hash=xxh3&seed=0&maxKicks=2000&concurrency=none", resolved);
    assertEquals(f.spec(), sameShape.spec());
  }

  @Test
  void badValuesSayWhatIsAllowed() {
    // tag::errors[]
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.create("classic?capacity=1000000&fingerprintBits=40"));
    // e.getMessage(): fingerprintBits=40 is out of range for variant classic: 4..32
    // end::errors[]
    assertEquals("fingerprintBits=40 is out of range for variant classic: 4..32", e.getMessage());
  }
}
