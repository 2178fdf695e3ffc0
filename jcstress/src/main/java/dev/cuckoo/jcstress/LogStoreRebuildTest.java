package dev.cuckoo.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.engine.CuckooTable;
import dev.cuckoo.logstore.LogStore;
import dev.cuckoo.spi.HashStrategy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * Gets of a stored key racing a write that replaces the log store's index: {@link Compact}
 * rewrites the log and rebuilds the index over it; {@link Grow} puts a key that finds no room
 * (the store's keys fill both buckets of one pair and the index's stash), so the index is rebuilt a fifth larger from
 * the log. A get reads the index optimistically (a {@code StampedLock} stamp) and answers "absent"
 * without the lock only if the index holds no tag of the key and the stamp validates; it must
 * never answer {@code null} for a stored key.
 *
 * <p>Outcome: (every get made while the write ran returned the key's value, the write completed,
 * the index was replaced: the log shrank, or the index grew).
 */
public class LogStoreRebuildTest {

  /** Where the states' stores live: memory-backed where the system has it. */
  private static final Path ROOT = Files.isDirectory(Paths.get("/dev/shm")) ? Paths.get("/dev/shm")
      : Paths.get(System.getProperty("java.io.tmpdir"));
  private static final byte[] VALUE = "value".getBytes(StandardCharsets.UTF_8);

  /** One store: its directory, the key looked up, and whether the write has returned. */
  static final class StoreState {
    final Path directory;
    final LogStore store;
    final byte[] key;
    final long before;
    volatile boolean written;

    StoreState(byte[][] keys, boolean deadRecords) {
      try {
        directory = Files.createTempDirectory(ROOT, "cuckoo-jcstress-");
        store = LogStore.open(directory);
        for (byte[] k : keys) {
          store.put(k, VALUE);
          if (deadRecords) {
            store.put(k, VALUE); // the first record of the key is dead: compaction drops it
          }
        }
        key = keys[0];
        before = deadRecords ? store.logSizeInBytes() : store.indexSizeInBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    boolean getUntilWritten() {
      return RepeatedLookup.allFound(() -> {
        try {
          return store.get(key) != null;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }, () -> written);
    }

    /** Closes the store and deletes its directory; returns {@code figure} read before. */
    long closeAfter(long figure) {
      try {
        store.close();
        try (Stream<Path> files = Files.walk(directory)) {
          for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
            Files.delete(p);
          }
        }
        return figure;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** A compaction of a log of a few keys, each written twice. */
  @JCStressTest
  @Outcome(id = "true, true, true", expect = ACCEPTABLE, desc = "found; the compaction rewrote the log")
  @Outcome(id = "true, true, false", expect = ACCEPTABLE_INTERESTING, desc = "found; the log did not shrink")
  @Outcome(id = "false, .*", expect = FORBIDDEN, desc = "key not found: a false negative")
  @Outcome(expect = FORBIDDEN, desc = "anything else")
  @State
  public static class Compact {
    static final byte[][] KEYS = keys(4);
    final StoreState s = new StoreState(KEYS, true);

    @Actor
    public void get(ZZZ_Result r) {
      r.r1 = s.getUntilWritten();
    }

    @Actor
    public void compact(ZZZ_Result r) {
      try {
        s.store.compact();
        r.r2 = true;
      } catch (IOException e) {
        r.r2 = false;
      }
      s.written = true;
    }

    @Arbiter
    public void shrank(ZZZ_Result r) {
      r.r3 = s.closeAfter(s.store.logSizeInBytes()) < s.before;
    }
  }

  /** A put that finds both of its buckets full of keys of the same pair, and grows the index. */
  @JCStressTest
  @Outcome(id = "true, true, true", expect = ACCEPTABLE, desc = "found; the put grew the index")
  @Outcome(id = "true, true, false", expect = ACCEPTABLE_INTERESTING, desc = "found; the index did not grow")
  @Outcome(id = "false, .*", expect = FORBIDDEN, desc = "key not found: a false negative")
  @Outcome(expect = FORBIDDEN, desc = "anything else")
  @State
  public static class Grow {
    /**
     * Seventeen keys of one pair of buckets: eight fill the pair, eight the index's stash, and
     * the last finds no room.
     */
    static final byte[][] PAIR = keysOfOnePair(17);
    static final byte[][] STORED = Arrays.copyOf(PAIR, 16);
    final StoreState s = new StoreState(STORED, false);

    @Actor
    public void get(ZZZ_Result r) {
      r.r1 = s.getUntilWritten();
    }

    @Actor
    public void put(ZZZ_Result r) {
      try {
        s.store.put(PAIR[16], VALUE);
        r.r2 = true;
      } catch (IOException e) {
        r.r2 = false;
      }
      s.written = true;
    }

    @Arbiter
    public void grew(ZZZ_Result r) {
      r.r3 = s.closeAfter(s.store.indexSizeInBytes()) > s.before;
    }
  }

  static byte[][] keys(int n) {
    byte[][] keys = new byte[n][];
    for (int i = 0; i < n; i++) {
      keys[i] = ("key-" + i).getBytes(StandardCharsets.UTF_8);
    }
    return keys;
  }

  /** @return keys whose first and second buckets in a new store's index are one pair */
  static byte[][] keysOfOnePair(int n) {
    HashStrategy xxh3 = CuckooFilters.hash("xxh3");
    CuckooTable index = newIndex();
    byte[][] keys = new byte[n][];
    long bucket = -1;
    long other = -1;
    int found = 0;
    for (int i = 0; found < n; i++) {
      byte[] k = ("key-" + i).getBytes(StandardCharsets.UTF_8);
      long h = xxh3.hashBytes(k, 0, k.length);
      long b = index.bucketIndex(h);
      long o = index.alternate(b, index.fingerprint(h));
      if (found == 0) {
        bucket = b;
        other = o;
      }
      if (b == bucket && o == other) {
        keys[found++] = k;
      }
    }
    return keys;
  }

  /** @return the table a new store's index starts with (16 buckets), by reflection */
  private static CuckooTable newIndex() {
    try {
      Constructor<?> c = Class.forName("dev.cuckoo.logstore.IndexTable").getDeclaredConstructor(long.class);
      c.setAccessible(true);
      return (CuckooTable) c.newInstance(16L);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot build the log store's index table", e);
    }
  }
}
