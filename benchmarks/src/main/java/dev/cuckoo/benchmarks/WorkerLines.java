package dev.cuckoo.benchmarks;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one line a worker JVM prints for its result: a tag, then {@code key=value} fields
 * separated by tabs (values hold no tab), which the parent reads back in the same order.
 */
final class WorkerLines {
  private WorkerLines() {}

  /** @return {@code tag} and the fields as one line */
  static String format(String tag, Map<String, String> fields) {
    StringBuilder sb = new StringBuilder(tag);
    fields.forEach((k, v) -> sb.append('\t').append(k).append('=').append(v));
    return sb.toString();
  }

  /** @return the fields of a line {@link #format} wrote, in order */
  static Map<String, String> parse(String line) {
    Map<String, String> m = new LinkedHashMap<>();
    Arrays.stream(line.split("\t")).skip(1).forEach(kv -> m.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1)));
    return m;
  }
}
