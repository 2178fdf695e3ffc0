package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.HashStrategy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A user's own seeded hash, passed as an instance to a {@code classic} filter, as a new user did
 * when a round trip silently lost every key: the file now refuses to be read with any hash but
 * the one it was built with, whether the instance's name is installed or not.
 */
class HashInstanceFileTest {

  /** FNV-1a with a seed, named as the caller likes. */
  record Fnv1a(String name, long seed) implements HashStrategy {
    @Override
    public long hashBytes(byte[] bytes, int offset, int length) {
      long h = 0xcbf29ce484222325L ^ seed;
      for (int i = offset; i < offset + length; i++) {
        h = (h ^ (bytes[i] & 0xFF)) * 0x100000001b3L;
      }
      return h ^ (h >>> 29) * 0x9E3779B97F4A7C15L;
    }
  }

  @ParameterizedTest(name = "instance named {0}")
  @ValueSource(strings = {"fnv1a", "xxh3"})
  void aFilterBuiltWithAnInstanceReadsBackOnlyWithThatHash(String name) throws IOException {
    CuckooFilter f = CuckooFilters.create(FilterSpec.builder("classic").capacity(100_000).hash(new Fnv1a(name, 7)).build());
    for (int i = 0; i < 1_000; i++) {
      f.add("user-" + i);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    byte[] file = out.toByteArray();

    String byName = assertThrows(CorruptFilterException.class,
        () -> CuckooFilters.read(new ByteArrayInputStream(file))).getMessage();
    assertTrue((byName.contains("hash=" + name + " is not installed") || byName.contains("hash '" + name + "'"))
        && byName.contains("CuckooFilters.read(in, hash)"), byName);
    String wrongSeed = assertThrows(CorruptFilterException.class,
        () -> CuckooFilters.read(new ByteArrayInputStream(file), new Fnv1a(name, 8))).getMessage();
    assertTrue(wrongSeed.contains("the given hash '" + name + "' is not the hash this filter was written with"), wrongSeed);

    CuckooFilter back = CuckooFilters.read(new ByteArrayInputStream(file), new Fnv1a(name, 7));
    assertEquals(1_000, back.size());
    for (int i = 0; i < 1_000; i++) {
      assertTrue(back.mightContain("user-" + i), "user-" + i);
    }
  }
}
