package dev.cuckoo;

import java.util.Objects;
import java.util.function.Function;
import java.util.UUID;

/**
 * Turns a value into the bytes of its key, as Guava's {@code Funnel} does: write the fields that
 * make two values the same key into the {@link KeySink}, in a fixed order. An encoder only
 * produces the bytes; the filter's hash and the key-encoding rule do the rest, so a value and
 * the bytes its encoder writes are one key in every variant and hash.
 *
 * <pre>{@code
 * KeyEncoder<Order> byIdAndDay = (order, sink) -> sink.putLong(order.id()).putInt(order.day());
 * TypedFilter<Order> seen = TypedFilter.of(CuckooFilters.create("classic?capacity=1000000"), byIdAndDay);
 * }</pre>
 *
 * <p>The ready encoders write what the filter's own key forms mean: {@link #strings()} a
 * {@code CharSequence}'s UTF-8 bytes ({@code add("x")}), {@link #longs()} a {@code long}'s 8
 * little-endian bytes ({@code add(42L)}), {@link #bytes()} the array itself; a {@link
 * TypedFilter} passes their values to those key forms directly, without copying.
 *
 * @param <T> the values' type
 */
@FunctionalInterface
public interface KeyEncoder<T> {
  /**
   * Writes the key bytes of a value. It must write the same bytes for values that are the same
   * key, allocate nothing it keeps, and not keep the sink.
   *
   * @param value the value, not null
   * @param sink where to write its key bytes
   */
  void encode(T value, KeySink sink);

  /** @return the encoder of a {@code CharSequence} as its UTF-8 bytes, the key {@code add(CharSequence)} adds */
  static KeyEncoder<CharSequence> strings() {
    return ReadyEncoder.STRINGS.typed();
  }

  /** @return the encoder of a {@code Long} as its 8 little-endian bytes, the key {@code add(long)} adds */
  static KeyEncoder<Long> longs() {
    return ReadyEncoder.LONGS.typed();
  }

  /** @return the encoder of a {@code byte[]} as itself, the key {@code add(byte[])} adds */
  static KeyEncoder<byte[]> bytes() {
    return ReadyEncoder.BYTES.typed();
  }

  /**
   * @return the encoder of a {@link UUID} as its 16 bytes in RFC 4122 order (most significant
   *     byte first), the bytes a UUID has in most databases and on the wire
   */
  static KeyEncoder<UUID> uuids() {
    return (uuid, sink) -> sink.putLong(Long.reverseBytes(uuid.getMostSignificantBits()))
        .putLong(Long.reverseBytes(uuid.getLeastSignificantBits()));
  }

  /**
   * @param <U> the type it takes
   * @param field what to encode of a value of that type
   * @return an encoder of a {@code U} as the key of {@code field.apply(u)} under this encoder
   */
  default <U> KeyEncoder<U> of(Function<? super U, ? extends T> field) {
    Objects.requireNonNull(field, "field must not be null");
    return (value, sink) -> encode(field.apply(value), sink);
  }
}
