package dev.cuckoo.testkit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Writes under which a new file does not take its blocks when it is made: its length is set by
 * writing its last byte, and its pages stay holes until keys reach them. For the tests of tables
 * of many gigabytes, which check index arithmetic past 2^31 words, not the allocation that
 * {@code createFile} makes so that a full disk is met at creation (measured in the results, and
 * tried by the fault tests); on a file system with room for what the test adds, a hole is filled
 * as a page is first stored to. {@link SparseFiles#during} installs it; {@code
 * -Dcuckoo.test.sparseFiles=true} has {@link MappedFileChild} install it.
 */
final class SparseWrites extends WatchedWrites {
  @Override
  protected void step(Write write) {}

  @Override
  public void allocate(Path path, FileChannel channel, long position, long length) throws IOException {
    if (length > 0) {
      write(path, channel, ByteBuffer.allocate(1), position + length - 1);
    }
  }
}
