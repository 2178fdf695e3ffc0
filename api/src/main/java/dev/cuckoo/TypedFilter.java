package dev.cuckoo;

import java.util.Objects;
import java.util.stream.Stream;

/**
 * A {@link CuckooFilter} seen through a {@link KeyEncoder}: keys are values of type {@code T},
 * turned into key bytes by the encoder, for any variant. The view holds no state of its own:
 * {@link #filter()} is the filter underneath, and a value and the bytes its encoder writes are
 * one key in it.
 *
 * <pre>{@code
 * TypedFilter<UUID> sessions = TypedFilter.of(CuckooFilters.create("classic?capacity=1000000"), KeyEncoder.uuids());
 * sessions.add(id);
 * sessions.mightContain(id);   // true
 * }</pre>
 *
 * <p>Encoding allocates nothing once a thread has encoded a key as long (each thread encodes
 * into its own buffer), and the ready encoders {@link KeyEncoder#strings()}, {@link
 * KeyEncoder#longs()} and {@link KeyEncoder#bytes()} hand their values to the filter's own key
 * forms without encoding. It is as thread-safe as the filter underneath.
 *
 * @param <T> the values' type
 */
public final class TypedFilter<T> {
  private static final ThreadLocal<KeyBuffer> BUFFERS = ThreadLocal.withInitial(KeyBuffer::new);

  private final CuckooFilter filter;
  private final KeyEncoder<? super T> encoder;
  private final ReadyEncoder ready;

  private TypedFilter(CuckooFilter filter, KeyEncoder<? super T> encoder) {
    this.filter = Objects.requireNonNull(filter, "filter must not be null");
    this.encoder = Objects.requireNonNull(encoder, "encoder must not be null");
    this.ready = encoder instanceof ReadyEncoder r ? r : null;
  }

  /**
   * @param <T> the values' type
   * @param filter the filter to view
   * @param encoder how a value becomes its key bytes
   * @return the view
   */
  public static <T> TypedFilter<T> of(CuckooFilter filter, KeyEncoder<? super T> encoder) {
    return new TypedFilter<>(filter, encoder);
  }

  /** @return the filter underneath, which holds every key this view added */
  public CuckooFilter filter() {
    return filter;
  }

  /** @return the encoder */
  public KeyEncoder<? super T> encoder() {
    return encoder;
  }

  private KeyBuffer encode(T value) {
    Objects.requireNonNull(value, "value must not be null");
    KeyBuffer buffer = BUFFERS.get().reset();
    encoder.encode(value, buffer);
    return buffer;
  }

  /**
   * @param value the value
   * @return as {@link CuckooFilter#add(byte[])} for its key
   */
  public boolean add(T value) {
    if (ready != null) {
      return switch (ready) {
        case STRINGS -> filter.add((CharSequence) value);
        case LONGS -> filter.add((long) (Long) value);
        default -> filter.add((byte[]) value);
      };
    }
    KeyBuffer b = encode(value);
    return filter.add(b.array(), 0, b.length());
  }

  /**
   * @param value the value
   * @return as {@link CuckooFilter#addIfAbsent(byte[])} for its key
   */
  public boolean addIfAbsent(T value) {
    if (ready != null) {
      return switch (ready) {
        case STRINGS -> filter.addIfAbsent((CharSequence) value);
        case LONGS -> filter.addIfAbsent((long) (Long) value);
        default -> filter.addIfAbsent((byte[]) value);
      };
    }
    KeyBuffer b = encode(value);
    return filter.addIfAbsent(b.array(), 0, b.length());
  }

  /**
   * @param value the value
   * @return as {@link CuckooFilter#mightContain(byte[])} for its key
   */
  public boolean mightContain(T value) {
    if (ready != null) {
      return switch (ready) {
        case STRINGS -> filter.mightContain((CharSequence) value);
        case LONGS -> filter.mightContain((long) (Long) value);
        default -> filter.mightContain((byte[]) value);
      };
    }
    KeyBuffer b = encode(value);
    return filter.mightContain(b.array(), 0, b.length());
  }

  /**
   * @param value a value that was added
   * @return as {@link CuckooFilter#remove(byte[])} for its key
   */
  public boolean remove(T value) {
    if (ready != null) {
      return switch (ready) {
        case STRINGS -> filter.remove((CharSequence) value);
        case LONGS -> filter.remove((long) (Long) value);
        default -> filter.remove((byte[]) value);
      };
    }
    KeyBuffer b = encode(value);
    return filter.remove(b.array(), 0, b.length());
  }

  /**
   * @param value the value
   * @return as {@link CuckooFilter#count(byte[])} for its key
   */
  public long count(T value) {
    if (ready != null) {
      return switch (ready) {
        case STRINGS -> filter.count((CharSequence) value);
        case LONGS -> filter.count((long) (Long) value);
        default -> filter.count((byte[]) value);
      };
    }
    KeyBuffer b = encode(value);
    return filter.count(b.array(), 0, b.length());
  }

  /**
   * Adds the values in their iteration order, stopping at the first one the filter refuses, as
   * {@link CuckooFilter#addAll(long[])} does.
   *
   * @param values the values, none null
   * @return how many were added: all of them, or the position of the refused value
   */
  public long addAll(Iterable<? extends T> values) {
    Objects.requireNonNull(values, "values must not be null");
    return InOrder.addUntilRefused(values.iterator(), this::add);
  }

  /**
   * Adds the stream's values in its encounter order, stopping at the first one the filter
   * refuses (the rest is not consumed).
   *
   * @param values the values, none null
   * @return how many were added: all of them, or the position of the refused value
   */
  public long addAll(Stream<? extends T> values) {
    Objects.requireNonNull(values, "values must not be null");
    return InOrder.addUntilRefused(values.sequential().iterator(), this::add);
  }

  @Override
  public String toString() {
    return "TypedFilter[" + filter + "]";
  }
}
