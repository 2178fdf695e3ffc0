package dev.cuckoo.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The hidden files a command writes beside its output before renaming them into place, {@code
 * .NAME.PID-N.tmp}: a build in place is as large as its filter's table, so none may outlive the
 * command that wrote it. Each is removed when the command fails ({@link #release}), when it is
 * interrupted (Ctrl-C or {@code kill}: the JVM runs its shutdown hooks, and one removes every file
 * not yet renamed), and, when the process was killed outright ({@code kill -9}, a crash, a power
 * loss), by the next command that writes the same output, once no live process has the PID in the
 * file's name.
 */
final class TemporaryFiles {
  private static final Set<Path> UNFINISHED = ConcurrentHashMap.newKeySet();
  private static final AtomicLong SEQUENCE = new AtomicLong();
  private static final Object HOOK_LOCK = new Object();
  private static boolean hooked;

  private TemporaryFiles() {}

  /**
   * Names a temporary file for {@code target}, beside it, removed if the process is interrupted
   * before {@link #release}; first removes the ones earlier processes, now gone, left for the same
   * target.
   *
   * @param target the file to be written
   * @return the temporary file's name, not yet created
   */
  static Path forTarget(Path target) {
    Path absolute = target.toAbsolutePath();
    removeStale(absolute);
    long pid = ProcessHandle.current().pid();
    Path temp = absolute.getParent().resolve(
        "." + absolute.getFileName() + "." + pid + "-" + SEQUENCE.incrementAndGet() + ".tmp");
    hookOnce();
    UNFINISHED.add(temp);
    return temp;
  }

  /**
   * Removes the temporary file if it is still there (it was not renamed into place) and forgets
   * it.
   *
   * @param temp a name {@link #forTarget} gave
   */
  static void release(Path temp) {
    try {
      Files.deleteIfExists(temp);
      removeCompanions(temp);
    } catch (IOException ignored) {
      // left behind; the next command that writes its target removes it
    }
    UNFINISHED.remove(temp);
  }

  /** @return the temporary files named and not yet released, for tests */
  static Set<Path> unfinished() {
    return Set.copyOf(UNFINISHED);
  }

  /**
   * Removes {@code .NAME.PID-N.tmp} files beside the target whose process is gone: a process
   * whose PID is live may be writing one now (or reuse the PID, in which case the file waits for
   * a later run).
   */
  static void removeStale(Path target) {
    Path folder = target.getParent();
    String prefix = "." + target.getFileName() + ".";
    if (folder == null || !Files.isDirectory(folder)) {
      return;
    }
    try (DirectoryStream<Path> candidates = Files.newDirectoryStream(folder, glob(prefix) + "*-*.tmp")) {
      for (Path candidate : candidates) {
        long pid = pidOf(candidate.getFileName().toString(), prefix);
        if (pid > 0 && pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).isEmpty()) {
          Files.deleteIfExists(candidate);
          removeCompanions(candidate);
        }
      }
    } catch (IOException | RuntimeException ignored) {
      // an unreadable folder: the write that follows reports it
    }
  }

  /** @return the PID in a name {@code PREFIX + PID + "-" + N + ".tmp"}, or -1 if it is not one */
  static long pidOf(String name, String prefix) {
    if (!name.startsWith(prefix) || !name.endsWith(".tmp")) {
      return -1;
    }
    String middle = name.substring(prefix.length(), name.length() - ".tmp".length());
    int dash = middle.indexOf('-');
    if (dash <= 0 || dash == middle.length() - 1) {
      return -1;
    }
    for (int i = 0; i < middle.length(); i++) {
      if (i != dash && !Character.isDigit(middle.charAt(i))) {
        return -1;
      }
    }
    try {
      return Long.parseLong(middle.substring(0, dash));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** @return the prefix with the glob's special characters escaped */
  private static String glob(String prefix) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < prefix.length(); i++) {
      char c = prefix.charAt(i);
      if ("*?[]{}\\".indexOf(c) >= 0) {
        b.append('\\');
      }
      b.append(c);
    }
    return b.toString();
  }

  private static void hookOnce() {
    synchronized (HOOK_LOCK) {
      if (!hooked) {
        Runtime.getRuntime().addShutdownHook(new Thread(TemporaryFiles::removeUnfinished, "cuckoo-temporary-files"));
        hooked = true;
      }
    }
  }

  /** The shutdown hook: an interrupted command leaves none of its temporary files. */
  private static void removeUnfinished() {
    PrintStream err = new PrintStream(System.err, true, StandardCharsets.UTF_8);
    for (Path temp : UNFINISHED) {
      try {
        if (Files.deleteIfExists(temp)) {
          err.println("cuckoo: stopped before it finished: removed " + temp);
        }
        removeCompanions(temp);
      } catch (IOException e) {
        err.println("cuckoo: stopped before it finished, and could not remove " + temp + ": " + e.getMessage());
      }
    }
    UNFINISHED.clear();
  }

  /**
   * Removes what the library keeps beside a filter file, which goes with it: the journal of a
   * {@code durability=machine} file ({@code NAME.journal}), and the file {@code createFile} makes
   * it under until it is whole ({@code .NAME.creating}), left by a creation that was killed.
   */
  private static void removeCompanions(Path file) throws IOException {
    Files.deleteIfExists(file.resolveSibling(file.getFileName() + ".journal"));
    Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".creating"));
  }
}
