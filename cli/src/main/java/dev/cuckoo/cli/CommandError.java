package dev.cuckoo.cli;

/**
 * A failure the user can act on: a missing or corrupt file, a bad config, a refused option
 * value. The command prints its message as one line, {@code cuckoo: MESSAGE}, and exits with
 * {@link CuckooCommand#EXIT_ERROR}; the stack trace only with {@code --debug}.
 */
final class CommandError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** @param message the whole line after {@code cuckoo: }, naming the file or option at fault */
  CommandError(String message) {
    super(message);
  }

  /**
   * @param message the whole line after {@code cuckoo: }
   * @param cause the failure underneath, shown with {@code --debug}
   */
  CommandError(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * @param bytes what a filter takes on the heap
   * @return the advice to give Java more heap for it: half as much again, for the rest of the
   *     process, in whole GiB
   */
  static String moreHeap(long bytes) {
    long gib = Math.max(1, (bytes + bytes / 2 + (1L << 30) - 1) >> 30);
    return "give Java more heap, e.g. JAVA_OPTS=-Xmx" + gib + "g";
  }

  /**
   * @param doing what ran out of heap, e.g. "read big.cuckoo"
   * @return the error that says so and how to give Java more heap
   */
  static CommandError outOfMemory(String doing) {
    return new CommandError("not enough memory to " + doing + ": Java may use "
        + (Runtime.getRuntime().maxMemory() >> 20) + " MiB; give it more, e.g. JAVA_OPTS=-Xmx8g");
  }
}
