package dev.cuckoo.cli;

import static dev.cuckoo.cli.CommandRun.cuckoo;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.cuckoo.logstore.LogStore;
import dev.cuckoo.testkit.SeedInFailures;
import dev.cuckoo.testkit.TestSeed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cuckoo store}: the original demo's round trip (a large text file imported as chunks and
 * exported back identical), deduplication, what {@code info} measures, and every way it fails.
 * Its texts are random ({@link TestSeed}); a failure carries the seed.
 */
@ExtendWith(SeedInFailures.class)
class StoreCommandTest {
  @TempDir
  Path dir;

  /** Text number {@code which}, of {@code bytes}, its paragraphs drawn from a small set so chunks repeat. */
  private static byte[] text(int which, int bytes) {
    SplittableRandom random = TestSeed.random("store text " + which);
    String[] paragraphs = new String[40];
    for (int p = 0; p < paragraphs.length; p++) {
      StringBuilder b = new StringBuilder();
      while (b.length() < 16_384) {
        b.append("word").append(random.nextInt(100_000)).append(random.nextInt(12) == 0 ? ".\n" : " ");
      }
      paragraphs[p] = b.append("\n\n").toString();
    }
    StringBuilder all = new StringBuilder();
    while (all.length() < bytes) {
      all.append(paragraphs[random.nextInt(paragraphs.length)]);
    }
    return all.substring(0, bytes).getBytes(UTF_8);
  }

  @Test
  void aFileImportedComesBackByteForByte() throws IOException {
    byte[] content = text(1, 3_000_000);
    Path file = dir.resolve("book.txt");
    Files.write(file, content);
    Path store = dir.resolve("store");
    String imported = cuckoo("store", "import", store.toString(), file.toString()).ok().out();
    assertTrue(imported.startsWith("imported " + file + " into " + store + " as 'book.txt': 3,000,000 bytes, 46 chunks"), imported);
    Path out = dir.resolve("book.out");
    String exported = cuckoo("store", "export", store.toString(), out.toString()).ok().out();
    assertTrue(exported.startsWith("exported 'book.txt' from " + store + " to " + out + ": 3,000,000 bytes, 46 chunks"), exported);
    assertArrayEquals(content, Files.readAllBytes(out));
  }

  @Test
  void chunksAreStoredOnceAndEveryNameComesBack() throws IOException {
    Path store = dir.resolve("store");
    byte[] first = text(2, 1_000_000);
    byte[] second = Arrays.copyOf(first, first.length + 5_000); // the first, then more
    byte[] empty = new byte[0];
    Files.write(dir.resolve("first"), first);
    Files.write(dir.resolve("second"), second);
    Files.write(dir.resolve("empty"), empty);
    cuckoo("store", "import", store.toString(), dir.resolve("first").toString(), "--chunk-size", "4096").ok();
    String again = cuckoo("store", "import", store.toString(), dir.resolve("second").toString(), "--chunk-size", "4096").ok().out();
    // 246 chunks: the 244 whole ones of the first file are stored already; the last two are new
    // unless a random text repeats one of them at a chunk boundary, which the model counts too.
    Set<String> stored = new HashSet<>();
    addChunks(stored, first, 4096);
    int fresh = addChunks(stored, second, 4096);
    assertTrue(again.contains("246 chunks (" + fresh + " new, " + (246 - fresh) + " already stored)"), again);
    cuckoo("store", "import", store.toString(), dir.resolve("empty").toString(), "--name", "nothing").ok();
    cuckoo("store", "import", "-q", store.toString(), dir.resolve("first").toString(), "--name", "first again").ok();

    assertArrayEquals(first, export(store, "first"));
    assertArrayEquals(second, export(store, "second"));
    assertArrayEquals(empty, export(store, "nothing"));
    assertArrayEquals(first, export(store, "first again"));

    String info = cuckoo("store", "info", store.toString()).ok().out();
    assertTrue(info.contains("files") && info.contains("first, second, nothing, first again"), info);
    Matcher live = Pattern.compile("live keys\\s+([\\d,]+)").matcher(info);
    assertTrue(live.find(), info);
    // the distinct chunks of both files at 4 KiB and of the first at 64 KiB, four manifests, their list
    Set<String> chunks = new HashSet<>();
    addChunks(chunks, first, 4096);
    addChunks(chunks, second, 4096);
    addChunks(chunks, first, 65_536);
    assertEquals(chunks.size() + 4 + 1, Long.parseLong(live.group(1).replace(",", "")), info);
    Matcher reads = Pattern.compile("reads per get\\s+([\\d.]+) present \\(([\\d,]+) chunks\\), ([\\d.]+) absent \\(100,000 random keys\\)").matcher(info);
    assertTrue(reads.find(), info);
    assertEquals(1.0, Double.parseDouble(reads.group(1)), 0.05, info);
    assertTrue(Double.parseDouble(reads.group(3)) < 0.02, info);
    Matcher index = Pattern.compile("index\\s+[\\d,]+ bytes \\(([\\d.]+) bytes per key\\)").matcher(info);
    assertTrue(index.find(), info);
  }

  /** @return how many of the content's chunks were not in the set yet */
  private static int addChunks(Set<String> chunks, byte[] content, int chunk) {
    int added = 0;
    for (int at = 0; at < content.length; at += chunk) {
      added += chunks.add(Arrays.toString(Arrays.copyOfRange(content, at, Math.min(content.length, at + chunk)))) ? 1 : 0;
    }
    return added;
  }

  private byte[] export(Path store, String name) throws IOException {
    Path out = dir.resolve("out-" + (name == null ? "latest" : name));
    if (name == null) {
      cuckoo("store", "export", "-q", store.toString(), out.toString()).ok();
    } else {
      cuckoo("store", "export", "-q", store.toString(), out.toString(), "--name", name).ok();
    }
    return Files.readAllBytes(out);
  }

  @Test
  void everyFailureIsOneLineNamingWhatWasWrong() throws IOException, NoSuchAlgorithmException {
    Path store = dir.resolve("store");
    Path file = dir.resolve("f");
    Files.write(file, text(3, 200_000));
    Path out = dir.resolve("out");

    assertEquals("cuckoo: " + dir.resolve("nowhere") + ": no log store there (cuckoo store import creates one)",
        cuckoo("store", "export", dir.resolve("nowhere").toString(), out.toString()).error());
    assertFalse(Files.exists(dir.resolve("nowhere")), "export must not create a store");
    assertTrue(cuckoo("store", "info", dir.resolve("nowhere").toString()).error().contains("no log store there"));
    assertEquals("cuckoo: " + dir.resolve("missing") + ": no such file",
        cuckoo("store", "import", store.toString(), dir.resolve("missing").toString()).error());
    assertTrue(cuckoo("store", "import", store.toString(), file.toString(), "--chunk-size", "10").error()
        .contains("--chunk-size 10 is out of range"));

    cuckoo("store", "import", "-q", store.toString(), file.toString()).ok();
    assertEquals("cuckoo: " + store + ": holds no file named 'other'",
        cuckoo("store", "export", store.toString(), out.toString(), "--name", "other").error());

    try (LogStore s = LogStore.open(store)) {
      assertTrue(cuckoo("store", "import", store.toString(), file.toString()).error().contains("is already open"));
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      s.remove(sha1.digest(Arrays.copyOf(Files.readAllBytes(file), 65_536)));
    }
    String missing = cuckoo("store", "export", store.toString(), out.toString()).error();
    assertTrue(missing.matches("cuckoo: .*: chunk 0 of 'f' \\(SHA-1 [0-9a-f]{40}\\) is missing"), missing);
    assertFalse(Files.exists(out), "no partial output");

    byte[] log = Files.readAllBytes(store.resolve("log"));
    log[100] ^= 0x40; // inside the first record, with records after it
    Files.write(store.resolve("log"), log);
    String damaged = cuckoo("store", "info", store.toString()).error();
    assertTrue(damaged.toLowerCase(Locale.ROOT).contains("offset 8"), damaged);
  }
  @Test
  void exportWithoutANameTakesTheOnlyFileOrRefusesListingThem() throws IOException {
    Path store = dir.resolve("store");
    byte[] content = text(4, 100_000);
    Files.write(dir.resolve("first"), content);
    Files.write(dir.resolve("empty"), new byte[0]);
    cuckoo("store", "import", "-q", store.toString(), dir.resolve("first").toString()).ok();
    Path out = dir.resolve("out");
    cuckoo("store", "export", "-q", store.toString(), out.toString()).ok();
    assertArrayEquals(content, Files.readAllBytes(out), "the only file");

    cuckoo("store", "import", "-q", store.toString(), dir.resolve("empty").toString()).ok();
    Files.write(out, utf8Bytes("the user's own file"));
    assertEquals("cuckoo: " + store + " holds 2 files: give the one to write with --name: first, empty",
        cuckoo("store", "export", store.toString(), out.toString()).error());
    assertArrayEquals(utf8Bytes("the user's own file"), Files.readAllBytes(out), "a refused export writes nothing");
  }

  private static byte[] utf8Bytes(String s) {
    return s.getBytes(UTF_8);
  }

  @Test
  void aStorePathThatIsAFileSaysSo() throws IOException {
    Path notAStore = dir.resolve("plain.txt");
    Files.write(notAStore, utf8Bytes("text"));
    Path file = dir.resolve("f");
    Files.write(file, text(5, 10_000));
    String expected = "cuckoo: " + notAStore + " is a file, not a store folder";
    assertEquals(expected, cuckoo("store", "import", notAStore.toString(), file.toString()).error());
    assertEquals(expected, cuckoo("store", "export", notAStore.toString(), dir.resolve("out").toString()).error());
    assertEquals(expected, cuckoo("store", "info", notAStore.toString()).error());
    assertArrayEquals(utf8Bytes("text"), Files.readAllBytes(notAStore));
  }

  @Test
  void infoAndExportReadAStoreTheyCannotWrite() throws IOException {
    Path store = dir.resolve("store");
    byte[] content = text(6, 300_000);
    Path file = dir.resolve("book");
    Files.write(file, content);
    cuckoo("store", "import", "-q", store.toString(), file.toString()).ok();
    Path lock = store.resolve("lock");
    Files.delete(lock); // a store copied without it, or whose owner removed it
    Set<PosixFilePermission> readOnly = PosixFilePermissions.fromString("r-xr-xr-x");
    Files.setPosixFilePermissions(store.resolve("log"), PosixFilePermissions.fromString("r--r--r--"));
    Files.setPosixFilePermissions(store, readOnly);
    try {
      Path out = dir.resolve("book.out");
      cuckoo("store", "export", "-q", store.toString(), out.toString()).ok();
      assertArrayEquals(content, Files.readAllBytes(out));
      String info = cuckoo("store", "info", store.toString()).ok().out();
      assertTrue(info.contains("files         book"), info);
      // Where permissions are enforced, that was the real test; as root, this one is.
      assertFalse(Files.exists(lock), "reading a store created its lock file");
      assumeFalse(Files.isWritable(store), "running as root: the folder stays writable, so only 'writes nothing' is checked");
      assertTrue(cuckoo("store", "import", store.toString(), file.toString()).error().contains(store.toString()));
    } finally {
      Files.setPosixFilePermissions(store, PosixFilePermissions.fromString("rwxr-xr-x"));
      Files.setPosixFilePermissions(store.resolve("log"), PosixFilePermissions.fromString("rw-r--r--"));
    }
  }
}
