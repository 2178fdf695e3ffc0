package dev.cuckoo.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a standard stream is a terminal, each on its own: Java 17's {@code System.console()}
 * answers only for standard input and output together, so {@code query --input keys > answers}
 * (output to a file, the status line to the terminal) would show no progress.
 */
final class Terminal {
  private Terminal() {}

  /**
   * @param fd 0, 1 or 2
   * @return whether it is a terminal: on Linux, what {@code /proc/self/fd/N} links to; elsewhere
   *     whether Java has a console
   */
  @SuppressWarnings("SystemConsoleNull") // on JDK 17, which we build for, console() is null exactly when no terminal is attached
  static boolean isTerminal(int fd) {
    Path link = Path.of("/proc/self/fd/" + fd);
    try {
      String target = Files.readSymbolicLink(link).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return System.console() != null;
    }
  }
}
