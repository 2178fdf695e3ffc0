package dev.cuckoo.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The bodies of a variant's fuzz tests of hostile input, so that every variant module's
 * {@code @FuzzTest} is one line: {@link #readFile} for {@code CuckooFilters.read}, {@link
 * #createFromConfig} for {@code FilterSpec.parse} and {@code CuckooFilters.create(String)}.
 *
 * <p>The only outcomes allowed are a working filter or the documented exception: {@link
 * CorruptFilterException} for a file, {@link IllegalArgumentException} for a config string.
 * Anything else escapes and is a finding. A filter that was read is exercised (lookups, adds,
 * counts, removes, a write/read round trip), which must not throw at all.
 *
 * <p>A byte-mutating fuzzer nearly always breaks a file's CRC32C, which the envelope checks only
 * after the payload, and the fields before the payload: so {@link #readFile} takes its first byte
 * as a mode. An even mode reads the rest as a whole file; an odd one takes the next byte as an
 * index into the variant's list of specs and wraps the rest, as payload, in a checksum-valid
 * envelope of that spec, so that the fuzzer works on the payload parser itself. Mode bit 1
 * additionally makes the envelope declare a payload 2^20 bytes longer than the one given, which
 * ends early: a reader must then not allocate for what never arrives.
 */
public final class FilterFuzzing {
  /** Filters with at most this capacity are created by {@link #createFromConfig}; larger ones only validated. */
  public static final long LARGEST_CREATED = 1 << 20;

  private static final int KEYS = 64;

  private FilterFuzzing() {}

  /**
   * Reads the input as {@link FilterFuzzing} describes, expecting a filter or {@link
   * CorruptFilterException}, and exercises the filter.
   *
   * @param input any bytes
   * @param specs the specs a payload may be wrapped in (config strings of small filters)
   */
  public static void readFile(byte[] input, List<String> specs) {
    if (input == null || input.length == 0) {
      return;
    }
    byte[] file;
    int mode = input[0] & 0xFF;
    if ((mode & 1) == 0) {
      file = Arrays.copyOfRange(input, 1, input.length);
    } else if (input.length < 2) {
      return;
    } else {
      String spec = specs.get((input[1] & 0xFF) % specs.size());
      byte[] payload = Arrays.copyOfRange(input, 2, input.length);
      try {
        file = (mode & 2) == 0
            ? ForgedFiles.file(spec, payload.length, out -> out.write(payload))
            : ForgedFiles.truncated(spec, payload.length + (1L << 20), out -> out.write(payload), 0);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    CuckooFilter f;
    try {
      f = CuckooFilters.read(new ByteArrayInputStream(file));
    } catch (CorruptFilterException expected) {
      return;
    } catch (IOException e) {
      throw new AssertionError("reading from memory threw an IOException that is not a CorruptFilterException", e);
    }
    exercise(f, input.length);
  }

  /**
   * Writes the input to a file and maps it ({@link CuckooFilters#open}), expecting a filter or
   * {@link CorruptFilterException} (or {@link UnsupportedOperationException} for a variant that
   * does not map or an older format version), and looks keys up in the filter: a file that opens
   * must answer without an exception, whatever its table holds.
   *
   * @param input any bytes
   */
  public static void openFile(byte[] input) {
    if (input == null) {
      return;
    }
    Path file = OpenedFile.PATH;
    try {
      Files.write(file, input);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    dev.cuckoo.MappedFilter f;
    try {
      f = CuckooFilters.open(file);
    } catch (CorruptFilterException | UnsupportedOperationException expected) {
      return;
    } catch (IOException e) {
      throw new AssertionError("opening a file threw an IOException that is not a CorruptFilterException", e);
    }
    try (f) {
      SplittableRandom r = new SplittableRandom(input.length);
      for (int i = 0; i < KEYS; i++) {
        long key = r.nextLong();
        f.mightContain(key);
        f.count(key);
      }
      f.size();
      f.loadFactor();
      try {
        f.verify();
      } catch (CorruptFilterException expected) {
        // a table that disagrees with its checksum or its items: found, as it must be
      }
    } catch (IOException e) {
      throw new AssertionError("closing a read-only file failed", e);
    }
  }

  /** The file {@link #openFile} writes each input to: one per JVM, deleted when it exits. */
  private static final class OpenedFile {
    static final Path PATH = create();

    private static Path create() {
      try {
        Path file = Files.createTempFile("open-fuzz", ".cuckoo");
        file.toFile().deleteOnExit();
        return file;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * Writes seed inputs for {@link #openFile}: for each spec, files of filters holding no key, a
   * few and many keys.
   *
   * @param dir the fuzz test's inputs folder ({@link #inputsOf})
   * @param specs config strings of small filters
   * @throws IOException if writing fails
   */
  public static void writeOpenSeeds(Path dir, List<String> specs) throws IOException {
    Files.createDirectories(dir);
    forEachSeedFilter(specs, (s, load, file) -> Files.write(dir.resolve("file-" + s + "-" + load), file));
  }


  /**
   * Parses the text, expecting a spec that round-trips through its text or {@link
   * IllegalArgumentException}; then creates the filter it names, expecting a filter or {@link
   * IllegalArgumentException}, and exercises it. Specs of more than {@link #LARGEST_CREATED}
   * capacity are only validated: creating them would allocate what they rightly ask for.
   *
   * @param config any text
   */
  public static void createFromConfig(String config) {
    if (config == null) {
      return; // documented to throw NullPointerException
    }
    FilterSpec spec;
    try {
      spec = FilterSpec.parse(config);
    } catch (IllegalArgumentException expected) {
      return;
    }
    assertEquals(spec, FilterSpec.parse(spec.toString()), "text round trip of " + spec);
    FilterSpec resolved;
    try {
      resolved = dev.cuckoo.internal.ProviderRegistry.provider(spec.variant()).validate(spec);
    } catch (IllegalArgumentException expected) {
      return;
    }
    assertEquals(resolved, FilterSpec.parse(resolved.toString()), "text round trip of " + resolved);
    if (resolved.capacity().orElse(Long.MAX_VALUE) > LARGEST_CREATED) {
      return;
    }
    CuckooFilter f = CuckooFilters.create(config);
    assertEquals(resolved, f.spec(), "the spec of the filter created from '" + config + "'");
    exercise(f, config.hashCode());
  }

  /**
   * Uses a filter that was read or created: every operation must work and keep the contract
   * for the keys it adds, and a write/read round trip must keep its size and answers.
   *
   * @param f the filter
   * @param salt varies the keys (mixed with {@link TestSeed}: a failure message carries the seed)
   */
  public static void exercise(CuckooFilter f, long salt) {
    long size = f.size();
    assertTrue(size >= 0 && f.capacity() > 0 && f.sizeInBytes() > 0, () -> "state of " + f.spec() + ": size " + size);
    double load = f.loadFactor();
    double fpp = f.expectedFpp();
    assertTrue(load >= 0 && fpp >= 0 && fpp <= 1, () -> "load " + load + ", expectedFpp " + fpp);
    SplittableRandom r = TestSeed.random("exercise " + salt);
    String at = f.spec() + ", salt " + salt + ", " + TestSeed.rerun();
    long[] added = new long[KEYS];
    int n = 0;
    for (int i = 0; i < KEYS; i++) {
      long key = r.nextLong();
      f.mightContain(key);
      f.count(key);
      if (f.add(key)) {
        added[n++] = key;
      }
    }
    assertEquals(size + n, f.size(), "size after " + n + " adds; " + at);
    for (int i = 0; i < n; i++) {
      long key = added[i];
      assertTrue(f.mightContain(key) && f.count(key) >= 1, () -> "false negative for an added key in " + at);
    }
    f.addIfAbsent(r.nextLong());
    CuckooFilter g = CuckooFilterContractTest.roundTrip(f);
    assertEquals(f.size(), g.size(), "size after write/read; " + at);
    assertEquals(f.spec(), g.spec(), "spec after write/read; " + at);
    for (int i = 0; i < n; i++) {
      assertTrue(g.mightContain(added[i]), "key lost by write/read; " + at);
    }
    for (int i = 0; i < n; i++) {
      assertTrue(g.remove(added[i]), "remove of an added key; " + at);
    }
    g.clear();
    assertEquals(0, g.size(), "size after clear; " + at);
  }

  /**
   * The folder where Jazzer looks for a fuzz test's committed inputs, relative to the module:
   * {@code src/test/resources/<package>/<TestClass>Inputs/<method>}.
   *
   * @param test the fuzz test's class
   * @param method the fuzz test's method
   * @return the folder
   */
  public static Path inputsOf(Class<?> test, String method) {
    return Paths.get("src/test/resources", test.getPackageName().replace('.', '/'),
        test.getSimpleName() + "Inputs", method);
  }

  /**
   * Writes seed inputs for {@link #readFile}: for each spec, filters of it holding no key, a few
   * and many (to its first refusal, or twice the capacity of a growing one), each as a whole file (mode 0) and as the payload in spec
   * mode (mode 1).
   *
   * @param dir the fuzz test's inputs folder ({@link #inputsOf})
   * @param specs the same list the fuzz test passes to {@link #readFile}
   * @throws IOException if writing fails
   */
  public static void writeReadSeeds(Path dir, List<String> specs) throws IOException {
    Files.createDirectories(dir);
    forEachSeedFilter(specs, (s, load, file) -> {
      Files.write(dir.resolve("file-" + s + "-" + load), concat(new byte[] {0}, file));
      Files.write(dir.resolve("payload-" + s + "-" + load), concat(new byte[] {1, (byte) s}, payloadOf(file)));
    });
  }

  /** What to do with one seed filter's file. */
  @FunctionalInterface
  private interface SeedFile {
    void write(int spec, String load, byte[] file) throws IOException;
  }

  /**
   * Makes, for each spec, filters holding no key, a few and many (to the first refusal, or twice
   * the capacity of a growing one), and hands over each one's file.
   */
  private static void forEachSeedFilter(List<String> specs, SeedFile seed) throws IOException {
    for (int s = 0; s < specs.size(); s++) {
      for (Map.Entry<String, Integer> load : Map.of("empty", 0, "few", 5, "full", Integer.MAX_VALUE).entrySet()) {
        CuckooFilter f = CuckooFilters.create(specs.get(s));
        // Fixed keys, not TestSeed's: regenerating the committed inputs must reproduce them.
        SplittableRandom r = new SplittableRandom(s);
        long keys = Math.min(load.getValue(), 2 * f.spec().capacity().getAsLong());
        for (long i = 0; i < keys && f.add(r.nextLong()); i++) {
          // add
        }
        seed.write(s, load.getKey(), CuckooFilterContractTest.write(f));
      }
    }
  }

  /** @return the payload of a filter file: the bytes between the payload length and the checksum */
  static byte[] payloadOf(byte[] file) {
    ByteBuffer b = ByteBuffer.wrap(file);
    int variantLength = b.getShort(6) & 0xFFFF;
    int specLength = b.getInt(8 + variantLength);
    int start = 12 + variantLength + specLength + 8;
    return Arrays.copyOfRange(file, start, file.length - 4);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(a);
    out.writeBytes(b);
    return out.toByteArray();
  }

  /**
   * Writes config strings as seed inputs for {@link #createFromConfig}.
   *
   * @param dir the fuzz test's inputs folder
   * @param configs the configs
   * @throws IOException if writing fails
   */
  public static void writeConfigSeeds(Path dir, List<String> configs) throws IOException {
    Files.createDirectories(dir);
    for (int i = 0; i < configs.size(); i++) {
      Files.write(dir.resolve("config-" + i), configs.get(i).getBytes(StandardCharsets.UTF_8));
    }
  }
}
