package dev.cuckoo.testkit;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.testkit.TestKey.Form;

/** Calls a filter operation with a key in a chosen form. */
final class KeyForms {
  private KeyForms() {}

  static boolean add(CuckooFilter f, TestKey k, Form form) {
    switch (form) {
      case STRING: return f.add(k.text);
      case BUILDER: return f.add(new StringBuilder(k.text));
      case LONG: return f.add(k.number);
      default: return f.add(k.bytes.clone());
    }
  }

  static boolean addIfAbsent(CuckooFilter f, TestKey k, Form form) {
    switch (form) {
      case STRING: return f.addIfAbsent(k.text);
      case BUILDER: return f.addIfAbsent(new StringBuilder(k.text));
      case LONG: return f.addIfAbsent(k.number);
      default: return f.addIfAbsent(k.bytes.clone());
    }
  }

  static boolean mightContain(CuckooFilter f, TestKey k, Form form) {
    switch (form) {
      case STRING: return f.mightContain(k.text);
      case BUILDER: return f.mightContain(new StringBuilder(k.text));
      case LONG: return f.mightContain(k.number);
      default: return f.mightContain(k.bytes.clone());
    }
  }

  static boolean remove(CuckooFilter f, TestKey k, Form form) {
    switch (form) {
      case STRING: return f.remove(k.text);
      case BUILDER: return f.remove(new StringBuilder(k.text));
      case LONG: return f.remove(k.number);
      default: return f.remove(k.bytes.clone());
    }
  }

  static long count(CuckooFilter f, TestKey k, Form form) {
    switch (form) {
      case STRING: return f.count(k.text);
      case BUILDER: return f.count(new StringBuilder(k.text));
      case LONG: return f.count(k.number);
      default: return f.count(k.bytes.clone());
    }
  }
}
