package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;

/**
 * A filter as it travels to executors: its file bytes, read back into a filter once per JVM. A
 * broadcast of one is deserialized once per executor, and {@link #filter()} parses it on first
 * use; the executor's tasks then share that filter, read-only (lookups alone may run in
 * parallel on any filter).
 *
 * <p>{@link #of(byte[])} does the same for the SQL function, whose bytes come with each task's
 * copy of the plan: equal bytes are recognised by their length and a CRC32C of all of them.
 * Two files of one length whose bytes differ are told apart but for a chance of 2^-32.
 */
final class SharedFilter implements Serializable {
  private static final long serialVersionUID = 1L;
  /** Files parsed per JVM by the SQL function, kept until there are more than this. */
  private static final int CACHED_FILES = 8;
  private static final Map<FileKey, CuckooFilter> PARSED = new ConcurrentHashMap<>();
  /** The driver's broadcasts of SQL filter arguments, by their bytes: a query run again reuses its broadcast. */
  private static final Map<FileKey, Broadcast<SharedFilter>> BROADCASTS = new ConcurrentHashMap<>();
  /** Filter files parsed in this JVM, for the tests that check a filter is read once, not per row or task. */
  private static final AtomicLong PARSES = new AtomicLong();

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
          f = filter = of(file); // shared with a check of the same bytes in this JVM (a driver in local mode)
        }
      }
    }
    return f;
  }

  /**
   * The filter of a file's bytes, parsed once per JVM for equal bytes. Called once per task (a
   * lookup keeps what it got), so telling equal bytes apart costs a task, not a row.
   */
  static CuckooFilter of(byte[] file) {
    FileKey key = new FileKey(file);
    CuckooFilter f = PARSED.get(key);
    if (f == null) {
      if (PARSED.size() >= CACHED_FILES) {
        PARSED.clear();
      }
      f = PARSED.computeIfAbsent(key, k -> parse(file));
    }
    return f;
  }

  /**
   * On the driver: a broadcast of a filter file's bytes (a SQL filter argument's value, known
   * when the plan runs), made once per distinct bytes of the session's context. The tasks then
   * take the filter as {@code CuckooSpark.mightContain} gives it, instead of a copy of the bytes
   * in every task's plan.
   */
  static Broadcast<SharedFilter> broadcast(SparkContext sc, byte[] file) {
    FileKey key = new FileKey(file);
    Broadcast<SharedFilter> b = BROADCASTS.get(key);
    if (b == null || !b.isValid() || sc.isStopped()) {
      if (BROADCASTS.size() >= CACHED_FILES) {
        BROADCASTS.clear();
      }
      b = JavaSparkContext.fromSparkContext(sc).broadcast(new SharedFilter(file));
      BROADCASTS.put(key, b);
    }
    return b;
  }

  /** @return how many filter files this JVM has parsed */
  static long parses() {
    return PARSES.get();
  }

  private static CuckooFilter parse(byte[] file) {
    PARSES.incrementAndGet();
    try {
      return CuckooFilters.read(new ByteArrayInputStream(file));
    } catch (IOException e) {
      throw new IllegalArgumentException("the filter's bytes are not a filter file: " + e.getMessage(), e);
    }
  }

  /**
   * What tells one file's bytes from another's: their length and a CRC32C of all of them. Not the
   * CRC the file ends with, which a damaged copy of a file already read would share with it (and
   * so be taken for it, unchecked); a pass at several GB/s, once per task, not per row.
   */
  private record FileKey(int length, int crc) {
    FileKey(byte[] file) {
      this(file.length, crcOf(file));
    }

    private static int crcOf(byte[] file) {
      CRC32C crc = new CRC32C();
      crc.update(file, 0, file.length);
      return (int) crc.getValue();
    }
  }
}
