package dev.cuckoo.spi;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.internal.FilterFile;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

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
   * @param spec the resolved spec; its {@link FilterSpec#hashStrategy()} hashes every key
   */
  protected AbstractCuckooFilter(FilterSpec spec) {
    this.spec = Objects.requireNonNull(spec, "spec must not be null");
    this.hash = spec.hashStrategy();
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
  public final FilterSpec spec() {
    return spec;
  }

  @Override
  public void writeTo(OutputStream out) throws IOException {
    FilterFile.write(out, spec, hash, payloadLength(), this::writePayload);
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
        + ", load=" + String.format("%.4f", loadFactor()) + "]";
  }
}
