package example.client;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.spi.HashStrategy;
import dev.cuckoo.testkit.AllocationMeter;
import dev.cuckoo.testkit.TestSeed;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.LongFunction;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * A client of the public API only ({@code dev.cuckoo} and its SPI types), checking every
 * installed hash against zero-allocation-hashing itself, against hard-coded vectors, and against
 * the key-encoding rule.
 */
class PublicApiHashTest {
  /** name → (seedless function, seeded function), the oracle. */
  private static final Map<String, LongFunction<LongHashFunction>> ORACLE =
      Map.of(
          "xxh3", s -> s == 0 ? LongHashFunction.xx3() : LongHashFunction.xx3(s),
          "xxh64", s -> s == 0 ? LongHashFunction.xx() : LongHashFunction.xx(s),
          "murmur3", s -> s == 0 ? LongHashFunction.murmur_3() : LongHashFunction.murmur_3(s),
          "wyhash", s -> s == 0 ? LongHashFunction.wy_3() : LongHashFunction.wy_3(s),
          "metro", s -> s == 0 ? LongHashFunction.metro() : LongHashFunction.metro(s),
          "city", s -> s == 0 ? LongHashFunction.city_1_1() : LongHashFunction.city_1_1(s),
          "farm", s -> s == 0 ? LongHashFunction.farmNa() : LongHashFunction.farmNa(s));

  /**
   * Hashes of "", "a", "abc", "hello world", "The quick brown fox jumps over the lazy dog", the
   * bytes 0..99, and "abc" with seed 42. Cross-checked values from the reference
   * implementations: XXH3("") 0x2d06800538d394c2, XXH64("") 0xef46db3751d8e999, XXH64("a")
   * 0xd24ec4f1a98c6e5b, CityHash64("") 0x9ae16a3b2f90404f, MurmurHash3_x64_128("") 0.
   */
  private static final Map<String, long[]> VECTORS =
      Map.of(
          "xxh3", new long[] {0x2d06800538d394c2L, 0xe6c632b61e964e1fL, 0x78af5f94892f3950L, 0xd447b1ea40e6988bL, 0xce7d19a5418fb365L, 0x004e4f921a64bd1cL, 0xd8438def21bbdcc3L},
          "xxh64", new long[] {0xef46db3751d8e999L, 0xd24ec4f1a98c6e5bL, 0x44bc2cf5ad770999L, 0x45ab6734b21e6968L, 0x0b242d361fda71bcL, 0x6ac1e58032166597L, 0x13c1d910702770e6L},
          "murmur3", new long[] {0x0000000000000000L, 0x85555565f6597889L, 0xb4963f3f3fad7867L, 0x533f6046eb7f610eL, 0xe34bbc7bbc071b6cL, 0xb06f9999c14051caL, 0x0d85089fb3cff7d6L},
          "wyhash", new long[] {0x0000000000000000L, 0x773a0b0c98eb07e4L, 0xf1f13b84f20cadb8L, 0x100d2d4cda98b65cL, 0xcf850ba9ddd12bb3L, 0x458d0a2e65f060a9L, 0x1dbc21958e02c867L},
          "metro", new long[] {0x705fb008071e967dL, 0xaf6f242b7ed32bcbL, 0xed4f5524e6faffbbL, 0x22d16db35723c197L, 0x9c3874191571b837L, 0xc3b23f61722e20beL, 0xf57b92bf4d7042cdL},
          "city", new long[] {0x9ae16a3b2f90404fL, 0xb3454265b6df75e3L, 0x24a5b3a074e7f369L, 0x588fb7478bd6b01bL, 0xc268724928feca7dL, 0xa47fe83e60b34cc6L, 0x7cc3d6c765bbc74fL},
          "farm", new long[] {0x9ae16a3b2f90404fL, 0xb3454265b6df75e3L, 0x24a5b3a074e7f369L, 0x588fb7478bd6b01bL, 0xabbe83f33b1b5134L, 0x3cff0f886d8d6195L, 0x7cc3d6c765bbc74fL});

  private static final String[] VECTOR_INPUTS = {
    "", "a", "abc", "hello world", "The quick brown fox jumps over the lazy dog"
  };

  private static final String[] ALL = {
    "xxh3", "xxh64", "murmur3", "murmur64a", "wyhash", "metro", "city", "farm"
  };

  private static String seedNote() {
    return " (" + TestSeed.rerun() + ")";
  }

  @ParameterizedTest
  @ValueSource(strings = {"xxh3", "xxh64", "murmur3", "wyhash", "metro", "city", "farm"})
  void equalsZeroAllocationHashingForRandomInputsAndSeeds(String name) {
    SplittableRandom random = TestSeed.random("inputs and seeds for " + name);
    HashStrategy unseeded = CuckooFilters.hash(name);
    LongHashFunction oracle0 = ORACLE.get(name).apply(0);
    for (int i = 0; i < 2_000; i++) {
      byte[] data = randomBytes(random, random.nextInt(300));
      int off = data.length == 0 ? 0 : random.nextInt(data.length);
      int len = random.nextInt(data.length - off + 1);
      assertEquals(oracle0.hashBytes(data, off, len), unseeded.hashBytes(data, off, len),
          name + " seedless, " + len + " bytes" + seedNote());
      long seed = random.nextLong();
      if (seed != 0) {
        assertEquals(ORACLE.get(name).apply(seed).hashBytes(data), CuckooFilters.hash(name, seed).hashBytes(data),
            name + " seed " + seed + seedNote());
      }
      long key = random.nextLong();
      assertEquals(oracle0.hashBytes(littleEndian(key)), unseeded.hashLong(key), name + " long" + seedNote());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"xxh3", "xxh64", "murmur3", "wyhash", "metro", "city", "farm"})
  void matchesHardCodedVectors(String name) {
    long[] expected = VECTORS.get(name);
    HashStrategy h = CuckooFilters.hash(name);
    for (int i = 0; i < VECTOR_INPUTS.length; i++) {
      assertEquals(expected[i], h.hashChars(VECTOR_INPUTS[i]), name + "(\"" + VECTOR_INPUTS[i] + "\")");
      assertEquals(expected[i], h.hashBytes(VECTOR_INPUTS[i].getBytes(UTF_8)), name + "(bytes of \"" + VECTOR_INPUTS[i] + "\")");
    }
    byte[] hundred = new byte[100];
    for (int i = 0; i < 100; i++) {
      hundred[i] = (byte) i;
    }
    assertEquals(expected[5], h.hashBytes(hundred), name + "(0..99)");
    assertEquals(expected[6], CuckooFilters.hash(name, 42).hashChars("abc"), name + "(\"abc\", seed 42)");
  }

  @Test
  void murmur64aMatchesRedisBloomVectors() {
    HashStrategy h = CuckooFilters.hash("murmur64a");
    assertEquals(0L, h.hashChars(""));
    assertEquals(0x071717d2d36b6b11L, h.hashChars("a"));
    assertEquals(0xcdde38358fd25b01L, h.hashChars("foo"));
    assertEquals(0x7930a108c52a9032L, h.hashChars("item1"));
    // The reference's example fingerprints: fp = (hash mod 255) + 1, unsigned.
    assertEquals(217, Long.remainderUnsigned(h.hashChars("foo"), 255) + 1);
    assertEquals(196, Long.remainderUnsigned(h.hashChars("a"), 255) + 1);
    assertEquals(7, Long.remainderUnsigned(h.hashChars("item1"), 255) + 1);
  }

  @Test
  void murmur64aSeedChangesTheHash() {
    assertTrue(CuckooFilters.hash("murmur64a", 1).hashChars("a") != CuckooFilters.hash("murmur64a").hashChars("a"));
  }

  @Test
  void everyHashFollowsTheKeyEncodingRule() {
    SplittableRandom random = TestSeed.random("key encoding rule");
    for (String name : ALL) {
      HashStrategy h = CuckooFilters.hash(name, random.nextLong());
      for (int i = 0; i < 1_000; i++) {
        String s = randomString(random, random.nextInt(40));
        assertEquals(h.hashBytes(s.getBytes(UTF_8)), h.hashChars(s), name + " chars " + escape(s) + seedNote());
        // A CharSequence that is not a String takes hashChars' other path: the builder is the point.
        @SuppressWarnings("UnnecessaryStringBuilder")
        CharSequence builder = new StringBuilder(s);
        assertEquals(h.hashBytes(s.getBytes(UTF_8)), h.hashChars(builder), name + " builder" + seedNote());
        long key = random.nextLong();
        assertEquals(h.hashBytes(littleEndian(key)), h.hashLong(key), name + " long " + key + seedNote());
      }
      String longKey = randomString(random, 30_000);
      assertEquals(h.hashBytes(longKey.getBytes(UTF_8)), h.hashChars(longKey), name + " 30,000 chars" + seedNote());
    }
  }

  @Test
  void unknownHashNamesTheInstalledOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CuckooFilters.hash("sha1"));
    assertTrue(e.getMessage().contains("sha1") && e.getMessage().contains("xxh3") && e.getMessage().contains("murmur64a"),
        e.getMessage());
  }

  @Test
  void outOfBoundsRangesAreRejected() {
    for (String name : ALL) {
      HashStrategy h = CuckooFilters.hash(name);
      assertThrows(IndexOutOfBoundsException.class, () -> h.hashBytes(new byte[4], 2, 3), name);
      assertThrows(IndexOutOfBoundsException.class, () -> h.hashBytes(new byte[4], -1, 1), name);
    }
  }

  @Test
  void commonPathsAllocateNothing() {
    byte[] bytes = "some key of moderate length".getBytes(UTF_8);
    String chars = "ключ-ünïcödé-key";
    for (String name : ALL) {
      HashStrategy h = CuckooFilters.hash(name);
      long[] sink = new long[1];
      long allocated = AllocationMeter.allocatedBy(() -> {
        for (int i = 0; i < 200_000; i++) {
          sink[0] += h.hashBytes(bytes, 0, bytes.length) + h.hashChars(chars) + h.hashLong(i);
        }
      });
      // Slack for JIT deoptimization and the meter itself; 600,000 hashes allocating even one
      // 16-byte object each would show as 9.6 MB.
      assertTrue(allocated < 64 * 1024, name + " allocated " + allocated + " bytes in 600,000 hashes (sink " + sink[0] + ")");
    }
  }

  static byte[] littleEndian(long key) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(key).array();
  }

  private static byte[] randomBytes(SplittableRandom random, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) random.nextInt();
    }
    return b;
  }

  /** Mixes ASCII, 2- and 3-byte chars, surrogate pairs and unpaired surrogates. */
  static String randomString(SplittableRandom random, int n) {
    StringBuilder sb = new StringBuilder(n);
    while (sb.length() < n) {
      switch (random.nextInt(6)) {
        case 0 -> sb.append((char) random.nextInt(0x80));
        case 1 -> sb.append((char) (0x80 + random.nextInt(0x780)));
        case 2 -> sb.append((char) (0x800 + random.nextInt(0xD000)));
        case 3 -> sb.appendCodePoint(0x10000 + random.nextInt(0x100000));
        case 4 -> sb.append((char) (0xD800 + random.nextInt(0x800))); // lone surrogate
        default -> sb.append((char) ('a' + random.nextInt(26)));
      }
    }
    return sb.toString();
  }

  private static String escape(String s) {
    StringBuilder sb = new StringBuilder();
    s.chars().forEach(c -> sb.append(c < 0x80 && c >= 0x20 ? String.valueOf((char) c) : String.format("\\u%04x", c)));
    return sb.toString();
  }
}
