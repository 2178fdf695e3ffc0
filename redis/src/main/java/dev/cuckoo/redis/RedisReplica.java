package dev.cuckoo.redis;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.scalable.ScalableCuckooFilter;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import redis.clients.jedis.UnifiedJedis;

/**
 * A read-only copy, in this JVM, of the filter under a Redis key: lookups ({@code mightContain},
 * {@code count}) answer from memory in nanoseconds instead of a {@code CF.EXISTS} round trip,
 * as the key answered when the copy was taken. {@link #refresh()} takes a new copy ({@link
 * RedisFilters#pull}: one state of the key, even under writes); {@link #open(UnifiedJedis,
 * String, Duration, Consumer)} also refreshes on a schedule.
 *
 * <pre>{@code
 * try (RedisReplica users = RedisReplica.open(redis, "users", Duration.ofSeconds(30),
 *     e -> log.warn("users not refreshed", e))) {
 *   users.mightContain("alice");   // from memory
 * }
 * }</pre>
 *
 * <p><b>Staleness.</b> Keys added in Redis since the last refresh are missing from the copy
 * and keys removed there are still in it, until the next refresh.
 *
 * <p><b>Refreshing.</b> A refresh loads the new copy beside the current one, then swaps them:
 * lookups go on, on the current copy, while it loads, and never see a copy half loaded. So the
 * heap needs room for two copies of the filter. Refreshes run one at a time. A refresh that
 * fails (Redis unreachable, key deleted, too little heap) keeps the current copy: {@link
 * #refresh()} throws, and a scheduled refresh hands the failure to the callback and tries again
 * on schedule. Each refresh copies the whole key; pick the period by its size.
 *
 * <p><b>Writes</b> ({@code add}, {@code addIfAbsent}, {@code remove}, {@code clear}) throw
 * {@link UnsupportedOperationException}: the filter belongs to Redis; write there ({@code
 * CF.ADD}), and refresh. Everything else ({@code size}, {@code spec}, {@code writeTo}, ...)
 * describes the current copy.
 *
 * <p>Thread-safe. Lookups allocate nothing beyond what the filter's own lookups do.
 */
public final class RedisReplica implements CuckooFilter, AutoCloseable {
  private final UnifiedJedis redis;
  private final String key;
  private final ReentrantLock refreshing = new ReentrantLock();
  /** Null unless refreshes are scheduled; package-private for the test that close() stops it. */
  final ScheduledExecutorService schedule;
  private volatile ScalableCuckooFilter copy;
  private volatile Instant refreshedAt;
  private volatile boolean closed;

  private RedisReplica(UnifiedJedis redis, String key, boolean scheduled) {
    this.redis = Objects.requireNonNull(redis, "redis");
    this.key = Objects.requireNonNull(key, "key");
    this.schedule = scheduled ? Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "cuckoo-replica " + key);
      t.setDaemon(true);
      return t;
    }) : null;
  }

  /**
   * Copies the filter under a key, to be refreshed on demand ({@link #refresh()}).
   *
   * @param redis the client (any Jedis client with a pool, as for {@link RedisFilters}); it
   *     stays the caller's, to close after the replica
   * @param key the key
   * @return the replica, holding its first copy
   * @throws NoSuchElementException if there is no such key
   * @throws IllegalStateException if the key holds something other than a cuckoo filter
   * @throws CorruptFilterException if Redis returns chunks that are not a valid dump
   */
  public static RedisReplica open(UnifiedJedis redis, String key) throws CorruptFilterException {
    RedisReplica replica = new RedisReplica(redis, key, false);
    replica.refresh();
    return replica;
  }

  /**
   * Copies the filter under a key, and refreshes the copy every {@code period} (after the last
   * refresh ended) on a daemon thread of its own, until {@link #close()}.
   *
   * @param redis the client (any Jedis client with a pool); the caller's, to close after the
   *     replica
   * @param key the key
   * @param period the time between the end of a refresh and the start of the next
   * @param onRefreshFailure takes what made a scheduled refresh fail (the copy stays as it was);
   *     it runs on the replica's thread, and what it throws is dropped
   * @return the replica, holding its first copy
   * @throws IllegalArgumentException if the period is not positive
   * @throws NoSuchElementException if there is no such key
   * @throws IllegalStateException if the key holds something other than a cuckoo filter
   * @throws CorruptFilterException if Redis returns chunks that are not a valid dump
   */
  public static RedisReplica open(UnifiedJedis redis, String key, Duration period,
      Consumer<? super Exception> onRefreshFailure) throws CorruptFilterException {
    Objects.requireNonNull(onRefreshFailure, "onRefreshFailure");
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("period " + period + " is not positive");
    }
    RedisReplica replica = new RedisReplica(redis, key, true);
    try {
      replica.refresh();
    } catch (CorruptFilterException | RuntimeException e) {
      replica.close();
      throw e;
    }
    long nanos = period.toNanos();
    // The task hands its own failures to the callback, and close() shuts the executor down, so
    // the future has nothing to tell.
    var unused = replica.schedule.scheduleWithFixedDelay(() -> replica.refreshOnSchedule(onRefreshFailure), nanos, nanos,
        TimeUnit.NANOSECONDS);
    return replica;
  }

  private void refreshOnSchedule(Consumer<? super Exception> onRefreshFailure) {
    try {
      refresh();
    } catch (CorruptFilterException | RuntimeException e) {
      report(onRefreshFailure, e);
    } catch (OutOfMemoryError e) {
      // The new copy did not fit beside the current one; that one is still whole.
      report(onRefreshFailure, new IllegalStateException("not enough heap for a second copy of key '" + key
          + "' (" + copy.sizeInBytes() + " bytes now) while it loads", e));
    }
  }

  private static void report(Consumer<? super Exception> onRefreshFailure, Exception e) {
    try {
      onRefreshFailure.accept(e);
    } catch (RuntimeException ignored) {
      // The schedule must go on: an exception leaving the task would cancel every later refresh.
    }
  }

  /**
   * Takes a new copy of the key and swaps it in; lookups use the current copy until then. If
   * another refresh is running, waits for it, then refreshes again.
   *
   * @throws NoSuchElementException if the key is gone (the current copy stays)
   * @throws IllegalStateException if the key holds something other than a cuckoo filter, or the
   *     replica is closed (the current copy stays)
   * @throws CorruptFilterException if Redis returns chunks that are not a valid dump (the
   *     current copy stays)
   */
  public void refresh() throws CorruptFilterException {
    refreshing.lock();
    try {
      if (closed) {
        throw new IllegalStateException("the replica of key '" + key + "' is closed");
      }
      Instant started = Instant.now();
      swapIn(RedisFilters.pull(redis, key), started);
    } finally {
      refreshing.unlock();
    }
  }

  /**
   * Makes a loaded copy the current one: lookups that run meanwhile answer from the old copy or
   * from this one, whole, never from one half loaded. Package-private so that the jcstress tests
   * can race it against lookups without a Redis.
   *
   * @param fresh the new copy, fully loaded
   * @param started when the refresh that took it began
   */
  void swapIn(ScalableCuckooFilter fresh, Instant started) {
    refreshedAt = started;
    copy = fresh;
  }

  /** @return the key this replica copies */
  public String key() {
    return key;
  }

  /**
   * @return when the refresh that took the current copy began: the copy is at least as new as
   *     the key was then
   */
  public Instant refreshedAt() {
    return refreshedAt;
  }

  /**
   * Stops scheduled refreshes (waiting up to a second for one that is running) and refuses
   * further refreshes. Lookups go on answering from the last copy. The Jedis client is not
   * closed: it is the caller's.
   */
  @Override
  public void close() {
    closed = true;
    if (schedule != null) {
      schedule.shutdownNow();
      try {
        schedule.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public boolean mightContain(byte[] key) {
    return copy.mightContain(key);
  }

  @Override
  public boolean mightContain(CharSequence key) {
    return copy.mightContain(key);
  }

  @Override
  public boolean mightContain(long key) {
    return copy.mightContain(key);
  }

  /** {@inheritDoc} From the copy, a block of keys at a time as the copy's variant does it. */
  @Override
  public int mightContainAll(long[] keys, boolean[] results) {
    return copy.mightContainAll(keys, results);
  }

  /** {@inheritDoc} From the copy, a block of keys at a time as the copy's variant does it. */
  @Override
  public int mightContainAll(byte[][] keys, int[] lengths, int count, boolean[] results) {
    return copy.mightContainAll(keys, lengths, count, results);
  }

  @Override
  public long count(byte[] key) {
    return copy.count(key);
  }

  @Override
  public long count(CharSequence key) {
    return copy.count(key);
  }

  @Override
  public long count(long key) {
    return copy.count(key);
  }

  @Override
  public long size() {
    return copy.size();
  }

  @Override
  public long capacity() {
    return copy.capacity();
  }

  @Override
  public long slots() {
    return copy.slots();
  }

  @Override
  public long sizeInBytes() {
    return copy.sizeInBytes();
  }

  @Override
  public double expectedFpp() {
    return copy.expectedFpp();
  }

  @Override
  public FilterSpec spec() {
    return copy.spec();
  }

  /** Writes the current copy, which reads back as a filter of variant {@code scalable}. */
  @Override
  public void writeTo(OutputStream out) throws IOException {
    copy.writeTo(out);
  }

  /** @throws UnsupportedOperationException always: write to Redis, then refresh */
  @Override
  public boolean add(byte[] key) {
    throw readOnly();
  }

  /** @throws UnsupportedOperationException always: write to Redis, then refresh */
  @Override
  public boolean add(CharSequence key) {
    throw readOnly();
  }

  /** @throws UnsupportedOperationException always: write to Redis, then refresh */
  @Override
  public boolean add(long key) {
    throw readOnly();
  }

  /** @throws UnsupportedOperationException always: write to Redis, then refresh */
  @Override
  public boolean addIfAbsent(byte[] key) {
    throw readOnly();
  }

  /** @throws UnsupportedOperationException always: write to Redis, then refresh */
  @Override
  public boolean addIfAbsent(CharSequence key) {
    throw readOnly();
  }

  /** @throws UnsupportedOperationException always: write to Redis, then refresh */
  @Override
  public boolean addIfAbsent(long key) {
    throw readOnly();
  }

  /** @throws UnsupportedOperationException always: write to Redis, then refresh */
  @Override
  public boolean remove(byte[] key) {
    throw readOnly();
  }

  /** @throws UnsupportedOperationException always: write to Redis, then refresh */
  @Override
  public boolean remove(CharSequence key) {
    throw readOnly();
  }

  /** @throws UnsupportedOperationException always: write to Redis, then refresh */
  @Override
  public boolean remove(long key) {
    throw readOnly();
  }

  /** @throws UnsupportedOperationException always: write to Redis, then refresh */
  @Override
  public void clear() {
    throw readOnly();
  }

  private UnsupportedOperationException readOnly() {
    return new UnsupportedOperationException("a replica of Redis key '" + key
        + "' is read-only: write to Redis (CF.ADD, CF.DEL), then refresh()");
  }

  @Override
  public String toString() {
    return "RedisReplica[key=" + key + ", " + copy.size() + " items, refreshed at " + refreshedAt + "]";
  }
}
