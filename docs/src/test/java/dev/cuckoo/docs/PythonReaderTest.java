package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Python reader under {@code docs/reader}, written from the file-format guide alone, answers
 * every lookup as the library does on files the library writes: so the guide's description of
 * how a key becomes two buckets and a fingerprint cannot drift from the code. Files of {@code
 * murmur64a}, which the reader implements with the standard library, are checked wherever a
 * {@code python3} runs; files of {@code xxh3}, the default, where one imports the {@code xxhash}
 * module ({@code python3} on the path, then {@code /usr/bin/python3}, where Debian's {@code
 * python3-xxhash} installs it). Each test that cannot run says what is missing.
 */
class PythonReaderTest {
  private static final Path READER = Path.of("reader", "cuckoo_reader.py");
  private static final List<String> PYTHONS = List.of("python3", "/usr/bin/python3");
  private static final Optional<String> PYTHON = firstPythonThatRuns("pass");
  private static final Optional<String> PYTHON_WITH_XXHASH = firstPythonThatRuns("import xxhash");
  private static final String NO_PYTHON = "no python3 runs here (tried " + PYTHONS + "): the reader under docs/reader"
      + " is not checked";
  private static final String NO_XXHASH = "no python3 here imports xxhash (tried " + PYTHONS + "; pip install xxhash,"
      + " or apt-get install python3-xxhash): the reader is not checked on files of hash xxh3";

  @TempDir
  Path dir;

  /** Sharded or not, in every hash the reader implements. */
  @ParameterizedTest
  @ValueSource(strings = {
    "classic?capacity=3000&fingerprintBits=12&bucketSize=4&hash=murmur64a&seed=7",
    "classic?capacity=2000&fingerprintBits=8&bucketSize=4&hash=murmur64a",
    "classic?capacity=1000&fingerprintBits=16&bucketSize=4&hash=murmur64a",
    "classic?capacity=999&fingerprintBits=5&bucketSize=2&hash=murmur64a&seed=-3",
    "classic?capacity=500&fingerprintBits=32&bucketSize=8&hash=murmur64a",
    "classic?capacity=700&fingerprintBits=9&bucketSize=1&hash=murmur64a",
    // Sharded tables: both buckets of a key within its shard.
    "classic?capacity=3000&fingerprintBits=12&bucketSize=4&hash=murmur64a&shards=4",
    "classic?capacity=2000&fingerprintBits=8&bucketSize=2&hash=murmur64a&seed=5&shards=7",
    // The default hash, xxh3: where a python3 imports xxhash.
    "classic?capacity=3000",
    "classic?capacity=2000&fingerprintBits=7&bucketSize=8&seed=-9",
  })
  void answersAsTheLibrary(String shape) throws Exception {
    assertAnswersAsTheLibrary(pythonFor(shape), brimful(shape));
  }

  @Test
  void saysInOneLineThatXxh3NeedsTheXxhashModule() throws Exception {
    assumeTrue(PYTHON.isPresent(), NO_PYTHON);
    Path file = write(CuckooFilters.create("classic?capacity=1000"));
    // A Python without xxhash, whatever this one has: the module set to None fails its import
    // with ModuleNotFoundError, as a missing module does.
    Run run = run(List.of(PYTHON.get(), "-c",
        """
        import runpy, sys
        sys.modules['xxhash'] = None
        sys.argv = sys.argv[1:]
        runpy.run_path(sys.argv[0], run_name='__main__')
        """,
        READER.toString(), file.toString(), "alice"), null);
    assertEquals(1, run.exit, run.err);
    assertEquals("", run.out);
    assertEquals("cuckoo_reader.py: " + file + " uses hash xxh3, which needs the Python module xxhash: pip install"
        + " xxhash (Debian, Ubuntu: apt-get install python3-xxhash)\n", run.err);
  }

  /**
   * The python3 to read a file of the spec with: any for {@code murmur64a}, one that imports
   * xxhash for the other hashes. Assumes there is one.
   */
  private static String pythonFor(String spec) {
    if (spec.contains("hash=murmur64a")) {
      assumeTrue(PYTHON.isPresent(), NO_PYTHON);
      return PYTHON.get();
    }
    assumeTrue(PYTHON_WITH_XXHASH.isPresent(), NO_XXHASH);
    return PYTHON_WITH_XXHASH.get();
  }

  /** A filter, the keys {@code k0..} added to it until one was refused, and its file. */
  @SuppressWarnings("ArrayRecordComponent") // a carrier within this test: never compared
  private record Filled(CuckooFilter filter, long added, byte[] file) {}

  /** A filter of the shape filled to the brim, so that its stash holds some keys too. */
  private static Filled brimful(String shape) throws IOException {
    CuckooFilter f = CuckooFilters.create(shape);
    long added = 0;
    while (f.add("k" + added)) {
      added++;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return new Filled(f, added, out.toByteArray());
  }

  /** Checks that the reader answers every key added and 300 more as the filter does. */
  private void assertAnswersAsTheLibrary(String python, Filled filled) throws Exception {
    Path file = dir.resolve("f.cuckoo");
    Files.write(file, filled.file);
    List<String> keys = new ArrayList<>();
    StringBuilder expected = new StringBuilder();
    for (long i = 0; i < filled.added + 300; i++) {
      String key = "k" + i;
      keys.add(key);
      expected.append(key).append('\t').append(filled.filter.mightContain(key)).append('\n');
    }
    assertEquals(expected.toString(), reader(python, file, keys).ok(), filled.filter.spec().toString());
  }

  private Path write(CuckooFilter f) throws IOException {
    Path file = Files.createTempFile(dir, "filter", ".cuckoo");
    try (OutputStream out = Files.newOutputStream(file)) {
      f.writeTo(out);
    }
    return file;
  }

  /** The reader's run on the keys, given as arguments. */
  private Run reader(String python, Path file, List<String> keys) throws Exception {
    List<String> command = new ArrayList<>(List.of(python, READER.toString()));
    command.add(file.toString());
    command.addAll(keys);
    return run(command, null);
  }

  /** What a process wrote and how it ended. */
  private record Run(int exit, String out, String err) {
    String ok() {
      assertEquals(0, exit, err);
      assertEquals("", err);
      return out;
    }
  }

  private Run run(List<String> command, String stdin) throws Exception {
    Path input = Files.createTempFile(dir, "stdin", ".txt");
    Path errors = Files.createTempFile(dir, "stderr", ".txt");
    Files.writeString(input, stdin == null ? "" : stdin, StandardCharsets.UTF_8);
    Process p = new ProcessBuilder(command).redirectInput(input.toFile()).redirectError(errors.toFile()).start();
    String out;
    try (InputStream in = p.getInputStream()) {
      out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertTrue(p.waitFor(2, TimeUnit.MINUTES), "the reader did not finish: " + command.subList(0, 3));
    return new Run(p.exitValue(), out, Files.readString(errors, StandardCharsets.UTF_8));
  }

  /** The first of {@link #PYTHONS} that runs the statement and exits 0. */
  private static Optional<String> firstPythonThatRuns(String statement) {
    for (String python : PYTHONS) {
      try {
        Process p = new ProcessBuilder(python, "-c", statement).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0) {
          return Optional.of(python);
        }
      } catch (IOException e) {
        // not installed there: try the next
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.empty();
      }
    }
    return Optional.empty();
  }
}
