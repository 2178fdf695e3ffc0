package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A filter as it travels to executors: its file bytes, read back into a filter once per JVM. A
 * broadcast of one is deserialized once per executor, and {@link #filter()} parses it on first
 * use; the executor's tasks then share that filter, read-only (lookups alone may run in
 * parallel on any filter).
 *
 * <p>{@link #of(byte[])} does the same for the SQL function, which is handed the bytes row by
 * row: the same array (a literal, a scalar subquery) is recognised by identity, and a copy of it
 * (a join hands each row its own) by its length, its header and the CRC32C at its end, which
 * covers every byte of the file. Filters whose bytes are not the same but agree on all three are
 * not told apart; for two filters of the same length and spec the chance is 2^-32.
 */
final class SharedFilter implements Serializable {
  private static final long serialVersionUID = 1L;
  /** Files parsed per JVM by the SQL function, kept until there are more than this. */
  private static final int CACHED_FILES = 8;
  private static final int HEADER_BYTES = 256;
  private static final Map<FileKey, CuckooFilter> PARSED = new ConcurrentHashMap<>();

  private final byte[] file;
  private transient volatile CuckooFilter filter;

  private SharedFilter(byte[] file) {
    this.file = file;
  }

  static SharedFilter of(CuckooFilter filter) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      filter.writeTo(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new SharedFilter(out.toByteArray());
  }

  CuckooFilter filter() {
    CuckooFilter f = filter;
    if (f == null) {
      synchronized (this) {
        f = filter;
        if (f == null) {
          f = filter = parse(file);
        }
      }
    }
    return f;
  }

  /** The filter of a file's bytes, parsed once per JVM for equal bytes. */
  static CuckooFilter of(byte[] file) {
    Last last = Last.current;
    if (last != null && last.file == file) {
      return last.filter;
    }
    FileKey key = new FileKey(file);
    CuckooFilter f = PARSED.get(key);
    if (f == null) {
      if (PARSED.size() >= CACHED_FILES) {
        PARSED.clear();
      }
      f = PARSED.computeIfAbsent(key, k -> parse(file));
    }
    Last.current = new Last(file, f);
    return f;
  }

  private static CuckooFilter parse(byte[] file) {
    try {
      return CuckooFilters.read(new ByteArrayInputStream(file));
    } catch (IOException e) {
      throw new IllegalArgumentException("the filter's bytes are not a filter file: " + e.getMessage(), e);
    }
  }

  /** The array last looked up in this JVM, and its filter: the common case of one filter. */
  private static final class Last {
    static volatile Last current;

    final byte[] file;
    final CuckooFilter filter;

    Last(byte[] file, CuckooFilter filter) {
      this.file = file;
      this.filter = filter;
    }
  }

  private record FileKey(int length, int crc, int header) {
    FileKey(byte[] file) {
      this(file.length, file.length >= 4 ? ByteBuffer.wrap(file, file.length - 4, 4).getInt() : 0,
          Arrays.hashCode(Arrays.copyOf(file, Math.min(HEADER_BYTES, file.length))));
    }
  }
}
