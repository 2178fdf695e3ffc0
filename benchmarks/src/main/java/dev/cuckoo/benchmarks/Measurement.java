package dev.cuckoo.benchmarks;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code compare} measures of one contender at one size.
 *
 * @param name the contender
 * @param family {@code cuckoo}, {@code peer-cuckoo} or {@code peer-bloom}
 * @param keys how many keys the filter was sized for and given
 * @param stored how many of them it accepted
 * @param bitsPerItem table bits per stored key
 * @param fpp measured false-positive rate over the negative lookups
 * @param loadAtRefusal stored keys / slots when the first add was refused (NaN if it never
 *     refused within twice its keys, or has no slots)
 * @param insertNs median nanoseconds per add over a fill from empty
 * @param positiveNs median nanoseconds per lookup of a stored key
 * @param negativeNs median nanoseconds per lookup of a key never added
 * @param falseNegatives stored keys that were not found (must be 0; peers that drop items on a
 *     full table show here)
 */
public record Measurement(
    String name,
    String family,
    long keys,
    long stored,
    double bitsPerItem,
    double fpp,
    double loadAtRefusal,
    double insertNs,
    double positiveNs,
    double negativeNs,
    long falseNegatives) {

  /** @return the line a worker prints: {@code key=value} pairs separated by tabs */
  public String toLine() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("name", name);
    m.put("family", family);
    m.put("keys", Long.toString(keys));
    m.put("stored", Long.toString(stored));
    m.put("bitsPerItem", Double.toString(bitsPerItem));
    m.put("fpp", Double.toString(fpp));
    m.put("loadAtRefusal", Double.toString(loadAtRefusal));
    m.put("insertNs", Double.toString(insertNs));
    m.put("positiveNs", Double.toString(positiveNs));
    m.put("negativeNs", Double.toString(negativeNs));
    m.put("falseNegatives", Long.toString(falseNegatives));
    return WorkerLines.format("MEASUREMENT", m);
  }

  /**
   * @param line a line written by {@link #toLine()}
   * @return the measurement
   */
  public static Measurement fromLine(String line) {
    Map<String, String> m = WorkerLines.parse(line);
    return new Measurement(m.get("name"), m.get("family"), Long.parseLong(m.get("keys")),
        Long.parseLong(m.get("stored")), Double.parseDouble(m.get("bitsPerItem")), Double.parseDouble(m.get("fpp")),
        Double.parseDouble(m.get("loadAtRefusal")), Double.parseDouble(m.get("insertNs")),
        Double.parseDouble(m.get("positiveNs")), Double.parseDouble(m.get("negativeNs")),
        Long.parseLong(m.get("falseNegatives")));
  }

  /** @return the CSV header matching {@link #toCsv()} */
  public static String csvHeader() {
    return "name,family,keys,stored,bits_per_item,fpp,load_at_first_refusal,insert_ns,positive_lookup_ns,negative_lookup_ns,false_negatives";
  }

  /** @return this measurement as a CSV row */
  public String toCsv() {
    return String.format(Locale.ROOT, "\"%s\",%s,%d,%d,%.4f,%.8f,%.4f,%.2f,%.2f,%.2f,%d", name, family, keys, stored,
        bitsPerItem, fpp, loadAtRefusal, insertNs, positiveNs, negativeNs, falseNegatives);
  }
}
