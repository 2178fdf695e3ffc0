package dev.cuckoo.cli;

import static dev.cuckoo.cli.CommandRun.cuckoo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.nio.ByteBuffer;
import dev.cuckoo.internal.FilterFile;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cuckoo recover}, on files whose writers were halted as {@code kill -9} halts them. */
class RecoverCommandTest {
  @TempDir Path dir;

  private Path halted(String name, String config, int keys) throws IOException, InterruptedException {
    Path file = dir.resolve(name);
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), HaltedWriter.class.getName(), config, file.toString(),
        Integer.toString(keys)).inheritIO().start();
    assertTrue(child.waitFor(2, TimeUnit.MINUTES));
    assertEquals(0, child.exitValue());
    return file;
  }

  @Test
  void recoverBringsBackEveryKeyAddedBeforeTheWriterDiedAndSaysSo() throws Exception {
    Path file = halted("f.cuckoo", "semi-sorted?capacity=5000&fingerprintBits=16", 4000);
    String said = cuckoo("recover", file.toString()).ok().out();
    assertTrue(said.contains(file + ": recovered: its writer stopped before it forced or closed it; it holds 4,000"
        + " keys"), said);
    try (MappedFilter f = CuckooFilters.open(file)) {
      for (int i = 0; i < 4000; i++) {
        assertTrue(f.mightContain("key-" + i), "key-" + i);
      }
      f.verify();
    }
    String again = cuckoo("recover", file.toString()).ok().out();
    assertTrue(again.contains(file + ": nothing to recover: its last writer forced or closed it"), again);
  }

  @Test
  void queryRecoversAFileWhoseWriterDied() throws Exception {
    Path file = halted("q.cuckoo", "classic?capacity=5000&fingerprintBits=16", 3000);
    CommandRun query = cuckoo("query", file.toString(), "key-2999");
    assertEquals(0, query.status(), query.err());
    assertEquals(List.of("key-2999\tyes"), query.outLines());
    assertTrue(query.err().contains(file + ": recovered: its writer stopped before it forced or closed it; it holds"
        + " 3,000 keys"), query.err());
    assertTrue(cuckoo("info", "--verify", file.toString()).ok().out().contains("checksum ok"));
  }

  @Test
  void aFileWhoseMachineStoppedIsRefusedSayingWhy() throws Exception {
    Path file = halted("m.cuckoo", "classic?capacity=5000&fingerprintBits=16", 3000);
    // Another boot's id in the file's mark: to this machine, the one that wrote it has restarted since.
    long bootId = dev.cuckoo.internal.MappedFiles.headerOf(file).markOffset() + FilterFile.MARK_BOOT_ID;
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
      c.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), bootId);
    }
    String error = cuckoo("recover", file.toString()).error();
    assertTrue(error.contains(file + " was being changed in place when the machine stopped"), error);
    assertTrue(error.contains("rebuild it"), error);
  }

  @Test
  void aFileAWriterHasOpenIsNotRecoveredUnderIt() throws IOException {
    Path file = dir.resolve("open.cuckoo");
    try (MappedFilter writer = CuckooFilters.createFile("classic?capacity=5000", file)) {
      writer.add("a");
      String error = cuckoo("recover", file.toString()).error();
      assertTrue(error.contains("is being written by another writer"), error);
    }
    assertTrue(cuckoo("recover", file.toString()).ok().out().contains("nothing to recover"));
  }

  @Test
  void recoverOfWhatIsNotAFilterFileNamesIt() throws IOException {
    Path text = java.nio.file.Files.writeString(dir.resolve("notes.txt"), "hello");
    String error = cuckoo("recover", text.toString()).error();
    assertTrue(error.contains(text + ": not a cuckoo filter file"), error);
    assertTrue(cuckoo("recover", dir.resolve("missing.cuckoo").toString()).error().contains("no such file"));
  }
}
