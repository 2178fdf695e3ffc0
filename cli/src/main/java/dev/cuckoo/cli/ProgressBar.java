package dev.cuckoo.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Objects;

/**
 * One status line on standard error, redrawn in place: a bar and the share of the input read,
 * the keys so far, the rate and the time left, estimated from the bytes read against the input's
 * size ({@code [#######.....]  58%  580,000 keys  1.2M keys/s  ETA 0:00:04}). Without a known
 * size (standard input) it shows the keys and the rate. It appears only once a run has taken
 * half a second, so small inputs print nothing, and is redrawn at most five times a second.
 */
final class ProgressBar {
  /** How long a run goes before the line first appears; tests set it to 0 to see the line at once. */
  static volatile long firstAfterNanos = 500_000_000L;
  private static final long EVERY_NANOS = 200_000_000L;
  private static final int BAR_WIDTH = 24;

  /** Where to draw; {@code null} for a bar that never draws. */
  private final PrintWriter err;
  private final long totalBytes;
  /** For a bar that shows the time spent on one call the command cannot follow, what it is doing; else null. */
  private final String doing;
  private long startNanos = System.nanoTime();
  private long nextNanos = startNanos + firstAfterNanos;
  private int drawnWidth;
  private Thread ticker;

  private ProgressBar(PrintWriter err, long totalBytes, String doing) {
    this.err = err;
    this.totalBytes = totalBytes;
    this.doing = doing;
  }

  /**
   * Whether to show progress: asked for, or standard error is a terminal that standard output
   * does not write lines to as well (a command's answers and the status line would mix).
   *
   * @param asked {@code --progress}
   * @param printsLines whether standard output gets lines while the bar runs
   * @return whether to draw
   */
  static boolean wanted(boolean asked, boolean printsLines) {
    return asked || (Terminal.isTerminal(2) && !(printsLines && Terminal.isTerminal(1)));
  }

  /**
   * A line that shows how long one call has been running ({@code checking f.cuckoo (14.4 GiB)
   * 0:00:23}), for work the command hands to the library whole and cannot follow: redrawn by a
   * thread of its own from {@link #start} to {@link #finish}.
   *
   * @param err where to draw
   * @param doing what is being done
   * @return the bar
   */
  static ProgressBar elapsed(PrintWriter err, String doing) {
    return new ProgressBar(Objects.requireNonNull(err, "err"), -1, doing);
  }

  /** Starts redrawing an {@link #elapsed} bar on a thread of its own; does nothing for others. */
  void start() {
    if (err == null || doing == null) {
      return;
    }
    startNanos = System.nanoTime();
    long firstAfter = firstAfterNanos;
    if (firstAfter == 0) {
      draw(doing + "  " + TextFormat.duration(0));
    }
    ticker = new Thread(() -> {
      try {
        Thread.sleep(firstAfter / 1_000_000);
        while (!Thread.currentThread().isInterrupted()) {
          draw(doing + "  " + TextFormat.duration((System.nanoTime() - startNanos) / 1e9));
          Thread.sleep(EVERY_NANOS / 1_000_000);
        }
      } catch (InterruptedException done) {
        // finish() stops it
      }
    }, "cuckoo-progress");
    ticker.setDaemon(true);
    ticker.start();
  }

  private synchronized void draw(String line) {
    if (ticker != null && ticker.isInterrupted()) {
      return;
    }
    err.print("\r" + line + " ".repeat(Math.max(0, drawnWidth - line.length())));
    err.flush();
    drawnWidth = line.length();
  }

  /**
   * @param err where to draw
   * @param totalBytes the input's size, or -1 if unknown
   * @return a bar that draws
   */
  static ProgressBar on(PrintWriter err, long totalBytes) {
    return new ProgressBar(Objects.requireNonNull(err, "err"), totalBytes, null);
  }

  /** @return a bar that never draws */
  static ProgressBar off() {
    return new ProgressBar(null, -1, null);
  }

  /**
   * Redraws the line if it is time to. Cheap enough to call for every key.
   *
   * @param keys keys read so far
   * @param bytes bytes read so far
   */
  void update(long keys, long bytes) {
    if (err == null) {
      return;
    }
    long now = System.nanoTime();
    if (now < nextNanos) {
      return;
    }
    nextNanos = now + EVERY_NANOS;
    draw(line(keys, bytes, totalBytes, now - startNanos));
  }

  /** Stops redrawing and erases the line, if one was drawn, so that what follows starts on a clean line. */
  void finish() {
    if (err == null) {
      return;
    }
    Thread t = ticker;
    if (t != null) {
      t.interrupt();
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    synchronized (this) {
      if (drawnWidth > 0) {
        err.print("\r" + " ".repeat(drawnWidth) + "\r");
        err.flush();
        drawnWidth = 0;
      }
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
