package dev.cuckoo.cli;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * One status line on standard error, redrawn in place: a bar and the share of the input read,
 * the keys so far, the rate and the time left, estimated from the bytes read against the input's
 * size ({@code [#######.....]  58%  580,000 keys  1.2M keys/s  ETA 0:00:04}). Without a known
 * size (standard input) it shows the keys and the rate. It appears only once a run has taken
 * half a second, so small inputs print nothing, and is redrawn at most five times a second.
 */
final class ProgressBar {
  private static final long FIRST_AFTER_NANOS = 500_000_000L;
  private static final long EVERY_NANOS = 200_000_000L;
  private static final int BAR_WIDTH = 24;

  private final PrintWriter err;
  private final long totalBytes;
  private final boolean enabled;
  private final long startNanos = System.nanoTime();
  private long nextNanos = startNanos + FIRST_AFTER_NANOS;
  private int drawnWidth;

  private ProgressBar(PrintWriter err, long totalBytes, boolean enabled) {
    this.err = err;
    this.totalBytes = totalBytes;
    this.enabled = enabled;
  }

  /**
   * @param err where to draw
   * @param totalBytes the input's size, or -1 if unknown
   * @return a bar that draws
   */
  static ProgressBar on(PrintWriter err, long totalBytes) {
    return new ProgressBar(err, totalBytes, true);
  }

  /** @return a bar that never draws */
  static ProgressBar off() {
    return new ProgressBar(null, -1, false);
  }

  /**
   * Redraws the line if it is time to. Cheap enough to call for every key.
   *
   * @param keys keys read so far
   * @param bytes bytes read so far
   */
  void update(long keys, long bytes) {
    if (!enabled) {
      return;
    }
    long now = System.nanoTime();
    if (now < nextNanos) {
      return;
    }
    nextNanos = now + EVERY_NANOS;
    String line = line(keys, bytes, totalBytes, now - startNanos);
    err.print("\r" + line + " ".repeat(Math.max(0, drawnWidth - line.length())));
    err.flush();
    drawnWidth = line.length();
  }

  /** Erases the line, if one was drawn, so that what follows starts on a clean line. */
  void finish() {
    if (enabled && drawnWidth > 0) {
      err.print("\r" + " ".repeat(drawnWidth) + "\r");
      err.flush();
      drawnWidth = 0;
    }
  }

  /** The status line for {@code keys} and {@code bytes} read in {@code elapsedNanos}. */
  static String line(long keys, long bytes, long totalBytes, long elapsedNanos) {
    double seconds = Math.max(elapsedNanos, 1) / 1e9;
    String rate = TextFormat.count(keys / seconds) + " keys/s";
    if (totalBytes <= 0) {
      return String.format(Locale.ROOT, "%,d keys  %s", keys, rate);
    }
    double done = Math.min(1.0, (double) bytes / totalBytes);
    int filled = (int) Math.round(done * BAR_WIDTH);
    String bar = "[" + "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled) + "]";
    String eta = done > 0 ? TextFormat.duration(seconds * (1 - done) / done) : "?";
    return String.format(Locale.ROOT, "%s %3d%%  %,d keys  %s  ETA %s", bar, (int) (done * 100), keys, rate, eta);
  }
}
