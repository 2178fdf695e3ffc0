package dev.cuckoo.scalable;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.AbstractCuckooFilter;
import dev.cuckoo.spi.FilterLock;
import dev.cuckoo.spi.PayloadOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * RedisBloom's cuckoo filter, the one behind Redis 8's {@code CF.*} commands: a chain of up to
 * 32 sub-filters of one-byte fingerprints that grows when an insert finds no room. It answers
 * every operation exactly as RedisBloom does, and with the default hash ({@code murmur64a}, seed
 * 0) it holds the same bytes, so {@link RedisBloomDump} moves it to and from a Redis deployment.
 * Create one with {@code CuckooFilters.create("scalable?capacity=1000&bucketSize=2&expansion=1")}.
 *
 * <p>How the operations of {@link CuckooFilter} map to RedisBloom's commands:
 * <ul>
 *   <li>{@code add} is {@code CF.ADD}: {@code false} where RedisBloom answers "filter is full"
 *       (expansion 0, after the kick loop failed and was undone) or "Maximum expansions reached"
 *       (the chain already has 32 sub-filters: then every insert is refused, room or not), and
 *       where RedisBloom's allocation of a new sub-filter fails (here: one that would make the
 *       chain larger than the heap's maximum, or itself larger than 2^46 bytes, or whose
 *       allocation fails); many copies of one key grow a chain to that point quickly;
 *   <li>{@code addIfAbsent} is {@code CF.ADDNX}; {@code mightContain} is {@code CF.EXISTS};
 *   <li>{@code count} is {@code CF.COUNT}: the copies of the fingerprint in both candidate
 *       buckets of every sub-filter, a bucket counted twice when both candidates are the same one;
 *   <li>{@code remove} is {@code CF.DEL}, which compacts the chain when deletes since the last
 *       compaction exceed a tenth of the items; {@link #compact()} is {@code CF.COMPACT};
 *   <li>{@link #info()} is {@code CF.INFO}.
 * </ul>
 *
 * <p>Beyond the common contract: {@link #capacity()} is what the current chain was reserved
 * for, {@link #slots()} the slots of its sub-filters; {@link #clear()} goes back to one empty sub-filter, as a new {@code CF.RESERVE}; a
 * refused add loses nothing, the kick loop leaving the table byte for byte as before. As in
 * RedisBloom, removing a key that was never added removes another key's fingerprint, and many
 * copies of one key make the chain grow fast (a sub-filter holds at most {@code 2*bucketSize}
 * copies of a key).
 *
 * <p>Thread safety: with {@code concurrency=none} (the default) a filter is not thread-safe.
 * With {@code concurrency=locked} (kept in its file, so a filter read back is locked again)
 * every method, {@link RedisBloomDump#scanDump} included, is thread-safe under one lock, as in
 * every variant that takes that mode ({@link FilterLock}): writers ({@code add}, {@code
 * addIfAbsent}, {@code remove}, {@code clear}, {@link #compact()}, a merge) one at a time under
 * its write lock; lookups without it, looking up again under its read lock when a writer ran
 * meanwhile (a lookup reads a growing or compacting chain safely: see {@code
 * SubFilterChain.contains}); everything else (counts, {@code size}, {@link #info()}, {@code
 * writeTo}, which so writes a consistent snapshot) under its read lock, together. The lock is
 * not reentrant.
 */
public final class ScalableCuckooFilter extends AbstractCuckooFilter {
  private static final double FINGERPRINT_VALUES = 255.0;

  private final SubFilterChain chain;
  /** The lock of {@code concurrency=locked}; with {@code none}, a lock that does nothing. */
  private final FilterLock lock;

  ScalableCuckooFilter(FilterSpec resolved, SubFilterChain chain) {
    super(resolved);
    this.chain = Objects.requireNonNull(chain, "chain");
    this.lock = FilterLock.of(resolved);
  }

  /** Runs a read of the chain under the read lock. */
  <R> R read(FilterLock.Section<R, RuntimeException> action) {
    return lock.read(action);
  }

  SubFilterChain chain() {
    return chain;
  }

  /** {@inheritDoc} {@code CF.ADD}, under the write lock. */
  @Override
  protected boolean addHash(long keyHash) {
    return lock.write(chain, keyHash, SubFilterChain::insert);
  }

  /**
   * {@inheritDoc} Two chains of one shape (the same {@code capacity}, {@code bucketSize} and
   * {@code expansion}) merge so that the result is a chain RedisBloom itself accepts (its dump
   * loads with {@code CF.LOADCHUNK} and answers {@code CF.EXISTS} for the keys of both). A
   * fingerprint's bucket is known only up to the size of the sub-filter it is in, so it may go
   * only to sub-filters whose size divides that one:
   * <ul>
   *   <li>with {@code expansion=1} (the default) every sub-filter has one size: each fingerprint
   *       goes where {@code CF.ADD} of its key would put it, the chain growing as adds grow it, so
   *       two grown chains merge whole while the chain can grow (32 sub-filters, the heap);
   *   <li>with a larger expansion a fingerprint goes to a sub-filter no newer than its own, as
   *       RedisBloom's compaction moves them, which needs room in the older sub-filters: two small
   *       chains merge whole, two that have grown usually do not;
   *   <li>with {@code expansion=0} the chain is one table that never grows, and merges as a
   *       {@code classic} table does: where it runs out of room the merge stops, what it moved
   *       stays, and the return value says so.
   * </ul>
   * A chain that grows merges whole or not at all: the merge works on a copy of the sub-filters
   * it may write (so it needs their size again in free memory while it runs), and takes it only
   * when every fingerprint found a place.
   *
   * @throws IllegalArgumentException also if a chain that grows cannot place every fingerprint of
   *     the other; this filter is then unchanged, and the message says why and names {@code
   *     expandable}, the variant that merges filters of any sizes
   * @throws IllegalStateException if the heap has no room for the working copy; this filter is
   *     then unchanged
   */
  @Override
  protected long addAllFrom(AbstractCuckooFilter other) {
    ScalableCuckooFilter that = (ScalableCuckooFilter) other;
    String what = "cannot merge " + that.spec() + " into " + spec();
    if (!chain.sameShape(that.chain)) {
      throw new IllegalArgumentException(what
          + ": scalable filters merge only with the same capacity, bucketSize and expansion, so that their "
          + "sub-filters have one size index for index");
    }
    return lock.change(() -> that.read(() -> ChainMerge.merge(chain, that.chain, what)));
  }

  /** {@inheritDoc} {@code CF.ADDNX}, under the write lock. */
  @Override
  protected boolean addIfAbsentHash(long keyHash) {
    return lock.write(chain, keyHash, SubFilterChain::insertIfAbsent);
  }

  /**
   * Compacts the chain as {@code CF.COMPACT} does: from the newest sub-filter down to the
   * second, moves each fingerprint into a free slot of an older sub-filter where it may live,
   * drops the newest sub-filters that end up empty, and restarts the count of deletes at 0.
   * Nothing is lost and every answer stays the same; only {@link #info()}, the bytes and the
   * chain's memory change.
   */
  public void compact() {
    lock.change(() -> chain.compact(true));
  }

  /**
   * {@inheritDoc} {@code CF.DEL}, under the write lock; it compacts the chain as {@link
   * #compact} does, stopping at the first sub-filter it cannot empty, once deletes since the
   * last compaction exceed a tenth of the items.
   */
  @Override
  protected boolean removeHash(long keyHash) {
    return lock.write(chain, keyHash, SubFilterChain::delete);
  }

  /** @return the sub-filters in the chain, 1..32 ({@code CF.INFO}'s "Number of filters") */
  public int subFilterCount() {
    return read(chain::subFilterCount);
  }

  /**
   * @param index a sub-filter's position, 0 (the oldest) to {@code subFilterCount() - 1}
   * @return its number of buckets: the first sub-filter's times {@code expansion^index}
   * @throws IndexOutOfBoundsException if there is no such sub-filter
   */
  public long subFilterBuckets(int index) {
    return read(() -> {
      java.util.Objects.checkIndex(index, chain.subFilterCount());
      return chain.subFilter(index).numBuckets();
    });
  }

  /**
   * @return the deletes since the last compaction ({@code CF.INFO}'s "Number of items
   *     deleted"), which is what decides when a delete compacts the chain
   */
  public long deletesSinceCompaction() {
    return read(chain::deletes);
  }

  /**
   * @return the growth factor: the {@code expansion} option rounded up to a power of two, or 0
   *     for a filter that never grows ({@code CF.INFO}'s "Expansion rate")
   */
  public int expansion() {
    return chain.expansion();
  }

  /** {@inheritDoc} {@code CF.EXISTS}, without the lock unless a writer ran meanwhile. */
  @Override
  protected boolean mightContainHash(long keyHash) {
    return lock.lookup(chain, keyHash, SubFilterChain::contains);
  }

  /**
   * The {@code CF.INFO} reply, field for field.
   *
   * @return an unmodifiable map, in {@code CF.INFO}'s order: "Size" (RedisBloom's accounting:
   *     40 + 16 per sub-filter + the tables' bytes), "Number of buckets" (of the first
   *     sub-filter), "Number of filters", "Number of items inserted" (stored now), "Number of
   *     items deleted" (since the last compaction), "Bucket size", "Expansion rate", "Max
   *     iterations"
   */
  public Map<String, Long> info() {
    return read(() -> {
      Map<String, Long> info = new LinkedHashMap<>();
      info.put("Size", 40L + 16L * chain.subFilterCount() + chain.dataBytes());
      info.put("Number of buckets", chain.initialBuckets());
      info.put("Number of filters", (long) chain.subFilterCount());
      info.put("Number of items inserted", chain.items());
      info.put("Number of items deleted", chain.deletes());
      info.put("Bucket size", (long) chain.bucketSize());
      info.put("Expansion rate", (long) chain.expansion());
      info.put("Max iterations", (long) chain.maxIterations());
      return Collections.unmodifiableMap(info);
    });
  }

  /** {@inheritDoc} {@code CF.COUNT}, under the read lock. */
  @Override
  protected long countHash(long keyHash) {
    return lock.count(chain, keyHash, SubFilterChain::count);
  }

  @Override
  public long size() {
    return read(chain::items);
  }

  /**
   * The items the current chain was reserved for: the spec's capacity for the first sub-filter
   * and {@code expansion^i} times it for the {@code i}-th, summed (at most {@code
   * Long.MAX_VALUE}). RedisBloom adds a sub-filter when an insert finds no room in the chain,
   * so this grows with the chain.
   *
   * @return the items the chain is sized for now
   */
  @Override
  public long capacity() {
    int subFilters = subFilterCount();
    long part = spec().capacity().getAsLong();
    long total = 0;
    for (int i = 0; i < subFilters; i++) {
      total = total > Long.MAX_VALUE - part ? Long.MAX_VALUE : total + part;
      part = part > Long.MAX_VALUE / Math.max(1, expansion()) ? Long.MAX_VALUE : part * expansion();
    }
    return total;
  }

  /** @return the slots of every sub-filter of the chain: one byte each */
  @Override
  public long slots() {
    return read(chain::dataBytes);
  }

  @Override
  public long sizeInBytes() {
    return read(chain::dataBytes);
  }

  /**
   * {@inheritDoc}
   *
   * <p>A key never added matches a stored fingerprint with probability 1/255; it is looked for in
   * {@code 2*bucketSize} slots of every sub-filter, so with sub-filter {@code i} at load {@code
   * a_i} this is {@code 1 - prod_i (1 - a_i/255)^(2*bucketSize)}, below {@code subFilterCount()
   * * 2 * bucketSize / 255}.
   */
  @Override
  public double expectedFpp() {
    return read(() -> {
      double none = 1.0;
      int probes = 2 * chain.bucketSize();
      for (int i = 0; i < chain.subFilterCount(); i++) {
        SubFilter s = chain.subFilter(i);
        double load = (double) s.occupied() / s.bytes();
        none *= Math.pow(1.0 - load / FINGERPRINT_VALUES, probes);
      }
      return 1.0 - none;
    });
  }

  @Override
  public void clear() {
    lock.change(chain::clear);
  }

  /** {@inheritDoc} With {@code concurrency=locked}, under the read lock: a consistent snapshot. */
  @Override
  public void writeTo(OutputStream out) throws IOException {
    lock.read(() -> {
      super.writeTo(out);
      return null;
    });
  }

  @Override
  protected long payloadLength() {
    return DumpHeader.BYTES + chain.dataBytes();
  }

  /** The payload: RedisBloom's 38-byte header, then every sub-filter's bytes, oldest first. */
  @Override
  protected void writePayload(PayloadOutput out) throws IOException {
    out.write(DumpHeader.of(chain).encode());
    ChainDump.write(chain, out);
  }
}
