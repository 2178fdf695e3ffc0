package dev.cuckoo.testkit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real, small file system for a test that fills one: a tmpfs mounted on a folder of the test's.
 * It needs a process that may mount (root, with {@code mount} on the path); a test skips where it
 * cannot have one.
 */
final class SmallFileSystem {
  private SmallFileSystem() {}

  /**
   * @param folder an empty folder
   * @param size the file system's size, as {@code mount -o size=} takes it
   * @return whether it was mounted
   */
  static boolean mount(Path folder, String size) {
    return run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", folder.toString());
  }

  /** Unmounts what {@link #mount} mounted. */
  static void unmount(Path folder) {
    run("umount", "-l", folder.toString()); // lazily: the JVM may still map a file of it until its buffers are collected
  }

  private static boolean run(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
