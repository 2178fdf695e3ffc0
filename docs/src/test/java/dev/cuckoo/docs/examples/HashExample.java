package dev.cuckoo.docs.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.auto.service.AutoService;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.HashStrategy;
import dev.cuckoo.spi.HashStrategyProvider;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** A hash of your own: given as an instance, and installed under a name for config strings. */
class HashExample {

  // tag::strategy[]
  /** FNV-1a over the key's bytes, finished with a 64-bit mixer so that every bit counts. */
  public static final class Fnv1a implements HashStrategy {
    private final long seed;

    public Fnv1a(long seed) {
      this.seed = seed;
    }

    @Override
    public String name() {
      return "fnv1a";
    }

    @Override
    public long hashBytes(byte[] bytes, int offset, int length) {
      long h = 0xcbf29ce484222325L ^ seed;
      for (int i = offset; i < offset + length; i++) {
        h = (h ^ (bytes[i] & 0xFF)) * 0x100000001b3L;
      }
      h = (h ^ (h >>> 33)) * 0xff51afd7ed558ccdL;
      h = (h ^ (h >>> 33)) * 0xc4ceb9fe1a85ec53L;
      return h ^ (h >>> 33);
    }
    // hashChars and hashLong come from the interface: the UTF-8 and little-endian bytes.
  }
  // end::strategy[]

  // tag::provider[]
  /** Makes "fnv1a" a name config strings and filter files can use. */
  @AutoService(HashStrategyProvider.class)
  public static final class Fnv1aProvider implements HashStrategyProvider {
    @Override
    public String name() {
      return "fnv1a";
    }

    @Override
    public HashStrategy create(long seed) {
      return new Fnv1a(seed);
    }
  }
  // end::provider[]

  @Test
  void passAnInstance() {
    // tag::instance[]
    CuckooFilter f = CuckooFilters.create(
        FilterSpec.builder("classic").capacity(1_000_000).hash(new Fnv1a(42)).build());
    // end::instance[]
    assertTrue(f.add("alice") && f.mightContain("alice"));
  }

  @Test
  void nameAnInstalledHash() throws IOException {
    // tag::by-name[]
    CuckooFilter f = CuckooFilters.create("classic?capacity=1000000&hash=fnv1a&seed=42");
    // end::by-name[]
    f.add("alice");
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    f.writeTo(file);
    CuckooFilter back = CuckooFilters.read(new ByteArrayInputStream(file.toByteArray()));
    assertTrue(back.mightContain("alice"), "the file names the hash, and the reader finds it");
    assertEquals(new Fnv1a(42).hashChars("alice"), CuckooFilters.hash("fnv1a", 42).hashChars("alice"));
  }
}
