package dev.cuckoo.cli;

import static dev.cuckoo.cli.CommandRun.cuckoo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every kind of failure ends the same way: one line {@code cuckoo: ...} naming the file or
 * option, exit status 2, nothing on stdout, nothing written, and a stack trace only with
 * {@code --debug}.
 */
class ErrorsTest {
  @TempDir Path dir;
  Path keys;
  Path filter;

  @BeforeEach
  void aGoodFilter() throws IOException {
    keys = Files.write(dir.resolve("keys.txt"), "alpha\nbeta\n".getBytes(StandardCharsets.UTF_8));
    filter = dir.resolve("f.cuckoo");
    cuckoo("build", "-c", "classic?capacity=100", "-i", keys.toString(), "-o", filter.toString(), "-q").ok();
  }

  @Test
  void aMissingFile() {
    Path missing = dir.resolve("missing.cuckoo");
    assertEquals("cuckoo: " + missing + ": no such file", cuckoo("info", missing.toString()).error());
    assertEquals("cuckoo: " + missing + ": no such file", cuckoo("query", missing.toString(), "k").error());
    assertEquals("cuckoo: " + missing + ": no such file", cuckoo("export-redis", missing.toString(), "--out",
        dir.resolve("d").toString()).error());
    assertEquals("cuckoo: " + missing + ": no such file", cuckoo("build", "-c", "classic?capacity=1", "-i",
        missing.toString(), "-o", dir.resolve("g.cuckoo").toString()).error());
    assertEquals("cuckoo: " + missing + ": no such file", cuckoo("query", filter.toString(), "-i", missing.toString()).error());
    assertFalse(Files.exists(dir.resolve("g.cuckoo")));
  }

  @Test
  void aFolderWhereAFileShouldBe() {
    assertEquals("cuckoo: " + dir + ": is a folder, not a file", cuckoo("info", dir.toString()).error());
    assertEquals("cuckoo: " + dir + ": is a folder; give the name of the file to write",
        cuckoo("build", "-c", "classic?capacity=1", "-i", keys.toString(), "-o", dir.toString()).error());
    Path nowhere = dir.resolve("no/such/f.cuckoo");
    assertEquals("cuckoo: " + nowhere + ": cannot write it: folder " + nowhere.getParent() + " does not exist",
        cuckoo("build", "-c", "classic?capacity=1", "-i", keys.toString(), "-o", nowhere.toString()).error());
  }

  @Test
  void anUnreadableFile() throws IOException {
    Path locked = Files.copy(filter, dir.resolve("locked.cuckoo"));
    assertTrue(locked.toFile().setReadable(false));
    if (Files.isReadable(locked)) {
      return; // running as root: nothing is unreadable
    }
    assertEquals("cuckoo: " + locked + ": permission denied", cuckoo("info", locked.toString()).error());
  }

  @Test
  void aCorruptFilterFile() throws IOException {
    byte[] bytes = Files.readAllBytes(filter);
    Path truncated = Files.write(dir.resolve("truncated.cuckoo"), Arrays.copyOf(bytes, bytes.length - 10));
    assertTrue(cuckoo("info", truncated.toString()).error().startsWith("cuckoo: " + truncated + ": not a valid filter file: "));

    byte[] flipped = bytes.clone();
    flipped[flipped.length / 2] ^= 0x10;
    Path damaged = Files.write(dir.resolve("damaged.cuckoo"), flipped);
    // A mapped file's table is not read at open: info --verify reads it
    String error = cuckoo("info", "--verify", damaged.toString()).error();
    assertTrue(error.startsWith("cuckoo: " + damaged + " is damaged: checksum mismatch"), "named once: " + error);
    byte[] header = bytes.clone();
    header[20] ^= 0x10;
    Path badHeader = Files.write(dir.resolve("bad-header.cuckoo"), header);
    error = cuckoo("query", badHeader.toString(), "alpha").error();
    assertTrue(error.startsWith("cuckoo: " + badHeader + ": not a valid filter file: "), error);

    Path trailing = Files.write(dir.resolve("trailing.cuckoo"), Arrays.copyOf(bytes, bytes.length + 1));
    assertEquals("cuckoo: " + trailing + ": not a valid filter file: more bytes follow the filter's end",
        cuckoo("info", trailing.toString()).error());

    assertEquals("cuckoo: " + keys + ": not a valid filter file: not a cuckoo filter file: magic 0x616C7068,"
        + " expected 0x434B4F46 (\"CKOF\")", cuckoo("info", keys.toString()).error());
    Path empty = Files.write(dir.resolve("empty.cuckoo"), new byte[0]);
    assertTrue(cuckoo("info", empty.toString()).error().startsWith("cuckoo: " + empty + ": not a valid filter file: "));
  }

  @Test
  void aBadConfig() {
    String out = dir.resolve("g.cuckoo").toString();
    assertEquals("cuckoo: bad config 'classic?capacity=lots': capacity=lots is not a whole number",
        cuckoo("build", "-c", "classic?capacity=lots", "-i", keys.toString(), "-o", out).error());
    assertEquals("cuckoo: bad config 'classic?capacity=1000&fingerprintBits=40': fingerprintBits=40 is out of range"
            + " for variant classic: 4..32",
        cuckoo("build", "-c", "classic?capacity=1000&fingerprintBits=40", "-i", keys.toString(), "-o", out).error());
    String unknown = cuckoo("build", "-c", "bloom?capacity=10", "-i", keys.toString(), "-o", out).error();
    assertTrue(unknown.startsWith("cuckoo: bad config 'bloom?capacity=10': variant 'bloom' is not installed;"
        + " installed variants: "), unknown);
    assertEquals("cuckoo: bad config '': config string is empty: expected variant?key=value&key=value,"
            + " e.g. classic?capacity=1000000",
        cuckoo("build", "-c", "", "-i", keys.toString(), "-o", out).error());
    assertFalse(Files.exists(dir.resolve("g.cuckoo")));
  }

  @Test
  void aBadOptionOrCommand() {
    assertEquals("cuckoo: Unknown option: '--frobnicate' (see 'cuckoo info --help')",
        cuckoo("info", "--frobnicate", filter.toString()).error());
    assertEquals("cuckoo: Unmatched argument at index 0: 'bild' (did you mean build?) (see 'cuckoo --help')",
        cuckoo("bild").error());
    assertEquals("cuckoo: Missing required options: '--input=FILE', '--output=FILE' (see 'cuckoo build --help')",
        cuckoo("build", "-c", "classic?capacity=1").error());
    String refusal = cuckoo("build", "-c", "classic?capacity=1", "-i", keys.toString(), "-o", "x", "--on-refusal", "maybe").error();
    assertTrue(refusal.startsWith("cuckoo: Invalid value for option '--on-refusal': expected one of"), refusal);
    assertEquals("cuckoo: give the keys to look up after the filter file, or --input FILE ('-' for stdin)",
        cuckoo("query", filter.toString()).error());
    assertEquals("cuckoo: with --binary, keys come only from --input; KEY arguments are text",
        cuckoo("query", filter.toString(), "k", "--binary", "--record-size", "2").error());
    assertEquals("cuckoo: --output " + keys + " is the input file itself: give another name",
        cuckoo("build", "-c", "classic?capacity=1", "-i", keys.toString(), "-o", keys.toString()).error());
  }

  @Test
  void noCommandPrintsTheUsageAsAnError() {
    CommandRun run = cuckoo();
    assertEquals(CuckooCommand.EXIT_ERROR, run.status());
    assertTrue(run.err().startsWith("cuckoo: give a command\nUsage: cuckoo "), run.err());
  }

  @Test
  void debugAddsTheStackTrace() {
    Path missing = dir.resolve("missing.cuckoo");
    for (String[] args : new String[][] {{"--debug", "info", missing.toString()}, {"info", missing.toString(), "--debug"}}) {
      CommandRun run = cuckoo(args);
      assertEquals(CuckooCommand.EXIT_ERROR, run.status());
      assertTrue(run.err().startsWith("cuckoo: " + missing + ": no such file\n"), run.err());
      assertTrue(run.err().contains("\tat dev.cuckoo.cli."), run.err());
    }
  }

  @Test
  void helpAndVersionExitZero() {
    CommandRun help = cuckoo("--help").ok();
    assertTrue(help.out().contains("Exit status: 0 done"), help.out());
    for (String command : new String[] {"build", "query", "info", "export-redis", "import-redis"}) {
      assertTrue(cuckoo(command, "--help").ok().out().startsWith("Usage: cuckoo " + command), command);
      assertTrue(cuckoo("help", command).ok().out().startsWith("Usage: cuckoo " + command), command);
    }
    CommandRun version = cuckoo("--version").ok();
    assertTrue(version.out().startsWith("cuckoo "), version.out());
    assertTrue(version.out().contains("\nvariants: " + String.join(", ", dev.cuckoo.CuckooFilters.variants()) + "\n"),
        version.out());
  }
}
