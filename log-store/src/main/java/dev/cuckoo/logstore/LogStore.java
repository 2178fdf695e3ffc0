package dev.cuckoo.logstore;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.spi.HashStrategy;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.StampedLock;

/**
 * A key-value store on disk: an append-only log of records, and in memory a cuckoo index that
 * holds, per key, a 12-bit tag of the key and the offset of its newest record. A lookup compares
 * tags in memory and reads the log only to confirm a tag that matches, so a key that is absent
 * costs no read (but for about one lookup in 500, whose tag matches by chance) and a key that is
 * present costs about one.
 *
 * <pre>{@code
 * try (LogStore s = LogStore.open(Path.of("chunks"))) {   // creates, or reopens and rebuilds
 *   s.put(key, value);                                      // appends a record
 *   byte[] v = s.get(key);                                  // the value, or null when absent
 *   s.remove(key);                                          // appends a tombstone
 *   s.flush();                                              // durable from here on
 * }
 * }</pre>
 *
 * <p>What it promises:
 * <ul>
 *   <li><b>Nothing flushed is lost.</b> Every put and remove appends a record with a checksum;
 *       {@link #flush()} forces the log to disk. A crash loses at most what was written after the
 *       last flush: {@link #open} cuts off a last record that a crash cut short, and refuses, with
 *       an {@link IOException} naming the file and the offset, to open a log damaged anywhere
 *       else.
 *   <li><b>Never a wrong answer.</b> A tag that matches a record of another key is read and
 *       passed over, never taken for the key.
 *   <li><b>Sizes.</b> Keys of up to 64 KiB and values of up to 16 MiB (larger ones are refused
 *       with an {@link IllegalArgumentException}); logs of up to 512 GiB. The index takes 6 bytes
 *       a slot and grows by a fifth when it is full, so from a few thousand keys on it holds
 *       about 6.3 (full) to 7.9 (just grown) bytes a key.
 *   <li><b>Compaction.</b> {@link #compact()} writes the live records to a new log and puts it
 *       in the old one's place with an atomic rename: a crash before the rename leaves the old
 *       log, one after it the new.
 *   <li><b>Threads.</b> Safe to share: gets and sizes run together, puts, removes, flushes and
 *       compaction one at a time (one read-write lock, a {@link StampedLock}); a get of an
 *       absent key whose tag matches nothing takes no lock at all. One writer at a time: a
 *       store is locked on disk while it is open, exclusively by {@link #open}, shared by
 *       {@link #openReadOnly}.
 *   <li><b>Read-only opens.</b> {@link #openReadOnly} reads a store without writing a byte, so
 *       a store the user may read but not write can be read: see there.
 * </ul>
 */
public final class LogStore implements AutoCloseable {

  /*
   * The design of the index of Fan et al.'s cuckoo filter paper's ancestor, the in-memory index
   * of a log-structured store [1] (SILT's LogStore [2] is the same at 6 bytes an entry): a cuckoo
   * table of partial keys and offsets, built on this library's engine. A slot holds an entry,
   * a 12-bit tag and a 36-bit offset in units of 8 bytes (IndexTable); the engine's kick path
   * and stash carry the offset with the tag, so a key's offset never leaves its key's two
   * buckets. Because a tag is only part of a key, a put must look for the key first: two
   * records of one key under two entries would sit in the same two buckets, and 2b + 1 of them
   * fill both for good, so a table that grows whenever an insert fails would grow forever [1].
   * When an insert finds no room, the index grows by a fifth, rebuilt from the log (KeyIndex).
   *
   * [1] B. Fan, D. G. Andersen, M. Kaminsky, "MemC3: Compact and Concurrent MemCache with
   *     Dumber Caching and Smarter Hashing", NSDI 2013, and the cuckoo-hashing log store of
   *     "Cuckoo Filter: Practically Better Than Bloom", CoNEXT 2014, section 1.
   * [2] H. Lim, B. Fan, D. G. Andersen, M. Kaminsky, "SILT: A Memory-Efficient, High-Performance
   *     Key-Value Store", SOSP 2011.
   */

  /** The log's file in the store's directory. */
  static final String LOG = "log";
  /** The file compaction writes, renamed over the log when complete. */
  static final String COMPACTING = "log.compacting";
  /** The file the store is locked on while open. */
  static final String LOCK = "lock";
  /** The largest key, 64 KiB. */
  public static final int MAX_KEY_BYTES = RecordLog.MAX_KEY_BYTES;
  /** The largest value, 16 MiB. */
  public static final int MAX_VALUE_BYTES = RecordLog.MAX_VALUE_BYTES;

  private final Path directory;
  /** The lock file's channel and the lock on it; both null for a read-only open without one. */
  private final FileChannel lockChannel;
  private final FileLock fileLock;
  private final boolean readOnly;
  private final HashStrategy hash;
  private final StampedLock lock = new StampedLock();
  private final LongAdder recordReads = new LongAdder();
  private RecordLog log;
  private KeyIndex index;
  private long records;
  /** While {@link #load} scans the log: its length, to size the index it grows to; else 0. */
  private long fileBytes;
  private boolean closed;

  private LogStore(Path directory, FileChannel lockChannel, FileLock lock, HashStrategy hash, boolean readOnly) {
    this.directory = directory;
    this.lockChannel = lockChannel;
    this.fileLock = lock;
    this.hash = hash;
    this.readOnly = readOnly;
  }

  /**
   * Opens the store in a directory: creates it (and the directory) if there is none, or reads
   * its log from the start and rebuilds the index. A last record that a crash cut short is cut
   * off; a log left by a compaction that did not complete is deleted.
   *
   * @param directory the store's directory
   * @return the open store
   * @throws IOException if the log is damaged before its last record (naming the file and the
   *     offset), is not a log of this store, the store is open elsewhere, or reading fails
   * @throws IllegalStateException if the hash the index uses, {@code xxh3} (from
   *     cuckoo-hashing), is not installed
   */
  public static LogStore open(Path directory) throws IOException {
    Objects.requireNonNull(directory, "directory must not be null");
    HashStrategy hash = indexHash();
    Files.createDirectories(directory);
    FileChannel lockChannel = FileChannel.open(directory.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock = lock(lockChannel, false, directory);
    return loaded(new LogStore(directory, lockChannel, lock, hash, false));
  }

  /**
   * Opens an existing store for reading only: {@link #get} and the sizes work as after {@link
   * #open}; {@link #put}, {@link #remove} and {@link #compact} throw {@link
   * IllegalStateException}, and {@link #flush} has nothing to do. Nothing in the directory is
   * created, changed or deleted, so a store the user may read but not write can be read: a
   * last record that a crash cut short is left out of the store, not cut off the file, and a
   * compaction's leftover file is left where it is.
   *
   * <p>Where the store's lock file can be read, a shared lock on it keeps writers out while
   * the store is open (and readers out while a writer has it open), as {@link #open} does. Where
   * it cannot (no lock file, or one the user may not read), nothing is locked: a writer that
   * opens the store meanwhile is not kept out. The reader then goes on seeing the store as it
   * was when it opened, never a wrong value: records appended later are not indexed, and a
   * compaction renames a new log over the old one, which the reader keeps open and reads.
   *
   * @param directory the store's directory
   * @return the open store
   * @throws java.nio.file.NoSuchFileException if the directory holds no store's log
   * @throws IOException as {@link #open} does: the log is damaged before its last record, is
   *     not a log of this store, the store is open for writing, or reading fails
   * @throws IllegalStateException if the hash the index uses, {@code xxh3}, is not installed
   */
  public static LogStore openReadOnly(Path directory) throws IOException {
    Objects.requireNonNull(directory, "directory must not be null");
    HashStrategy hash = indexHash();
    if (!exists(directory)) {
      throw new NoSuchFileException(directory.resolve(LOG).toString(), null, "no log store there");
    }
    FileChannel lockChannel = null;
    FileLock lock = null;
    Path lockFile = directory.resolve(LOCK);
    if (Files.isReadable(lockFile)) {
      try {
        lockChannel = FileChannel.open(lockFile, StandardOpenOption.READ);
      } catch (IOException unreadable) {
        lockChannel = null; // read without a lock, as documented
      }
    }
    if (lockChannel != null) {
      lock = lock(lockChannel, true, directory);
    }
    return loaded(new LogStore(directory, lockChannel, lock, hash, true));
  }

  /*
   * The hash is asked for by name, not looked for in CuckooFilters.hashes(): a listing reads
   * every jar of the class path (hundreds in a Spark application), a lookup by name only as far
   * as the jar that has it.
   */
  private static HashStrategy indexHash() {
    try {
      return CuckooFilters.hash("xxh3");
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("the log store hashes keys with xxh3: add cuckoo-hashing to the class or module path", e);
    }
  }

  /**
   * Takes the lock on the store's lock file: exclusive for a writer, shared for a reader.
   *
   * @throws IOException if another open holds a lock that excludes this one; the channel is
   *     then closed
   */
  private static FileLock lock(FileChannel lockChannel, boolean shared, Path directory) throws IOException {
    FileLock lock;
    try {
      lock = lockChannel.tryLock(0, Long.MAX_VALUE, shared);
    } catch (OverlappingFileLockException e) {
      lock = null;
    } catch (IOException | RuntimeException e) {
      lockChannel.close();
      throw e;
    }
    if (lock == null) {
      lockChannel.close();
      throw new IOException("the store in " + directory + " is already open, in this process or another");
    }
    return lock;
  }

  private static LogStore loaded(LogStore store) throws IOException {
    try {
      store.load();
    } catch (IOException | RuntimeException e) {
      store.release();
      throw e;
    }
    return store;
  }

  /**
   * @param directory a directory
   * @return whether it holds a store's log, so that {@link #open} would reopen a store rather
   *     than create one
   */
  public static boolean exists(Path directory) {
    Objects.requireNonNull(directory, "directory must not be null");
    return Files.isRegularFile(directory.resolve(LOG));
  }

  private void load() throws IOException {
    if (!readOnly) {
      Files.deleteIfExists(directory.resolve(COMPACTING));
    }
    Path file = directory.resolve(LOG);
    index = new KeyIndex(KeyIndex.FIRST_BUCKETS, 0);
    if (!readOnly && !Files.exists(file)) {
      log = RecordLog.create(file);
      return;
    }
    log = RecordLog.open(file, readOnly);
    fileBytes = Files.size(file);
    records = log.scan(Long.MAX_VALUE, true, (offset, kind, key, bytes) -> {
      long keyHash = hash.hashBytes(key, 0, key.length);
      Found found = find(keyHash, key, false);
      if (kind == RecordLog.PUT) {
        putEntry(keyHash, found, offset, offset);
      } else if (found != null) {
        index.remove(found.bucket, found.entry);
      }
    });
    fileBytes = 0;
    log.map(true);
  }

  // ---------------------------------------------------------------- operations

  /**
   * Stores a value under a key, replacing the key's value if it has one.
   *
   * @param key the key, at most {@value #MAX_KEY_BYTES} bytes
   * @param value the value, at most {@value #MAX_VALUE_BYTES} bytes
   * @throws IllegalArgumentException if the key or value is too long
   * @throws IllegalStateException if the store is closed or {@linkplain #openReadOnly read-only}
   * @throws IOException if writing fails, or the log is full (512 GiB: compact it)
   */
  public void put(byte[] key, byte[] value) throws IOException {
    checkKey(key);
    Objects.requireNonNull(value, "value must not be null");
    if (value.length > MAX_VALUE_BYTES) {
      throw new IllegalArgumentException(
          "value of " + value.length + " bytes is too long: at most " + MAX_VALUE_BYTES + " (16 MiB)");
    }
    long stamp = lock.writeLock();
    try {
      checkWritable();
      long keyHash = hash.hashBytes(key, 0, key.length);
      Found found = find(keyHash, key, false);
      long offset = log.append(RecordLog.PUT, key, value);
      records++;
      putEntry(keyHash, found, offset, log.end());
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  /**
   * @param key the key
   * @return its value, or {@code null} if the store has none
   * @throws IOException if reading fails, or the record read is damaged
   */
  public byte[] get(byte[] key) throws IOException {
    checkKey(key);
    long keyHash = hash.hashBytes(key, 0, key.length);
    // Most gets of absent keys match no tag: they are answered from an optimistic read of the
    // index, without taking the lock, and validated after; a writer in between sends them
    // down the locked path.
    long optimistic = lock.tryOptimisticRead();
    if (optimistic != 0) {
      KeyIndex i = index;
      boolean mayHold = i == null || i.mayHold(keyHash);
      if (lock.validate(optimistic) && !mayHold && !closed) {
        return null;
      }
    }
    long stamp = lock.readLock();
    try {
      checkOpen();
      Found found = find(keyHash, key, true);
      return found == null ? null : found.value;
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /**
   * Removes a key: appends a tombstone, so that the removal outlives a reopen.
   *
   * @param key the key
   * @return {@code true} if the store had it
   * @throws IllegalStateException if the store is closed or {@linkplain #openReadOnly read-only}
   * @throws IOException if reading or writing fails
   */
  public boolean remove(byte[] key) throws IOException {
    checkKey(key);
    long stamp = lock.writeLock();
    try {
      checkWritable();
      Found found = find(hash.hashBytes(key, 0, key.length), key, false);
      if (found == null) {
        return false;
      }
      log.append(RecordLog.DELETE, key, new byte[0]);
      records++;
      index.remove(found.bucket, found.entry);
      return true;
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  /** @return the keys the store holds */
  public long size() {
    long stamp = lock.readLock();
    try {
      return index.size();
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /** @return the bytes of memory the index holds */
  public long indexSizeInBytes() {
    long stamp = lock.readLock();
    try {
      return index.bytes();
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /**
   * @return the records {@link #get} has read from the log since the store was opened: one per
   *     hit, and one per tag that matched a record of another key
   */
  public long recordReads() {
    return recordReads.sum();
  }

  /** @return the records in the log: puts and tombstones, live or superseded */
  public long records() {
    long stamp = lock.readLock();
    try {
      return records;
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /** @return the bytes of the log */
  public long logSizeInBytes() {
    long stamp = lock.readLock();
    try {
      return log.end();
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /**
   * Forces every record written so far to disk: a crash after it loses none of them. A
   * read-only store has nothing to force.
   *
   * @throws IOException if writing fails
   */
  public void flush() throws IOException {
    long stamp = lock.writeLock();
    try {
      checkOpen();
      if (readOnly) {
        return;
      }
      log.force();
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  /**
   * Rewrites the live records, and only them, into a new log, forces it to disk, and renames it
   * over the old one (atomically), then rebuilds the index over it. A crash before the rename
   * leaves the old log as it was (the next open deletes the partial new one); after it, the new
   * log holds every live record.
   *
   * @throws IllegalStateException if the store is closed or {@linkplain #openReadOnly read-only}
   * @throws IOException if writing fails
   */
  public void compact() throws IOException {
    long stamp = lock.writeLock();
    try {
      checkWritable();
      Path target = directory.resolve(COMPACTING);
      KeyIndex current = index;
      KeyIndex fresh;
      long kept;
      for (long buckets = KeyIndex.bucketsFor(current.size()); ; buckets = (long) (buckets * KeyIndex.GROWTH) & ~1L) {
        fresh = new KeyIndex(buckets, records);
        kept = copyLiveRecords(current, fresh, target);
        if (kept >= 0) {
          break;
        }
      }
      // The rename replaces the log atomically; the old log's channel stays valid until closed,
      // so a failed rename leaves the store as it was.
      Files.move(target, directory.resolve(LOG), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      forceDirectory();
      RecordLog replaced = log;
      log = RecordLog.open(directory.resolve(LOG), false);
      log.map(true);
      index = fresh;
      records = kept;
      replaced.close();
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  /**
   * Writes the records {@code current} holds to a new log at {@code target}, forced to disk,
   * indexing them in {@code fresh}.
   *
   * @return the records written, or -1 if {@code fresh} had no room for them (the file is then
   *     incomplete; the caller tries again with a larger index)
   */
  private long copyLiveRecords(KeyIndex current, KeyIndex fresh, Path target) throws IOException {
    long[] kept = {0};
    try (RecordLog compacted = RecordLog.create(target)) {
      log.scan(log.end(), false, (offset, kind, key, bytes) -> {
        long keyHash = hash.hashBytes(key, 0, key.length);
        if (kept[0] >= 0 && kind == RecordLog.PUT && current.holds(keyHash, offset)) {
          long at = log.copyTo(offset, bytes, compacted);
          kept[0] = fresh.insert(keyHash, at) ? kept[0] + 1 : -1;
        }
      });
      compacted.force();
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(target);
      throw e;
    }
    return kept[0];
  }

  /**
   * Flushes and closes the store, and unlocks it. Closing again does nothing.
   *
   * @throws IOException if writing fails
   */
  @Override
  public void close() throws IOException {
    long stamp = lock.writeLock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      try {
        if (!readOnly) {
          log.force();
        }
        log.close();
      } finally {
        release();
      }
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  private void release() throws IOException {
    if (lockChannel == null) {
      return;
    }
    try {
      fileLock.release();
    } finally {
      lockChannel.close();
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the store in " + directory + " is closed");
    }
  }

  private void checkWritable() {
    checkOpen();
    if (readOnly) {
      throw new IllegalStateException("the store in " + directory + " is open read-only");
    }
  }

  private static void checkKey(byte[] key) {
    Objects.requireNonNull(key, "key must not be null");
    if (key.length > MAX_KEY_BYTES) {
      throw new IllegalArgumentException("key of " + key.length + " bytes is too long: at most " + MAX_KEY_BYTES + " (64 KiB)");
    }
  }

  private void forceDirectory() {
    // Makes the rename durable where the platform lets a directory be opened (Linux does).
    try (FileChannel d = FileChannel.open(directory, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException notSupported) {
      // Windows cannot open a directory; its rename is durable by itself.
    }
  }

  // ---------------------------------------------------------------- the index

  /** A key's entry: where it is (a bucket, or -1 for the stash) and, for a get, its value. */
  private static final class Found {
    final long bucket;
    final long entry;
    final byte[] value;

    Found(long bucket, long entry, byte[] value) {
      this.bucket = bucket;
      this.entry = entry;
      this.value = value;
    }
  }

  /**
   * Finds the key's entry: reads the record of each entry whose tag matches, until one holds
   * the key.
   *
   * @param counting whether the reads count in {@link #recordReads} (for gets)
   * @return the entry, or {@code null} if the store does not hold the key
   */
  private Found find(long keyHash, byte[] key, boolean counting) throws IOException {
    return index.find(keyHash, (bucket, entry) -> read(bucket, entry, key, counting));
  }

  private Found read(long bucket, long entry, byte[] key, boolean counting) throws IOException {
    if (counting) {
      recordReads.increment();
    }
    byte[] value = log.valueIfKey(IndexTable.offsetOf(entry), key);
    return value == null ? null : new Found(bucket, entry, value);
  }

  /**
   * Points the key's entry at a new record: in place where the key has an entry in the table,
   * else as a new entry, growing the index (from the log up to {@code logEnd}) until it fits.
   */
  private void putEntry(long keyHash, Found found, long offset, long logEnd) throws IOException {
    if (found != null && found.bucket >= 0) {
      index.repoint(found.bucket, found.entry, offset);
      return;
    }
    if (found != null) {
      index.remove(found.bucket, found.entry);
    }
    while (!index.insert(keyHash, offset)) {
      KeyIndex grown = index.grown(log, hash, logEnd, fileBytes);
      if (grown == null) {
        throw new IOException("the store in " + directory + " holds more keys than one index addresses");
      }
      index = grown;
    }
  }
}
