package dev.cuckoo.spi;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.KeyKind;
import dev.cuckoo.internal.BatchArguments;
import dev.cuckoo.internal.FilterFile;
import dev.cuckoo.internal.ProviderRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A base for variants: turns every key form into one 64-bit hash with the spec's {@link
 * HashStrategy} (so the key-encoding rule holds by construction) and writes the common file
 * envelope, leaving a variant to implement the operations on hashes and its payload.
 *
 * <p>The key methods are final: a variant's behaviour cannot depend on the form a key came in.
 */
public abstract class AbstractCuckooFilter implements CuckooFilter {
  private final FilterSpec spec;
  private final HashStrategy hash;

  /**
   * @param spec the resolved spec; the hash it names ({@link dev.cuckoo.CuckooFilters#hashOf}) hashes every key
   */
  protected AbstractCuckooFilter(FilterSpec spec) {
    this.spec = Objects.requireNonNull(spec, "spec must not be null");
    this.hash = ProviderRegistry.hashOf(spec);
  }

  /**
   * Inserts one copy of the key with this hash.
   *
   * @param keyHash the key's 64-bit hash
   * @return {@code true} if stored, {@code false} if refused (losing nothing)
   */
  protected abstract boolean addHash(long keyHash);

  /**
   * Inserts unless {@link #mightContainHash} is true. Override to do it in one pass.
   *
   * @param keyHash the key's 64-bit hash
   * @return {@code true} if stored
   */
  protected boolean addIfAbsentHash(long keyHash) {
    return !mightContainHash(keyHash) && addHash(keyHash);
  }

  /**
   * @param keyHash the key's 64-bit hash
   * @return whether a matching fingerprint is in one of its candidate buckets
   */
  protected abstract boolean mightContainHash(long keyHash);

  /**
   * @param keyHash the key's 64-bit hash
   * @return whether a matching fingerprint was removed
   */
  protected abstract boolean removeHash(long keyHash);

  /**
   * @param keyHash the key's 64-bit hash
   * @return the copies of its fingerprint in its candidate buckets
   */
  protected abstract long countHash(long keyHash);

  /** @return the exact number of bytes {@link #writePayload} writes */
  protected abstract long payloadLength();

  /**
   * Writes the variant's payload, which its provider's {@link FilterProvider#read} reads back.
   *
   * @param out where to write exactly {@link #payloadLength()} bytes
   * @throws IOException if writing fails
   */
  protected abstract void writePayload(PayloadOutput out) throws IOException;

  /** @return the hash strategy keys are hashed with */
  protected final HashStrategy hashStrategy() {
    return hash;
  }

  @Override
  public final boolean add(byte[] key) {
    return addHash(hash.hashBytes(bytes(key), 0, key.length));
  }

  @Override
  public final boolean add(CharSequence key) {
    return addHash(hash.hashChars(chars(key)));
  }

  @Override
  public final boolean add(long key) {
    return addHash(hash.hashLong(key));
  }

  @Override
  public final boolean addIfAbsent(byte[] key) {
    return addIfAbsentHash(hash.hashBytes(bytes(key), 0, key.length));
  }

  @Override
  public final boolean addIfAbsent(CharSequence key) {
    return addIfAbsentHash(hash.hashChars(chars(key)));
  }

  @Override
  public final boolean addIfAbsent(long key) {
    return addIfAbsentHash(hash.hashLong(key));
  }

  @Override
  public final boolean mightContain(byte[] key) {
    return mightContainHash(hash.hashBytes(bytes(key), 0, key.length));
  }

  @Override
  public final boolean mightContain(CharSequence key) {
    return mightContainHash(hash.hashChars(chars(key)));
  }

  @Override
  public final boolean mightContain(long key) {
    return mightContainHash(hash.hashLong(key));
  }

  @Override
  public final boolean remove(byte[] key) {
    return removeHash(hash.hashBytes(bytes(key), 0, key.length));
  }

  @Override
  public final boolean remove(CharSequence key) {
    return removeHash(hash.hashChars(chars(key)));
  }

  @Override
  public final boolean remove(long key) {
    return removeHash(hash.hashLong(key));
  }

  @Override
  public final long count(byte[] key) {
    return countHash(hash.hashBytes(bytes(key), 0, key.length));
  }

  @Override
  public final long count(CharSequence key) {
    return countHash(hash.hashChars(chars(key)));
  }

  @Override
  public final long count(long key) {
    return countHash(hash.hashLong(key));
  }

  @Override
  public final boolean add(byte[] key, int offset, int length) {
    return addHash(hashRange(key, offset, length));
  }

  @Override
  public final boolean addIfAbsent(byte[] key, int offset, int length) {
    return addIfAbsentHash(hashRange(key, offset, length));
  }

  @Override
  public final boolean mightContain(byte[] key, int offset, int length) {
    return mightContainHash(hashRange(key, offset, length));
  }

  @Override
  public final boolean remove(byte[] key, int offset, int length) {
    return removeHash(hashRange(key, offset, length));
  }

  @Override
  public final long count(byte[] key, int offset, int length) {
    return countHash(hashRange(key, offset, length));
  }

  /** Keys hashed per block of {@link #mightContainAll}: a few cache lines of hashes. */
  private static final int BLOCK = 64;

  /**
   * {@inheritDoc} Hashes the keys a block at a time and hands each block to {@link
   * #mightContainHashes}.
   */
  @Override
  public final int mightContainAll(long[] keys, boolean[] results) {
    BatchArguments.require(keys, results);
    long[] hashes = new long[Math.min(BLOCK, keys.length)];
    long[] scratch = new long[2 * hashes.length];
    int found = 0;
    for (int at = 0; at < keys.length; at += BLOCK) {
      int n = Math.min(BLOCK, keys.length - at);
      for (int i = 0; i < n; i++) {
        hashes[i] = hash.hashLong(keys[at + i]);
      }
      found += mightContainHashes(hashes, n, scratch, results, at);
    }
    return found;
  }

  /**
   * {@inheritDoc} Hashes the keys a block at a time and hands each block to {@link
   * #mightContainHashes}.
   */
  @Override
  public final int mightContainAll(byte[][] keys, int[] lengths, int count, boolean[] results) {
    BatchArguments.require(keys, lengths, count, results);
    long[] hashes = new long[Math.min(BLOCK, count)];
    long[] scratch = new long[2 * hashes.length];
    int found = 0;
    for (int at = 0; at < count; at += BLOCK) {
      int n = Math.min(BLOCK, count - at);
      for (int i = 0; i < n; i++) {
        hashes[i] = hashRange(keys[at + i], 0, lengths[at + i]);
      }
      found += mightContainHashes(hashes, n, scratch, results, at);
    }
    return found;
  }

  /**
   * Looks up a block of key hashes. The default asks {@link #mightContainHash} for each; a
   * variant whose lookups miss the caches can read all the block's buckets first.
   *
   * @param hashes the keys' hashes, in {@code [0, n)}
   * @param n how many
   * @param scratch {@code 2n} longs the variant may use
   * @param results where answer {@code i} goes, at {@code at + i}
   * @param at where the block's answers start
   * @return how many are true
   */
  protected int mightContainHashes(long[] hashes, int n, long[] scratch, boolean[] results, int at) {
    int found = 0;
    for (int i = 0; i < n; i++) {
      boolean r = mightContainHash(hashes[i]);
      results[at + i] = r;
      found += r ? 1 : 0;
    }
    return found;
  }

  /**
   * {@inheritDoc} Hashes the keys a block at a time and hands each block to {@link #addHashes}.
   */
  @Override
  public final long addAll(long[] keys) {
    Objects.requireNonNull(keys, "keys must not be null");
    long[] hashes = new long[Math.min(BLOCK, keys.length)];
    long[] scratch = new long[2 * hashes.length];
    for (int at = 0; at < keys.length; at += BLOCK) {
      int n = Math.min(BLOCK, keys.length - at);
      for (int i = 0; i < n; i++) {
        hashes[i] = hash.hashLong(keys[at + i]);
      }
      int added = addHashes(hashes, n, scratch);
      if (added < n) {
        return (long) at + added;
      }
    }
    return keys.length;
  }

  /**
   * Adds a block of key hashes in order, stopping at the first the filter refuses, as {@link
   * #addAll(long[])} promises. The default asks {@link #addHash} for each; a variant whose adds
   * miss the caches can read the block's buckets first.
   *
   * @param hashes the keys' hashes, in {@code [0, n)}
   * @param n how many
   * @param scratch {@code 2n} longs the variant may use
   * @return how many were added: {@code n}, or the index of the refused one
   */
  protected int addHashes(long[] hashes, int n, long[] scratch) {
    for (int i = 0; i < n; i++) {
      if (!addHash(hashes[i])) {
        return i;
      }
    }
    return n;
  }

  private long hashRange(byte[] key, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes(key).length);
    return hash.hashBytes(key, offset, length);
  }

  /**
   * {@inheritDoc} Checks what every variant needs (another filter, of this variant, with the
   * same hash) and hands the rest to {@link #addAllFrom}.
   */
  @Override
  public final long addAll(CuckooFilter other) {
    Objects.requireNonNull(other, "other must not be null");
    if (other == this) {
      throw new IllegalArgumentException("a filter cannot be merged into itself");
    }
    if (!(other instanceof AbstractCuckooFilter that) || !other.spec().variant().equals(spec.variant())) {
      throw new IllegalArgumentException("cannot merge a " + other.spec().variant() + " filter into a "
          + spec.variant() + " filter: merging needs two filters of one variant");
    }
    Optional<KeyKind> mine = spec.keyKind();
    Optional<KeyKind> theirs = other.spec().keyKind();
    if (mine.isPresent() && theirs.isPresent() && mine.get() != theirs.get()) {
      throw new IllegalArgumentException("cannot merge " + other.spec() + " into " + spec + ": its keys are "
          + theirs.get() + "s and this filter's are " + mine.get() + "s, which are different keys for equal values");
    }
    if (!sameHash(hash, that.hash)) {
      throw new IllegalArgumentException("cannot merge " + other.spec() + " into " + spec
          + ": their hashes differ, so a key's fingerprint and buckets differ too");
    }
    return addAllFrom(that);
  }

  /** @return whether two strategies hash alike: the same values for a few probe keys */
  private static boolean sameHash(HashStrategy a, HashStrategy b) {
    if (a == b) {
      return true;
    }
    for (long probe : new long[] {0L, 1L, 0x9E3779B97F4A7C15L, -1L}) {
      if (a.hashLong(probe) != b.hashLong(probe)) {
        return false;
      }
    }
    return a.hashChars("cuckoo") == b.hashChars("cuckoo");
  }

  /**
   * Merges a filter of this variant with the same hash into this one, as {@link
   * #addAll(CuckooFilter)} describes: checks the shapes match, then moves the other's
   * fingerprints in. The default refuses.
   *
   * @param other a filter of this variant and hash, not this one
   * @return the fingerprints moved in
   * @throws IllegalArgumentException naming the difference, if the shapes do not match
   * @throws UnsupportedOperationException if the variant cannot merge
   */
  protected long addAllFrom(AbstractCuckooFilter other) {
    throw new UnsupportedOperationException("variant " + spec.variant() + " cannot merge filters");
  }

  @Override
  public final FilterSpec spec() {
    return spec;
  }

  @Override
  public void writeTo(OutputStream out) throws IOException {
    FilterFile.write(out, spec, hash, payloadLength(), this::writePayload, alignsPayload());
  }

  /**
   * Whether {@link #writeTo} writes the payload at an offset that is a multiple of 4096 (format
   * version 3), so that a variant that maps its files ({@link FilterProvider#mapsFiles}) can map
   * what it wrote; {@code false} by default (version 2, a few KB shorter).
   *
   * @return whether to align the payload
   */
  protected boolean alignsPayload() {
    return false;
  }

  /*
   * A null key would otherwise fail deep in a hash with a message that names no argument. The
   * checks are free on the hot path: the JIT folds them into the null check the array or
   * sequence access makes anyway.
   */
  private static byte[] bytes(byte[] key) {
    return Objects.requireNonNull(key, "key must not be null");
  }

  private static CharSequence chars(CharSequence key) {
    return Objects.requireNonNull(key, "key must not be null");
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + spec + ", size=" + size() + ", slots=" + slots()
        + ", load=" + String.format(Locale.ROOT, "%.4f", loadFactor()) + "]";
  }
}
