package dev.cuckoo.classic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cuckoo.Concurrency;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.testkit.StripedConcurrencyContractTest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Classic filters with {@code concurrency=striped} shared by writer and reader threads: the two
 * fast paths (8- and 16-bit fingerprints) and packed 12-bit slots, where a stripe spans buckets
 * that share words.
 */
class ClassicConcurrencyTest extends StripedConcurrencyContractTest {

  @Test
  void theOptionIsCheckedKeptInTheSpecAndReadBackFromTheFile() throws IOException {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CuckooFilters.create("classic?capacity=1000&concurrency=locked"));
    assertEquals("concurrency=locked is out of range for variant classic: none, threadsafe, striped", e.getMessage());
    CuckooFilter f = CuckooFilters.create("classic?capacity=1000&concurrency=striped");
    assertEquals(Concurrency.STRIPED, f.spec().concurrency().orElseThrow());
    assertEquals(f.spec(), CuckooFilters.create("classic?capacity=1000&concurrency=threadsafe").spec());
    assertEquals(f.spec(), CuckooFilters.create(f.spec().toString()).spec());
    f.add("x");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    CuckooFilter back = CuckooFilters.read(new ByteArrayInputStream(out.toByteArray()));
    assertEquals(f.spec(), back.spec());
    assertEquals(Concurrency.NONE, CuckooFilters.create("classic?capacity=1000").spec().concurrency().orElseThrow());
  }

  @Override
  protected String variant() {
    return "classic";
  }

  @Override
  protected List<String> shapes() {
    return List.of("fingerprintBits=8", "fingerprintBits=12", "fingerprintBits=16", "fingerprintBits=12&bucketSize=2",
        "fingerprintBits=12&bucketSize=2&maxKicks=50");
  }
}
