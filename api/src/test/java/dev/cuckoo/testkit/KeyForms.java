package dev.cuckoo.testkit;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.testkit.TestKey.Form;

/**
 * Calls a filter operation with a key in a chosen form. A {@code StringBuilder} is one of the
 * forms on purpose: a {@code CharSequence} that is not a {@code String} takes another path.
 */
@SuppressWarnings("UnnecessaryStringBuilder")
final class KeyForms {
  private KeyForms() {}

  static boolean add(CuckooFilter f, TestKey k, Form form) {
    return switch (form) {
      case STRING -> f.add(k.text);
      case BUILDER -> f.add(new StringBuilder(k.text));
      case LONG -> f.add(k.number);
      default -> f.add(k.bytes.clone());
    };
  }

  static boolean addIfAbsent(CuckooFilter f, TestKey k, Form form) {
    return switch (form) {
      case STRING -> f.addIfAbsent(k.text);
      case BUILDER -> f.addIfAbsent(new StringBuilder(k.text));
      case LONG -> f.addIfAbsent(k.number);
      default -> f.addIfAbsent(k.bytes.clone());
    };
  }

  static boolean mightContain(CuckooFilter f, TestKey k, Form form) {
    return switch (form) {
      case STRING -> f.mightContain(k.text);
      case BUILDER -> f.mightContain(new StringBuilder(k.text));
      case LONG -> f.mightContain(k.number);
      default -> f.mightContain(k.bytes.clone());
    };
  }

  static boolean remove(CuckooFilter f, TestKey k, Form form) {
    return switch (form) {
      case STRING -> f.remove(k.text);
      case BUILDER -> f.remove(new StringBuilder(k.text));
      case LONG -> f.remove(k.number);
      default -> f.remove(k.bytes.clone());
    };
  }

  static long count(CuckooFilter f, TestKey k, Form form) {
    return switch (form) {
      case STRING -> f.count(k.text);
      case BUILDER -> f.count(new StringBuilder(k.text));
      case LONG -> f.count(k.number);
      default -> f.count(k.bytes.clone());
    };
  }
}
