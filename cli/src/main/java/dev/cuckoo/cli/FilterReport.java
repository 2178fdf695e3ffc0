package dev.cuckoo.cli;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterFileInfo;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.scalable.ScalableCuckooFilter;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What {@code cuckoo info} tells about a filter, as aligned text or as JSON: the variant, the
 * resolved spec, items, slots, load, bits per item, memory and expected false-positive
 * probability, and for a RedisBloom-compatible filter its {@code CF.INFO} reply. {@code build}
 * and {@code import-redis} print the same facts about what they wrote.
 */
final class FilterReport {
  private final CuckooFilter filter;

  FilterReport(CuckooFilter filter) {
    this.filter = filter;
  }

  /** @return bits of table per stored item, or NaN for an empty filter */
  double bitsPerItem() {
    return filter.size() == 0 ? Double.NaN : filter.sizeInBytes() * 8.0 / filter.size();
  }

  /** Prints the facts as {@code label  value} lines. */
  void printText(PrintWriter out) {
    String variant = filter.spec().variant();
    row(out, "variant", variant + " (" + CuckooFilters.variant(variant).description() + ")");
    row(out, "spec", filter.spec().toString());
    row(out, "items", TextFormat.grouped(filter.size()));
    row(out, "capacity", TextFormat.grouped(filter.capacity()) + " items");
    row(out, "slots", TextFormat.grouped(filter.slots()));
    row(out, "load", String.format(Locale.ROOT, "%.1f%%", filter.loadFactor() * 100));
    row(out, "bits/item", filter.size() == 0 ? "- (empty)" : String.format(Locale.ROOT, "%.2f", bitsPerItem()));
    row(out, "sizeInBytes", TextFormat.grouped(filter.sizeInBytes()));
    double fpp = filter.expectedFpp();
    row(out, "expected FPP", fpp > 0
        ? String.format(Locale.ROOT, "%.3g (about 1 in %s)", fpp, TextFormat.grouped(Math.round(1 / fpp)))
        : "0");
    Map<String, Long> redisInfo = redisInfo();
    if (redisInfo != null) {
      out.println("CF.INFO");
      redisInfo.forEach((k, v) -> out.printf(Locale.ROOT, "  %-26s %d%n", k, v));
    }
  }

  /**
   * @param header a filter file's header
   * @return its format version and whether it maps, as {@code info} tells it: which files
   *     {@code convert} would change
   */
  static String format(FilterFileInfo header) {
    int version = header.formatVersion();
    int current = header.currentFormatVersion();
    if (!FileAccess.mapsFiles(header.variant())) {
      return "version " + version + (version == current
          ? " (current for " + header.variant() + ", whose files are read, not mapped)"
          : " (read; 'cuckoo convert' rewrites it in version " + current + ")");
    }
    return "version " + version + (header.maps()
        ? " (maps: query and info open it without reading its table)"
        : " (read onto the heap; 'cuckoo convert' rewrites it in version " + current + ", which maps)");
  }

  /**
   * @param file the file's name, and its size in bytes
   * @param header the file's header, or {@code null} if not known
   * @param verified what {@code --verify} checked, or {@code null}
   * @return the facts as one JSON object
   */
  String toJson(String file, long fileBytes, FilterFileInfo header, String verified) {
    StringBuilder json = new StringBuilder("{");
    field(json, "file", quote(file));
    field(json, "fileBytes", Long.toString(fileBytes));
    if (header != null) {
      field(json, "formatVersion", Integer.toString(header.formatVersion()));
      field(json, "maps", Boolean.toString(header.maps()));
    }
    if (verified != null) {
      field(json, "verified", quote(verified));
    }
    field(json, "variant", quote(filter.spec().variant()));
    field(json, "description", quote(CuckooFilters.variant(filter.spec().variant()).description()));
    field(json, "spec", quote(filter.spec().toString()));
    field(json, "items", Long.toString(filter.size()));
    field(json, "capacity", Long.toString(filter.capacity()));
    field(json, "slots", Long.toString(filter.slots()));
    field(json, "loadFactor", Double.toString(filter.loadFactor()));
    field(json, "bitsPerItem", filter.size() == 0 ? "null" : Double.toString(bitsPerItem()));
    field(json, "sizeInBytes", Long.toString(filter.sizeInBytes()));
    field(json, "expectedFpp", Double.toString(filter.expectedFpp()));
    Map<String, Long> redisInfo = redisInfo();
    if (redisInfo != null) {
      StringBuilder info = new StringBuilder("{");
      redisInfo.forEach((k, v) -> field(info, k, Long.toString(v)));
      field(json, "cfInfo", info.append('}').toString());
    }
    return json.append('}').toString();
  }

  /**
   * Prints what a filter file's header tells when its hash is not at hand: the variant, the
   * spec, the capacity it names and the sizes; the items and load are in the payload, which
   * cannot be read without the hash.
   */
  static void printHeaderText(PrintWriter out, FilterFileInfo header, String hash) {
    row(out, "variant", header.variant() + (CuckooFilters.variants().contains(header.variant())
        ? " (" + CuckooFilters.variant(header.variant()).description() + ")" : " (not installed)"));
    row(out, "spec", header.spec());
    OptionalLong capacity = capacityOf(header);
    if (capacity.isPresent()) {
      row(out, "capacity", TextFormat.grouped(capacity.getAsLong()) + " items");
    }
    row(out, "payload", TextFormat.grouped(header.payloadBytes()) + " bytes");
    row(out, "hash", hash + " is not installed here: items, load and FPP are unknown without it; give its jar or"
        + " folder with --hash-path");
  }

  /** @return what {@link #printHeaderText} prints, as one JSON object */
  static String headerJson(String file, long fileBytes, FilterFileInfo header, String hash) {
    StringBuilder json = new StringBuilder("{");
    field(json, "file", quote(file));
    field(json, "fileBytes", Long.toString(fileBytes));
    field(json, "formatVersion", Integer.toString(header.formatVersion()));
    field(json, "variant", quote(header.variant()));
    field(json, "spec", quote(header.spec()));
    OptionalLong capacity = capacityOf(header);
    if (capacity.isPresent()) {
      field(json, "capacity", Long.toString(capacity.getAsLong()));
    }
    field(json, "payloadBytes", Long.toString(header.payloadBytes()));
    field(json, "missingHash", quote(hash));
    return json.append('}').toString();
  }

  private static OptionalLong capacityOf(FilterFileInfo header) {
    try {
      return FilterSpec.parse(header.spec()).capacity();
    } catch (IllegalArgumentException e) {
      return OptionalLong.empty();
    }
  }

  /** @return the {@code CF.INFO} fields, or null for a filter RedisBloom does not know */
  private Map<String, Long> redisInfo() {
    return filter instanceof ScalableCuckooFilter scalable ? scalable.info() : null;
  }

  static void row(PrintWriter out, String label, String value) {
    out.printf(Locale.ROOT, "%-13s %s%n", label, value);
  }

  private static void field(StringBuilder json, String name, String value) {
    if (json.length() > 1) {
      json.append(", ");
    }
    json.append(quote(name)).append(": ").append(value);
  }

  static String quote(String s) {
    StringBuilder q = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        q.append('\\').append(c);
      } else if (c < 0x20) {
        q.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        q.append(c);
      }
    }
    return q.append('"').toString();
  }
}
