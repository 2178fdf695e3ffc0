package dev.cuckoo.scalable;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.FilterSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Moves a {@link ScalableCuckooFilter} to and from RedisBloom in the chunks of {@code
 * CF.SCANDUMP} and {@code CF.LOADCHUNK}, byte for byte.
 *
 * <pre>{@code
 * List<Chunk> chunks = RedisBloomDump.dump(filter);      // each: CF.LOADCHUNK key iterator data
 * CuckooFilter copy = RedisBloomDump.load(chunks);       // from CF.SCANDUMP's replies
 * }</pre>
 *
 * <p>A large filter moves without a second copy of it in memory: {@link #dump(CuckooFilter,
 * Consumer)} hands over one chunk at a time, and a {@link Loader} takes them one at a time.
 *
 * <p>A dump is a header chunk (iterator 1, 38 bytes: see RedisBloom's {@code CF.SCANDUMP}) and
 * then the sub-filters' bytes, oldest first, in chunks that never cross a sub-filter boundary:
 * a sub-filter of at most 16 MiB in one chunk, a larger one in 16 MiB chunks and the rest. A
 * chunk's iterator is 1 + the offset just past its last byte in the concatenated sub-filters.
 * As in RedisBloom, an empty filter (no items) dumps nothing at all, so it cannot be loaded back.
 *
 * <p>Only filters hashed as RedisBloom hashes ({@code murmur64a}, seed 0, the default) can be
 * dumped, and a loaded filter uses that hash; other filters move with {@link
 * CuckooFilter#writeTo} and {@link dev.cuckoo.CuckooFilters#read}.
 *
 * <p><b>Bad input.</b> Every problem with the chunks given to {@link #load} is a {@link
 * CorruptFilterException} (an {@link java.io.IOException}, like every other rejection of stored
 * bytes in this library) whose message names the chunk and what is wrong; misuse of the dumping
 * side ({@link #scanDump} with a negative iterator or a filter it cannot dump) is an {@link
 * IllegalArgumentException}, and null arguments a {@link NullPointerException}.
 */
public final class RedisBloomDump {
  /** The largest data chunk, 16 MiB, as {@code CF.SCANDUMP} cuts them. */
  public static final int MAX_CHUNK_BYTES = 16 * 1024 * 1024;

  private static final String HASH = "murmur64a";

  private RedisBloomDump() {}

  /**
   * One reply of {@code CF.SCANDUMP}, and one {@code CF.LOADCHUNK}: an iterator and its bytes.
   * The array is held as given, not copied: do not change it after handing it over. Two chunks
   * are equal when their iterators and bytes are.
   *
   * @param iterator the iterator: 1 for the header, 1 + the end offset of the data for a data
   *     chunk, 0 with no data at the end of a dump
   * @param data the chunk's bytes
   */
  @SuppressWarnings("ArrayRecordComponent") // equals and hashCode compare the bytes
  public record Chunk(long iterator, byte[] data) {
    /**
     * A chunk of {@code data} at {@code iterator}.
     *
     * @param iterator the iterator, as in the record's description
     * @param data the chunk's bytes, held as given
     * @throws NullPointerException if {@code data} is null
     */
    public Chunk {
      Objects.requireNonNull(data, "data");
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Chunk other && other.iterator == iterator && Arrays.equals(other.data, data);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(iterator) * 31 + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
      return "Chunk[iterator=" + iterator + ", " + data.length + " bytes]";
    }
  }

  /**
   * Returns the chunk that {@code CF.SCANDUMP key iterator} returns: for iterator 0 the header
   * (iterator 1); for any other, the bytes from offset {@code iterator - 1} of the concatenated
   * sub-filters to the end of that sub-filter, at most {@link #MAX_CHUNK_BYTES}, with the
   * iterator to ask for next; past the end, or for a filter with no items, iterator 0 and no
   * data. The filter must not change between calls.
   *
   * @param filter a filter of variant {@code scalable} with hash {@code murmur64a}, seed 0
   * @param iterator 0 to start, then the iterator of the previous chunk
   * @return the chunk
   * @throws IllegalArgumentException if the iterator is negative, or the filter is of another
   *     variant or hash
   */
  public static Chunk scanDump(CuckooFilter filter, long iterator) {
    ScalableCuckooFilter dumped = dumpable(filter);
    if (iterator < 0) {
      throw new IllegalArgumentException("iterator " + iterator + " is negative: start with 0");
    }
    // With concurrency=locked, one chunk is read under the read lock; between calls it is the
    // caller's to keep writers away, as with CF.SCANDUMP.
    return dumped.read(() -> chunkAt(dumped.chain(), iterator));
  }

  private static Chunk chunkAt(SubFilterChain chain, long iterator) {
    if (chain.items() == 0) {
      return new Chunk(0, new byte[0]);
    }
    if (iterator == 0) {
      return new Chunk(1, DumpHeader.of(chain).encode());
    }
    long offset = iterator - 1;
    for (int i = 0; i < chain.subFilterCount(); i++) {
      SubFilter s = chain.subFilter(i);
      if (offset < s.bytes()) {
        int length = (int) Math.min(s.bytes() - offset, MAX_CHUNK_BYTES);
        byte[] data = new byte[length];
        s.copyOut(offset, data, 0, length);
        return new Chunk(iterator + length, data);
      }
      offset -= s.bytes();
    }
    return new Chunk(0, new byte[0]);
  }

  /**
   * Dumps a whole filter: every chunk {@link #scanDump} returns from iterator 0 on, without the
   * final empty one. An empty filter gives an empty list.
   *
   * @param filter a filter of variant {@code scalable} with hash {@code murmur64a}, seed 0
   * @return the chunks, header first
   * @throws IllegalArgumentException if the filter is of another variant or hash
   */
  public static List<Chunk> dump(CuckooFilter filter) {
    List<Chunk> chunks = new ArrayList<>();
    dump(filter, chunks::add);
    return chunks;
  }

  /**
   * Dumps a whole filter one chunk at a time: hands {@code sink} every chunk {@link #scanDump}
   * returns from iterator 0 on, header first, without the final empty one, each as soon as it
   * is cut, so a dump holds at most one chunk ({@link #MAX_CHUNK_BYTES}) beyond what the sink
   * keeps. An empty filter hands over nothing.
   *
   * <p>With {@code concurrency=locked} the whole dump runs under the filter's read lock: the
   * chunks are one state of the filter, and writers wait until the sink has taken the last one.
   * The sink may look keys up in the filter but must not call its other methods: the lock is
   * not reentrant, so a write, or a read with a writer waiting, would wait for itself. An
   * exception the sink throws ends the dump and reaches the caller.
   *
   * @param filter a filter of variant {@code scalable} with hash {@code murmur64a}, seed 0
   * @param sink takes each chunk, for example with {@code CF.LOADCHUNK key iterator data}
   * @throws IllegalArgumentException if the filter is of another variant or hash
   * @throws NullPointerException if an argument is null
   */
  public static void dump(CuckooFilter filter, Consumer<? super Chunk> sink) {
    ScalableCuckooFilter dumped = dumpable(filter);
    Objects.requireNonNull(sink, "sink");
    dumped.read(() -> {
      SubFilterChain chain = dumped.chain();
      for (Chunk c = chunkAt(chain, 0); c.iterator() != 0; c = chunkAt(chain, c.iterator())) {
        sink.accept(c);
      }
      return null;
    });
  }

  /**
   * Builds the filter that the chunks describe, as a series of {@code CF.LOADCHUNK} would,
   * whatever order the chunks come in. The result's spec is {@code scalable} with the header's
   * bucket size, max iterations and expansion, hash {@code murmur64a} seed 0, and as capacity
   * the first sub-filter's slots (at most 2^30).
   *
   * <p>The header is checked as RedisBloom checks it (exactly 38 bytes; bucketSize 1..255;
   * numFilters 1..32; maxIterations 1..65535; expansion 0..32768, and 0 only with one sub-filter;
   * numBuckets a power of two below 2^56), and each data chunk must lie inside one sub-filter.
   * Stricter than RedisBloom, which fills a filter chunk by chunk and so cannot tell when it is
   * done, a load must be whole and consistent: exactly one header; data chunks that cover every
   * byte of every sub-filter exactly once (a missing byte, an overlap or a duplicate chunk is an
   * error, not a silently wrong filter); numItems equal to the fingerprints the data holds; and
   * nothing a RedisBloom filter cannot be (an expansion that is not a power of two, a first
   * sub-filter no capacity of 2*bucketSize..2^30 gives). Memory: the sizes the header declares
   * must add up to the data bytes given before anything is allocated, so a forged header never
   * makes this allocate more than the chunks themselves hold.
   *
   * @param chunks the header chunk and the data chunks, in any order
   * @return the filter
   * @throws CorruptFilterException naming the chunk and the problem, if the chunks are not a
   *     whole, valid dump
   * @throws NullPointerException if the list or a chunk is null
   */
  public static ScalableCuckooFilter load(List<Chunk> chunks) throws CorruptFilterException {
    return load(chunks, SubFilterChain.DEFAULT_MAX_PAGE_BYTES);
  }

  /** {@link #load(List)} into tables paged at {@code maxPageBytes} (tests use small pages). */
  static ScalableCuckooFilter load(List<Chunk> chunks, int maxPageBytes) throws CorruptFilterException {
    Objects.requireNonNull(chunks, "chunks");
    Chunk headerChunk = null;
    List<Chunk> data = new ArrayList<>(chunks.size());
    for (Chunk c : chunks) {
      Objects.requireNonNull(c, "chunk");
      if (c.iterator() == 1) {
        if (headerChunk != null) {
          throw new CorruptFilterException("RedisBloom dump has two header chunks (iterator 1)");
        }
        headerChunk = c;
      } else {
        data.add(c);
      }
    }
    if (headerChunk == null) {
      throw noHeader(chunks.size());
    }
    Loader loader = new Loader(maxPageBytes);
    loader.accept(headerChunk);
    // Every chunk in place and the bytes adding up to the declared sizes before any table grows:
    // then a forged header costs nothing, and the loader only has to find gaps and overlaps.
    long given = 0;
    for (Chunk c : data) {
      loader.placement(c);
      given += c.data().length;
    }
    if (given != loader.total()) {
      throw loader.wrongTotal(given);
    }
    data.sort(Comparator.comparingLong(Chunk::iterator));
    for (Chunk c : data) {
      loader.accept(c);
    }
    return loader.finish();
  }

  /**
   * Returns a loader that builds a filter from a dump one chunk at a time.
   *
   * @return a new loader
   */
  public static Loader loader() {
    return new Loader(SubFilterChain.DEFAULT_MAX_PAGE_BYTES);
  }

  /**
   * Builds a filter from a dump one chunk at a time, as a series of {@code CF.LOADCHUNK} does,
   * for dumps too large to hold twice: {@link #accept} takes the header chunk first, then the
   * data chunks in the order {@code CF.SCANDUMP} returns them (each starting where the one
   * before ended), and {@link #finish} returns the filter once every byte has arrived.
   *
   * <p>It checks what {@link RedisBloomDump#load(List)} checks, as early as it can: the header
   * when it arrives; each data chunk's place (inside one sub-filter, right after the one before:
   * a gap, an overlap or a repeated chunk is an error); and in {@code finish} that the data was
   * whole and that numItems equals the fingerprints it holds. Memory: the tables grow only as
   * their bytes arrive, to at most about twice the bytes delivered until they are whole, so a
   * forged header that declares huge sub-filters costs about what the chunks hold.
   *
   * <p>After a {@link CorruptFilterException}, or once {@link #finish} has been called, the
   * loader is spent: start a new one. A loader is not thread-safe.
   */
  public static final class Loader {
    private final int maxPageBytes;
    private DumpHeader header;
    private long capacity;
    private long[] starts;
    private SubFilterChain chain;
    private long next;
    private int chunks;
    private boolean spent;

    Loader(int maxPageBytes) {
      this.maxPageBytes = maxPageBytes;
    }

    /**
     * Takes the next chunk: first the header (iterator 1), then the data chunks in {@code
     * CF.SCANDUMP} order.
     *
     * @param chunk the chunk, held only until its bytes are copied
     * @throws CorruptFilterException naming the chunk and the problem: a bad header or none
     *     first, a second header, a chunk out of place or out of order
     * @throws IllegalStateException if the loader is spent
     * @throws NullPointerException if the chunk is null
     */
    public void accept(Chunk chunk) throws CorruptFilterException {
      Objects.requireNonNull(chunk, "chunk");
      requireUnspent();
      try {
        take(chunk);
        chunks++;
      } catch (CorruptFilterException e) {
        spent = true;
        throw e;
      }
    }

    private void take(Chunk c) throws CorruptFilterException {
      if (chain == null) {
        if (c.iterator() != 1) {
          throw new CorruptFilterException("RedisBloom dump " + c + " comes before the header chunk"
              + " (iterator 1, 38 bytes), which must be first");
        }
        header = DumpHeader.decode(c.data());
        capacity = ScalableProvider.capacityFor(header.numBuckets(), header.bucketSize());
        if (capacity < 0) {
          throw new CorruptFilterException(
              "RedisBloom cuckoo filter header has numBuckets " + header.numBuckets() + " with bucketSize "
                  + header.bucketSize() + ", which no capacity of 2*bucketSize.." + ScalableProvider.MAX_CAPACITY
                  + " gives");
        }
        starts = subFilterStarts(header);
        chain = ChainDump.shapedAs(header, maxPageBytes, false);
        return;
      }
      if (c.iterator() == 1) {
        throw new CorruptFilterException("RedisBloom dump has two header chunks (iterator 1)");
      }
      int index = placement(c);
      long start = c.iterator() - c.data().length - 1;
      if (start != next) {
        throw new CorruptFilterException(
            "RedisBloom dump " + c + " starts at offset " + start + " where offset " + next + " was expected: "
                + (start < next ? "chunks overlap" : "bytes " + next + ".." + (start - 1) + " are missing"));
      }
      chain.subFilter(index).fill(start - starts[index], c.data(), 0, c.data().length);
      next = start + c.data().length;
    }

    /**
     * @return the sub-filter a data chunk lies in
     * @throws CorruptFilterException if it is not a data chunk inside one sub-filter
     */
    int placement(Chunk c) throws CorruptFilterException {
      long it = c.iterator();
      int length = c.data().length;
      if (it <= 0 || length == 0) {
        throw new CorruptFilterException(
            "RedisBloom dump " + c + " is not a data chunk: it needs an iterator above 1 and some bytes");
      }
      if (it <= length) {
        throw new CorruptFilterException(
            "RedisBloom dump " + c + " would start before offset 0 (it covers iterator - length - 1 .."
                + " iterator - 2)");
      }
      long start = it - length - 1;
      int index = subFilterAt(starts, start);
      if (index < 0 || start + length > starts[index + 1]) {
        throw new CorruptFilterException(
            "RedisBloom dump " + c + " covers offsets " + start + ".." + (start + length - 1)
                + ", not inside one sub-filter (" + header.numFilters() + " sub-filters, " + total() + " bytes)");
      }
      return index;
    }

    /** @return the data bytes the header declares */
    long total() {
      return starts[header.numFilters()];
    }

    CorruptFilterException wrongTotal(long given) {
      return new CorruptFilterException(
          "RedisBloom dump holds " + given + " data bytes but its header declares " + header.numFilters()
              + " sub-filters of " + total() + " bytes" + (given < total() ? ": chunks are missing" : ": chunks overlap"));
    }

    /**
     * Returns the filter the chunks describe, once they are whole: its spec is the one {@link
     * RedisBloomDump#load(List)} gives.
     *
     * @return the filter
     * @throws CorruptFilterException if no header came, bytes are missing, or numItems is not
     *     the fingerprints the data holds
     * @throws IllegalStateException if the loader is spent
     */
    public ScalableCuckooFilter finish() throws CorruptFilterException {
      requireUnspent();
      spent = true;
      if (chain == null) {
        throw noHeader(chunks);
      }
      if (next != total()) {
        throw wrongTotal(next);
      }
      for (int i = 0; i < chain.subFilterCount(); i++) {
        chain.subFilter(i).recount();
      }
      ChainDump.checkItems(chain);
      FilterSpec spec = new ScalableProvider().validate(
          FilterSpec.builder(ScalableProvider.NAME)
              .capacity(capacity)
              .bucketSize(header.bucketSize())
              .maxKicks(header.maxIterations())
              .option(ScalableProvider.EXPANSION, Integer.toString(header.expansion()))
              .build());
      return new ScalableCuckooFilter(spec, chain);
    }

    private void requireUnspent() {
      if (spent) {
        throw new IllegalStateException("this loader has finished or failed: use a new one");
      }
    }
  }

  private static CorruptFilterException noHeader(int chunks) {
    return new CorruptFilterException(
        "RedisBloom dump has no header chunk (iterator 1, 38 bytes): " + chunks + " chunks given");
  }

  /** @return the offset where each sub-filter starts, and the total bytes last */
  private static long[] subFilterStarts(DumpHeader header) throws CorruptFilterException {
    long[] starts = new long[header.numFilters() + 1];
    for (int i = 0; i < header.numFilters(); i++) {
      starts[i + 1] = starts[i] + header.subFilterBytes(i);
    }
    return starts;
  }

  /** @return the sub-filter holding an offset, or -1 if it is past the end */
  private static int subFilterAt(long[] starts, long offset) {
    for (int i = 0; i + 1 < starts.length; i++) {
      if (offset < starts[i + 1]) {
        return i;
      }
    }
    return -1;
  }

  private static ScalableCuckooFilter dumpable(CuckooFilter filter) {
    Objects.requireNonNull(filter, "filter");
    if (!(filter instanceof ScalableCuckooFilter scalable)) {
      throw new IllegalArgumentException(
          "only filters of variant " + ScalableProvider.NAME + " have a RedisBloom dump, not "
              + filter.spec().variant());
    }
    FilterSpec spec = filter.spec();
    String hash = spec.hash().orElse("");
    long seed = spec.seed().orElse(0L);
    if (!hash.equals(HASH) || seed != 0) {
      throw new IllegalArgumentException(
          "a RedisBloom dump holds fingerprints of hash " + HASH + " with seed 0, but this filter uses hash "
              + hash + " with seed " + seed + ": RedisBloom would not find its keys (use writeTo instead)");
    }
    return scalable;
  }
}
