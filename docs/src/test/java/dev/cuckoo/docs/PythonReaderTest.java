package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.MappedFilter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Python reader under {@code docs/reader}, written from the file-format guide, answers every
 * lookup as the library does on files the library writes: so the guide's description of how a
 * key becomes two buckets and a fingerprint, of both table encodings and of envelope versions 1
 * to 3 cannot drift from the code. Files of {@code murmur64a}, which the reader implements with
 * the standard library, are checked wherever a {@code python3} runs; files of {@code xxh3} (the
 * default) and {@code xxh64} where one imports the {@code xxhash} module ({@code python3} on the
 * path, then {@code /usr/bin/python3}, where Debian's {@code python3-xxhash} installs it). Each
 * test that cannot run says what is missing.
 */
class PythonReaderTest {
  private static final Path READER = Path.of("reader", "cuckoo_reader.py");
  private static final List<String> PYTHONS = List.of("python3", "/usr/bin/python3");
  private static final Optional<String> PYTHON = firstPythonThatRuns("pass");
  private static final Optional<String> PYTHON_WITH_XXHASH = firstPythonThatRuns("import xxhash");
  private static final String NO_PYTHON = "no python3 runs here (tried " + PYTHONS + "): the reader under docs/reader"
      + " is not checked";
  private static final String NO_XXHASH = "no python3 here imports xxhash (tried " + PYTHONS + "; pip install xxhash,"
      + " or apt-get install python3-xxhash): the reader is not checked on files of hash xxh3 and xxh64";

  @TempDir
  Path dir;

  /** Both variants, sharded or not, in every hash the reader implements. */
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
    "semi-sorted?capacity=3000&fingerprintBits=16&hash=murmur64a",
    "semi-sorted?capacity=3000&fingerprintBits=5&hash=murmur64a&seed=11",
    "semi-sorted?capacity=2000&fingerprintBits=8&hash=murmur64a",
    "semi-sorted?capacity=2000&fingerprintBits=13&hash=murmur64a&seed=-1",
    "semi-sorted?capacity=1000&fingerprintBits=17&hash=murmur64a",
    "semi-sorted?capacity=1000&fingerprintBits=20&hash=murmur64a",
    "semi-sorted?capacity=500&fingerprintBits=32&hash=murmur64a",
    "semi-sorted?capacity=3000&fingerprintBits=12&hash=murmur64a&shards=4",
    "semi-sorted?capacity=2000&fingerprintBits=16&hash=murmur64a&seed=5&shards=7",
    // The default hash, xxh3, and xxh64: where a python3 imports xxhash.
    "classic?capacity=3000",
    "classic?capacity=2000&fingerprintBits=7&bucketSize=8&seed=-9",
    "classic?capacity=2000&fingerprintBits=10&bucketSize=2&hash=xxh64&seed=-2",
    "semi-sorted?capacity=3000",
    "semi-sorted?capacity=2000&fingerprintBits=9&seed=-9223372036854775808&shards=3",
    "semi-sorted?capacity=2000&fingerprintBits=14&hash=xxh64&seed=123456789012",
  })
  void answersAsTheLibrary(String shape) throws Exception {
    assertAnswersAsTheLibrary(pythonFor(shape), brimful(shape));
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "classic?capacity=3000&fingerprintBits=12&bucketSize=4&hash=murmur64a&seed=-5",
    "classic?capacity=2000&fingerprintBits=7&bucketSize=2&hash=murmur64a&shards=3",
    "semi-sorted?capacity=3000&fingerprintBits=16&hash=murmur64a",
    "semi-sorted?capacity=2000&fingerprintBits=11&hash=murmur64a&seed=3&shards=5",
  })
  void version2FilesAnswerAsTheLibrary(String shape) throws Exception {
    String python = pythonFor(shape);
    Filled filled = brimful(shape);
    byte[] version2 = asVersion2(filled.file);
    // The library reads it, so it is a version 2 file as 0.2.0 wrote them, not the test's guess.
    CuckooFilter back = CuckooFilters.read(new ByteArrayInputStream(version2));
    assertEquals(filled.filter.size(), back.size(), shape);
    assertAnswersAsTheLibrary(python, new Filled(filled.filter, filled.added, version2));
  }

  @ParameterizedTest
  @ValueSource(strings = {"classic-8", "classic-12", "classic-16", "classic-12-striped", "semi-sorted-13",
      "semi-sorted-16"})
  void version1FilesOf0_1_0AnswerWithEveryKey(String name) throws Exception {
    String python = pythonFor("hash=xxh3"); // as all of these files
    Path old = files0_1_0().resolve(name + ".cuckoo");
    List<String> keys = Files.readAllLines(files0_1_0().resolve(name + ".keys"), StandardCharsets.UTF_8);
    StringBuilder expected = new StringBuilder();
    for (String key : keys) {
      expected.append(key).append("\ttrue\n");
    }
    Run run = reader(python, old, keys, false);
    assertEquals("", run.err, name);
    assertEquals(expected.toString(), run.out, name);
  }

  @Test
  void keysComeAsArgumentsOrOnePerLineFromStdin() throws Exception {
    assumeTrue(PYTHON.isPresent(), NO_PYTHON);
    CuckooFilter f = CuckooFilters.create("classic?capacity=100&hash=murmur64a");
    List<String> keys = List.of("alice", "ключ", "鍵", "", "bob", "--keys");
    f.add("ключ");
    f.add("鍵");
    f.add("");
    f.add("--keys");
    Path file = write(f);
    String expected = "alice\tfalse\nключ\ttrue\n鍵\ttrue\n\ttrue\nbob\tfalse\n--keys\ttrue\n";
    assertEquals(expected, reader(PYTHON.get(), file, keys, false).ok());
    assertEquals(expected, reader(PYTHON.get(), file, keys, true).ok());
  }

  @Test
  void mapsTheFileAndReadsOnlyThePagesItsLookupsTouch() throws Exception {
    assumeTrue(PYTHON.isPresent(), NO_PYTHON);
    // A table of 250 MB, sparse where the file system allows: cheap to make, dear to read whole.
    Path file = dir.resolve("large.cuckoo");
    List<String> keys = new ArrayList<>();
    StringBuilder expected = new StringBuilder();
    try (MappedFilter f = CuckooFilters.createFile("classic?capacity=240000000&fingerprintBits=8&hash=murmur64a",
        file)) {
      for (int i = 0; i < 25; i++) {
        f.add("k" + i);
      }
      for (int i = 0; i < 50; i++) {
        keys.add("k" + i);
        expected.append("k").append(i).append('\t').append(f.mightContain("k" + i)).append('\n');
      }
    }
    long size = Files.size(file);
    // Run it as a child of a Python that then reports the child's peak resident set: the pages
    // it mapped in count, as do its interpreter's own (about 10 MB).
    List<String> command = new ArrayList<>(List.of(PYTHON.get(), "-c",
        """
        import resource, subprocess, sys
        r = subprocess.run([sys.executable] + sys.argv[1:], stdout=subprocess.PIPE)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        sys.stdout.buffer.write(r.stdout)
        print(peak if sys.platform == 'darwin' else peak * 1024)
        """,
        READER.toString(), file.toString()));
    command.addAll(keys);
    String out = run(command, null).ok();
    int last = out.lastIndexOf('\n', out.length() - 2) + 1;
    assertEquals(expected.toString(), out.substring(0, last));
    long peak = Long.parseLong(out.substring(last).strip());
    assertTrue(peak < size / 4, "50 lookups in a file of " + size / 1_000_000 + " MB took a peak resident set of "
        + peak / 1_000_000 + " MB: the reader reads more than the buckets its keys need");
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

  @Test
  void saysInOneLineWhatElseItCannotRead() throws Exception {
    assumeTrue(PYTHON.isPresent(), NO_PYTHON);
    Path scalable = write(CuckooFilters.create("scalable?capacity=1000"));
    assertRefused(scalable, scalable + " holds a scalable filter; this reader reads classic and semi-sorted");
    Path city = write(CuckooFilters.create("classic?capacity=1000&hash=city"));
    assertRefused(city, city + " uses hash city, which this reader does not implement: it reads xxh3, xxh64 and"
        + " murmur64a (file-format.md, Hashes)");
    // A filter built with a hash instance under an implemented name: the hash check tells.
    Path impostor = write(CuckooFilters.create(FilterSpec.builder("classic").capacity(1000)
        .hash(new HashInstanceFileTest.Fnv1a("murmur64a", 1)).build()));
    assertRefused(impostor, impostor + ": hash murmur64a with seed 0 does not reproduce the file's hash check: the"
        + " filter was built with another hash under that name");
    Path dirty = dir.resolve("dirty.cuckoo");
    try (MappedFilter f = CuckooFilters.createFile("classic?capacity=1000&hash=murmur64a", dirty)) {
      f.add("alice"); // not forced: the file says it is being changed
      assertRefused(dirty, dirty + " was left being changed by its writer (state 1): its table may hold a half-moved"
          + " fingerprint");
    }
  }

  private void assertRefused(Path file, String message) throws Exception {
    Run run = reader(PYTHON.get(), file, List.of("alice"), false);
    assertEquals(1, run.exit, run.err);
    assertEquals("", run.out);
    assertEquals("cuckoo_reader.py: " + message + "\n", run.err);
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
    assertEquals(expected.toString(), reader(python, file, keys, false).ok(), filled.filter.spec().toString());
  }

  /**
   * A version 3 file of a table variant written as 0.2.0 wrote it: envelope version 2 (the header
   * up to the payload's length, then the payload), payload layout 2 (or 1, as its sizing field
   * says): the fields, the table, then the stash.
   */
  private static byte[] asVersion2(byte[] v3) throws IOException {
    ByteBuffer in = ByteBuffer.wrap(v3);
    int headerEnd = 12 + in.getShort(6) + in.getInt(8 + in.getShort(6)) + 32;
    int payload = (int) in.getLong(headerEnd + 8);
    int sizing = in.getInt(payload + 4);
    long words = in.getLong(payload + 24);
    int stashed = in.getInt(payload + 32);
    int table = payload + 4096;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    DataOutputStream o = new DataOutputStream(out);
    o.write(v3, 0, headerEnd);
    o.writeLong(4 + 24 + 8 * words + 4 + 12L * stashed);
    o.writeInt(sizing);
    o.write(v3, payload + 8, 24); // buckets, items, W
    o.write(v3, table, (int) (8 * words));
    o.write(v3, payload + 32, 4 + 12 * stashed);
    o.writeInt(0); // the checksum, below
    byte[] bytes = out.toByteArray();
    ByteBuffer b = ByteBuffer.wrap(bytes).putShort(4, (short) 2);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - 4);
    b.putInt(bytes.length - 4, (int) crc.getValue());
    return bytes;
  }

  private Path write(CuckooFilter f) throws IOException {
    Path file = Files.createTempFile(dir, "filter", ".cuckoo");
    try (OutputStream out = Files.newOutputStream(file)) {
      f.writeTo(out);
    }
    return file;
  }

  private static Path files0_1_0() throws URISyntaxException {
    return Paths.get(PythonReaderTest.class.getResource("files-0.1.0").toURI());
  }

  /** The reader's run on the keys, given as arguments or, one per line, on stdin. */
  private Run reader(String python, Path file, List<String> keys, boolean onStdin) throws Exception {
    List<String> command = new ArrayList<>(List.of(python, READER.toString()));
    if (onStdin) {
      command.addAll(List.of("--keys", "-", file.toString()));
      return run(command, String.join("\n", keys) + "\n");
    }
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
