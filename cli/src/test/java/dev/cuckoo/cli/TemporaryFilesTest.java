package dev.cuckoo.cli;

import static dev.cuckoo.cli.CommandRun.cuckoo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hidden files a command writes before renaming them into place are never left behind: not
 * by a failure, not by an interrupt (a real child JVM sent SIGINT, as Ctrl-C does, in the middle of
 * a build in place), and one a killed process left is removed by the next command that writes the
 * same output.
 */
class TemporaryFilesTest {
  @TempDir Path dir;

  private List<String> hidden() throws IOException {
    try (var files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".")).sorted().toList();
    }
  }

  @Test
  void theNameCarriesThePidAndStaleOnesOfGoneProcessesAreRemoved() throws Exception {
    Path out = dir.resolve("f.cuckoo");
    Process gone = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version")
        .redirectErrorStream(true).start();
    gone.getInputStream().readAllBytes();
    assertTrue(gone.waitFor(1, TimeUnit.MINUTES));
    long deadPid = gone.pid();
    long livePid = ProcessHandle.current().pid();
    Path stale = Files.write(dir.resolve(".f.cuckoo." + deadPid + "-3.tmp"), new byte[4096]);
    Path ours = Files.write(dir.resolve(".f.cuckoo." + livePid + "-99.tmp"), new byte[1]);
    Path other = Files.write(dir.resolve(".g.cuckoo." + deadPid + "-1.tmp"), new byte[1]);
    assertEquals(deadPid, TemporaryFiles.pidOf(stale.getFileName().toString(), ".f.cuckoo."));
    assertEquals(-1, TemporaryFiles.pidOf(".f.cuckoo.x-1.tmp", ".f.cuckoo."));

    Path keys = Files.write(dir.resolve("keys.txt"), "a\nb\n".getBytes(StandardCharsets.UTF_8));
    cuckoo("build", "--in-place", "-c", "classic?capacity=100", "-i", keys.toString(), "-o", out.toString()).ok();
    assertFalse(Files.exists(stale), "left by a process that is gone: removed");
    assertTrue(Files.exists(ours), "a live process's: kept");
    assertTrue(Files.exists(other), "another output's: kept");
    assertTrue(TemporaryFiles.unfinished().isEmpty(), "a finished command keeps none");
  }

  @Test
  void aFailedBuildLeavesNone() throws IOException {
    // 30 copies of one key: its 2 buckets of 1 slot and the stash of 8 take 10
    Path keys = Files.write(dir.resolve("keys.txt"), "a\n".repeat(30).getBytes(StandardCharsets.UTF_8));
    CommandRun run = cuckoo("build", "--in-place", "-c", "classic?capacity=100&bucketSize=1", "-i", keys.toString(),
        "-o", dir.resolve("f.cuckoo").toString());
    assertEquals(CuckooCommand.EXIT_INCOMPLETE, run.status(), run.err());
    assertEquals(List.of(), hidden());
    assertFalse(Files.exists(dir.resolve("f.cuckoo")));
  }

  /** Ctrl-C in the middle of a build in place: the child's shutdown hook removes its file, as large as the table. */
  @Test
  void anInterruptedBuildInPlaceLeavesNone() throws Exception {
    Path out = dir.resolve("f.cuckoo");
    List<String> command = new ArrayList<>();
    // A process started in the background may have SIGINT ignored, and a child inherits that (the
    // JVM then leaves it ignored): coreutils' env gives the child the default disposition back.
    boolean defaultInt = new ProcessBuilder("env", "--default-signal=INT", "true").start().waitFor() == 0;
    if (defaultInt) {
      command.addAll(List.of("env", "--default-signal=INT"));
    }
    command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), CuckooCommand.class.getName(), "build", "--in-place", "-c",
        "classic?capacity=2000000", "-i", "-", "-o", out.toString()));
    // Its keys come from a pipe this test keeps open: the build waits in the middle, deterministically.
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      child.getOutputStream().write("a\nb\nc\n".getBytes(StandardCharsets.UTF_8));
      child.getOutputStream().flush();
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      // The file is made under a second hidden name until it is whole, then renamed: wait for the
      // build to be waiting for keys, its file in place under the command's name.
      while (hidden().stream().noneMatch(n -> n.endsWith(".tmp")) && child.isAlive()
          && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals(1, hidden().size(), "the build's file exists while it runs: " + hidden());
      Process kill = new ProcessBuilder("kill", defaultInt ? "-INT" : "-TERM", Long.toString(child.pid())).start();
      assertEquals(0, kill.waitFor());
      assertTrue(child.waitFor(2, TimeUnit.MINUTES), "the child stops");
      String said = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(said.contains("stopped before it finished: removed"), said);
      assertEquals(List.of(), hidden(), said);
      assertFalse(Files.exists(out));
    } finally {
      child.destroyForcibly();
    }
  }
}
