package dev.cuckoo;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * An approximate-membership set with deletes: a cuckoo filter.
 *
 * <p>The contract every variant keeps:
 * <ul>
 *   <li><b>No false negatives.</b> {@code mightContain(k)} is {@code true} for every key added and
 *       not removed since, whatever happened in between: refused adds, removals of other present
 *       keys, duplicates, {@link #clear()} of an earlier generation, a {@link #writeTo write} and
 *       {@link CuckooFilters#read read} round trip.
 *   <li><b>False positives</b> happen with a probability near {@link #expectedFpp()}.
 *   <li><b>A refused add loses nothing</b>: {@code add} returns {@code false} when the filter has
 *       no room, and every key stored before it is still found.
 *   <li><b>Only remove what was added.</b> Removing a key that was never added (or was removed
 *       already) may remove another key's fingerprint and cause false negatives, as in every
 *       cuckoo filter.
 * </ul>
 *
 * <p>Keys come in three forms that follow one encoding rule, so a key means the same thing
 * whatever form or hash is used: a {@link CharSequence} is its UTF-8 bytes (as {@code
 * String.getBytes(UTF_8)} gives them) and a {@code long} is its 8 little-endian bytes. {@code
 * add("x")} and {@code add("x".getBytes(UTF_8))} add the same key. Null keys are rejected with
 * {@link NullPointerException}.
 *
 * <p><b>Threads.</b> A filter created with the default {@code concurrency=none} is not
 * thread-safe, and misuse is not detected: two threads that write to it at once (or one that
 * writes while another looks up) can lose keys without an exception. Adds that returned {@code
 * true} are then not found, {@link #size()} ends up wrong, and the table can be left in a state
 * no single thread could have produced. Lookups alone may run in parallel on a filter that no
 * thread changes. To share a filter between writers, create it with {@code
 * concurrency=threadsafe} (every variant accepts it and picks its own thread-safe mode, see
 * {@link Concurrency}), guard it with your own lock, or give each thread its own filter.
 */
public interface CuckooFilter {

  /**
   * Inserts one copy of the key.
   *
   * @param key the key's bytes
   * @return {@code true} if a copy was stored; {@code false} if the filter had no room for it, in
   *     which case nothing already stored is lost
   */
  boolean add(byte[] key);

  /**
   * Inserts one copy of the key, encoded as UTF-8; see {@link #add(byte[])}.
   *
   * @param key the key
   * @return {@code true} if a copy was stored, {@code false} if the filter had no room
   */
  boolean add(CharSequence key);

  /**
   * Inserts one copy of the key, encoded as 8 little-endian bytes; see {@link #add(byte[])}.
   *
   * @param key the key
   * @return {@code true} if a copy was stored, {@code false} if the filter had no room
   */
  boolean add(long key);

  /**
   * Inserts the key unless {@link #mightContain(byte[])} is already {@code true} for it. Because
   * of false positives, a key never added before can be reported present and not inserted.
   *
   * @param key the key's bytes
   * @return {@code true} if a copy was stored; {@code false} if the key seemed present or the
   *     filter had no room
   */
  boolean addIfAbsent(byte[] key);

  /**
   * See {@link #addIfAbsent(byte[])}; the key is encoded as UTF-8.
   *
   * @param key the key
   * @return {@code true} if a copy was stored
   */
  boolean addIfAbsent(CharSequence key);

  /**
   * See {@link #addIfAbsent(byte[])}; the key is encoded as 8 little-endian bytes.
   *
   * @param key the key
   * @return {@code true} if a copy was stored
   */
  boolean addIfAbsent(long key);

  /**
   * Tells whether the key may be in the filter.
   *
   * @param key the key's bytes
   * @return {@code true} if the key was added and not removed (always), or by a false positive;
   *     {@code false} if it is certainly absent
   */
  boolean mightContain(byte[] key);

  /**
   * See {@link #mightContain(byte[])}; the key is encoded as UTF-8.
   *
   * @param key the key
   * @return {@code false} only if the key is certainly absent
   */
  boolean mightContain(CharSequence key);

  /**
   * See {@link #mightContain(byte[])}; the key is encoded as 8 little-endian bytes.
   *
   * @param key the key
   * @return {@code false} only if the key is certainly absent
   */
  boolean mightContain(long key);

  /**
   * Removes one copy of a key that was added. Removing a key that is not in the filter may
   * remove another key's fingerprint (and so cause a false negative for that key).
   *
   * @param key the key's bytes
   * @return {@code true} if a matching fingerprint was removed
   */
  boolean remove(byte[] key);

  /**
   * See {@link #remove(byte[])}; the key is encoded as UTF-8.
   *
   * @param key the key
   * @return {@code true} if a matching fingerprint was removed
   */
  boolean remove(CharSequence key);

  /**
   * See {@link #remove(byte[])}; the key is encoded as 8 little-endian bytes.
   *
   * @param key the key
   * @return {@code true} if a matching fingerprint was removed
   */
  boolean remove(long key);

  /**
   * Counts the copies of the key's fingerprint in its candidate buckets: an upper bound on how
   * many times the key was added and not removed (other keys can share the fingerprint).
   *
   * @param key the key's bytes
   * @return at least the key's multiplicity
   */
  long count(byte[] key);

  /**
   * See {@link #count(byte[])}; the key is encoded as UTF-8.
   *
   * @param key the key
   * @return at least the key's multiplicity
   */
  long count(CharSequence key);

  /**
   * See {@link #count(byte[])}; the key is encoded as 8 little-endian bytes.
   *
   * @param key the key
   * @return at least the key's multiplicity
   */
  long count(long key);

  /**
   * @return the number of items (copies) stored now
   */
  long size();

  /**
   * The number of items the filter is sized for, in the config's sense of {@code capacity}: a
   * filter takes that many distinct keys (for variants that promise it; see the variant). The
   * default is the spec's capacity; a variant that grows reports what it is sized for now,
   * before it grows again.
   *
   * @return the items the filter is sized for
   */
  default long capacity() {
    return spec().capacity().orElseThrow();
  }

  /**
   * @return the fingerprint slots the filter has now: its table's and any beside it (a stash),
   *     or for a variant that grows, those of every part it has grown
   */
  long slots();

  /**
   * @return {@code size() / slots()}, between 0 and 1
   */
  default double loadFactor() {
    long slots = slots();
    return slots == 0 ? 0.0 : (double) size() / slots;
  }

  /**
   * @return the bytes of memory held by the filter's table(s)
   */
  long sizeInBytes();

  /**
   * @return the false-positive probability that the current load predicts for a key never added
   */
  double expectedFpp();

  /**
   * @return the resolved configuration: every default filled in, so that {@code
   *     CuckooFilters.create(spec())} builds an empty filter of the same shape
   */
  FilterSpec spec();

  /** Removes every item; the filter keeps its shape and its memory. */
  void clear();

  // ---------------------------------------------------------------- a key in part of an array

  /**
   * Inserts one copy of the key held in {@code key[offset, offset + length)}: the same key as
   * {@code add(Arrays.copyOfRange(key, offset, offset + length))}, without the copy. What a
   * {@link TypedFilter} calls after its {@link KeyEncoder} wrote the key's bytes.
   *
   * @param key an array holding the key's bytes
   * @param offset where they start
   * @param length how many there are
   * @return as {@link #add(byte[])}
   * @throws IndexOutOfBoundsException if the range is not inside the array
   */
  default boolean add(byte[] key, int offset, int length) {
    return add(range(key, offset, length));
  }

  /**
   * @param key an array holding the key's bytes in {@code [offset, offset + length)}
   * @param offset where they start
   * @param length how many there are
   * @return as {@link #addIfAbsent(byte[])}
   */
  default boolean addIfAbsent(byte[] key, int offset, int length) {
    return addIfAbsent(range(key, offset, length));
  }

  /**
   * @param key an array holding the key's bytes in {@code [offset, offset + length)}
   * @param offset where they start
   * @param length how many there are
   * @return as {@link #mightContain(byte[])}
   */
  default boolean mightContain(byte[] key, int offset, int length) {
    return mightContain(range(key, offset, length));
  }

  /**
   * @param key an array holding the key's bytes in {@code [offset, offset + length)}
   * @param offset where they start
   * @param length how many there are
   * @return as {@link #remove(byte[])}
   */
  default boolean remove(byte[] key, int offset, int length) {
    return remove(range(key, offset, length));
  }

  /**
   * @param key an array holding the key's bytes in {@code [offset, offset + length)}
   * @param offset where they start
   * @param length how many there are
   * @return as {@link #count(byte[])}
   */
  default long count(byte[] key, int offset, int length) {
    return count(range(key, offset, length));
  }

  private static byte[] range(byte[] key, int offset, int length) {
    Objects.requireNonNull(key, "key must not be null");
    Objects.checkFromIndexSize(offset, length, key.length);
    return Arrays.copyOfRange(key, offset, offset + length);
  }

  // ---------------------------------------------------------------- many keys at once

  /**
   * Looks up many keys: {@code results[i] = mightContain(keys[i])} for every key. On a filter
   * larger than the caches a variant may do it faster than a loop of {@link
   * #mightContain(long)}, by hashing a block of keys first and then reading all of their
   * buckets, so that more of the cache misses overlap.
   *
   * @param keys the keys
   * @param results where to write the answers, at least as long as {@code keys}
   * @return how many of the keys might be present
   * @throws IllegalArgumentException if {@code results} is shorter than {@code keys}
   */
  default int mightContainAll(long[] keys, boolean[] results) {
    dev.cuckoo.internal.BatchArguments.require(keys, results);
    int found = 0;
    for (int i = 0; i < keys.length; i++) {
      boolean r = mightContain(keys[i]);
      results[i] = r;
      found += r ? 1 : 0;
    }
    return found;
  }

  /**
   * Looks up many byte keys: {@code results[i] = mightContain(keys[i])} for every key, faster
   * than a loop where the filter is larger than the caches, as {@link #mightContainAll(long[],
   * boolean[])} is. Each key is the first {@code lengths[i]} bytes of {@code keys[i]}, so that a
   * caller can reuse its arrays from one batch to the next.
   *
   * @param keys the keys' arrays, none null
   * @param lengths how many bytes of each are the key, at least as long as {@code keys}
   * @param count how many keys, from the first
   * @param results where to write the answers, at least {@code count} long
   * @return how many of the keys might be present
   * @throws IllegalArgumentException if an array is shorter than {@code count}
   * @throws IndexOutOfBoundsException if a length is negative or past its key's array
   */
  default int mightContainAll(byte[][] keys, int[] lengths, int count, boolean[] results) {
    dev.cuckoo.internal.BatchArguments.require(keys, lengths, count, results);
    int found = 0;
    for (int i = 0; i < count; i++) {
      boolean r = mightContain(keys[i], 0, lengths[i]);
      results[i] = r;
      found += r ? 1 : 0;
    }
    return found;
  }

  /**
   * Adds the keys in order, stopping at the first one the filter refuses: the keys before it
   * are stored, it and the keys after it are not, and nothing stored before is lost.
   *
   * @param keys the keys
   * @return how many were added: all of them, or the index of the refused key
   */
  default long addAll(long[] keys) {
    Objects.requireNonNull(keys, "keys must not be null");
    for (int i = 0; i < keys.length; i++) {
      if (!add(keys[i])) {
        return i;
      }
    }
    return keys.length;
  }

  /**
   * Adds the keys in their iteration order, stopping at the first one the filter refuses, as
   * {@link #addAll(long[])} does.
   *
   * @param keys the keys, none null
   * @return how many were added: all of them, or the position of the refused key
   */
  default long addAll(Iterable<? extends CharSequence> keys) {
    Objects.requireNonNull(keys, "keys must not be null");
    return InOrder.addUntilRefused(keys.iterator(), this::add);
  }

  /**
   * Adds the stream's keys in its encounter order, stopping at the first one the filter refuses
   * (the rest of the stream is not consumed), as {@link #addAll(long[])} does. To build a filter
   * from a parallel stream, collect it with {@link CuckooFilters#toFilter(String)}.
   *
   * @param keys the keys, none null
   * @return how many were added: all of them, or the position of the refused key
   */
  default long addAll(Stream<? extends CharSequence> keys) {
    Objects.requireNonNull(keys, "keys must not be null");
    return InOrder.addUntilRefused(keys.sequential().iterator(), this::add);
  }

  /**
   * Merges another filter into this one: moves copies of all its fingerprints in, duplicates
   * and counts included, so that this filter then answers for the keys of both (a key added to
   * both counts twice). The other filter is not changed.
   *
   * <p>Both must be of the same variant and shape: the same spec but for {@code capacity}
   * where the variant allows (a table's fingerprints are only meaningful at their buckets) and
   * {@code concurrency}, and the same hash. If this filter runs out of room, the merge stops:
   * what it moved stays, the fingerprint that did not fit and the rest are not moved, and
   * nothing either filter held is lost; the return value, less than {@code other.size()}, says
   * so. A variant that grows ({@code expandable}, {@code scalable} with {@code expansion=1})
   * grows instead. A variant whose layout cannot place every fingerprint (a {@code scalable}
   * chain with {@code expansion} of 2 or more, whose older sub-filters are full) refuses the
   * merge before changing anything, rather than moving part of it.
   *
   * @param other the filter to merge in, not this one
   * @return how many fingerprints were moved in: {@code other.size()} if all of them
   * @throws IllegalArgumentException naming the difference, if the other filter is of another
   *     variant, shape or hash, or is this filter; or saying why, if the variant cannot merge
   *     the two whole (this filter is then unchanged)
   * @throws UnsupportedOperationException if this variant cannot merge
   */
  default long addAll(CuckooFilter other) {
    throw new UnsupportedOperationException("variant " + spec().variant() + " cannot merge filters");
  }

  /**
   * Writes the filter in the common file format (magic, format version, variant, spec, payload,
   * CRC32C), readable with {@link CuckooFilters#read(java.io.InputStream)}. The stream is
   * flushed, not closed.
   *
   * @param out where to write
   * @throws IOException if writing fails
   */
  void writeTo(OutputStream out) throws IOException;
}
