package dev.cuckoo.cli;

import java.util.Locale;

/** How the command writes numbers and durations for people: one style in every command. */
final class TextFormat {
  private TextFormat() {}

  /** @return {@code n} with thousands separators: {@code 1,000,000} */
  static String grouped(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** @return {@code n} things, grouped, the noun in the plural unless n is 1: {@code 1 key}, {@code 1,000 keys} */
  static String things(long n, String noun) {
    return grouped(n) + " " + noun + (n == 1 ? "" : "s");
  }

  /** @return a rate or count in three figures: {@code 950}, {@code 12.5k}, {@code 1.21M} */
  static String count(double n) {
    if (n < 1_000) {
      return String.format(Locale.ROOT, "%.0f", n);
    }
    if (n < 1_000_000) {
      return String.format(Locale.ROOT, "%.3gk", n / 1e3);
    }
    return String.format(Locale.ROOT, "%.3gM", n / 1e6);
  }

  /** @return bytes in binary units to three figures: {@code 512 bytes}, {@code 103 MiB}, {@code 14.4 GiB} */
  static String mebibytes(long bytes) {
    if (bytes < 1024) {
      return things(bytes, "byte");
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = bytes / 1024.0;
    int u = 0;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, v >= 100 ? "%.0f %s" : "%.3g %s", v, units[u]);
  }

  /** @return seconds as {@code h:mm:ss} */
  static String duration(double seconds) {
    long s = Math.round(seconds);
    return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
  }

  /** @return elapsed nanoseconds in seconds, to the tenth: {@code 2.4 s} */
  static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
  }

  /**
   * @return {@code n} rounded up to two significant figures, for a capacity to suggest: {@code
   *     1,234,567} gives {@code 1,300,000}
   */
  static long roundUpToTwoFigures(long n) {
    long unit = 1;
    while (n / unit >= 100) {
      unit *= 10;
    }
    return (n + unit - 1) / unit * unit;
  }
}
