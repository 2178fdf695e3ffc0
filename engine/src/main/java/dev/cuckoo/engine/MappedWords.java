package dev.cuckoo.engine;

import dev.cuckoo.spi.MappedPayload;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.MappedByteBuffer;

/**
 * A table's longs where they lie in a mapped filter file: the file's words (big-endian, as every
 * payload writes them), read and written by index like a {@code long[]}, with the same bit-string
 * view {@link PackedBits} gives an array. A table of any length works: a {@link MappedByteBuffer}
 * holds at most 2 GiB, so the words are mapped in segments of 2^27 longs (1 GiB), and word {@code
 * i} is in segment {@code i >>> 27}. A bucket whose bits straddle two words is read word by word,
 * so the segments' edges need nothing special.
 *
 * <p>Words are read and written at the segments' addresses, with {@code sun.misc.Unsafe}, rather
 * than through {@link MappedByteBuffer#getLong(int)}: the buffer's scope, limit and address
 * checks are instructions on every access, and in a loop of lookups more instructions per lookup
 * mean fewer cache misses in flight (docs/results.md, "Filters in mapped files"). What the buffer checked is checked here once, or holds by
 * construction: every index is checked against {@link #length} (an {@code IndexOutOfBoundsException},
 * as an array gives); the buffers stay referenced, so the mappings live as long as this object;
 * a read-only mapping is never written, since a store first marks its region in an array that is
 * empty for a read-only file; and a fault on a page of a file truncated underneath is reported as
 * the JVM reports it for any unsafe access, an {@link InternalError}, as the buffer's own access
 * did.
 *
 * <p>Every store marks its region (64 KiB or more, at most 2^20 regions) as changed; {@link
 * #force} reports the changed regions to the payload ({@link MappedPayload#changed}), so that the
 * file's checksum is updated by rereading those alone.
 */
public final class MappedWords {
  /** Longs per segment, as a shift: 2^27 longs, 1 GiB. */
  static final int SEGMENT_SHIFT = 27;
  private static final long SEGMENT_MASK = (1L << SEGMENT_SHIFT) - 1;

  /** Log2 of the fewest longs a change-tracking region holds: 2^13 longs, 64 KiB. */
  private static final int MIN_REGION_SHIFT = 13;
  /** Log2 of the most regions. */
  private static final int MAX_REGIONS_SHIFT = 20;

  /*
   * sun.misc.Unsafe's methods through method handles bound to the instance: javac warns at every
   * mention of the class (and the build makes warnings errors), while a constant method handle
   * compiles to the same intrinsic as a direct call.
   *
   * Each handle costs classes the JDK spins at run time, milliseconds of a process's first
   * CuckooFilters.open in all, so there are as few as can be: one getLong(Object, long) reads
   * both a buffer's address field and, given no object, the word at an address, which is what
   * getLong(long) does inside the JDK; and the handle that stores waits in Stores for the first
   * store, which a read-only filter never makes.
   */
  /** The {@code sun.misc.Unsafe} instance. */
  private static final Object UNSAFE;
  /** {@code long getLong(Object o, long offset)}: a field of {@code o}, or with {@code o} null the word at an address. */
  private static final MethodHandle GET_LONG;
  /** Where a direct buffer keeps its address: the field {@code java.nio.Buffer.address}. */
  private static final long BUFFER_ADDRESS;

  static {
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
      java.lang.reflect.Field the = unsafeClass.getDeclaredField("theUnsafe");
      the.setAccessible(true);
      UNSAFE = the.get(null);
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      GET_LONG = lookup.findVirtual(unsafeClass, "getLong", MethodType.methodType(long.class, Object.class, long.class))
          .bindTo(UNSAFE);
      MethodHandle fieldOffset = lookup.findVirtual(unsafeClass, "objectFieldOffset",
          MethodType.methodType(long.class, java.lang.reflect.Field.class)).bindTo(UNSAFE);
      BUFFER_ADDRESS = (long) fieldOffset.invokeExact(java.nio.Buffer.class.getDeclaredField("address"));
    } catch (Throwable e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** {@code void putLong(long address, long value)}, made at the first store. */
  private static final class Stores {
    static final MethodHandle PUT_LONG;

    static {
      try {
        PUT_LONG = MethodHandles.lookup().findVirtual(UNSAFE.getClass(), "putLong",
            MethodType.methodType(void.class, long.class, long.class)).bindTo(UNSAFE);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }
  }

  /** The mappings, referenced so that they stay mapped while this object lives. */
  private final MappedByteBuffer[] segments;
  /** The address of each segment's first byte. */
  private final long[] addresses;
  private final long length;
  private final MappedPayload payload;
  /** Where the words start in the payload, in bytes. */
  private final long at;
  /** Log2 of the longs of a region. */
  private final int regionShift;
  /** Whether each region was stored to since the last {@link #force}. */
  private final boolean[] changed;

  private MappedWords(MappedByteBuffer[] segments, long length, MappedPayload payload, long at) {
    this.segments = segments;
    this.addresses = new long[segments.length];
    for (int s = 0; s < segments.length; s++) {
      addresses[s] = fieldLong(segments[s], BUFFER_ADDRESS);
    }
    this.length = length;
    this.payload = payload;
    this.at = at;
    this.regionShift = Math.max(MIN_REGION_SHIFT, 64 - Long.numberOfLeadingZeros(length) - MAX_REGIONS_SHIFT);
    this.changed = payload.writable() ? new boolean[(int) ((length + (1L << regionShift) - 1) >>> regionShift)]
        : new boolean[0];
  }

  /**
   * Maps words of a payload.
   *
   * @param payload the payload
   * @param at where the words start in it, in bytes
   * @param length how many longs
   * @return them
   * @throws IOException if mapping fails
   */
  public static MappedWords map(MappedPayload payload, long at, long length) throws IOException {
    int count = (int) ((length + SEGMENT_MASK) >>> SEGMENT_SHIFT);
    MappedByteBuffer[] segments = new MappedByteBuffer[count];
    for (int s = 0; s < count; s++) {
      long first = (long) s << SEGMENT_SHIFT;
      long words = Math.min(1L << SEGMENT_SHIFT, length - first);
      segments[s] = payload.map(at + first * Long.BYTES, words * Long.BYTES);
    }
    return new MappedWords(segments, length, payload, at);
  }

  @SuppressWarnings("ThrowSpecificExceptions") // what the handles throw: nothing, for these signatures
  private static long rawGet(long address) {
    try {
      return (long) GET_LONG.invokeExact((Object) null, address);
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  @SuppressWarnings("ThrowSpecificExceptions")
  private static void rawPut(long address, long value) {
    try {
      Stores.PUT_LONG.invokeExact(address, value);
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  private static long fieldLong(Object o, long offset) {
    try {
      return (long) GET_LONG.invokeExact(o, offset);
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  /** @return the number of longs */
  public long length() {
    return length;
  }

  /**
   * @param index a word, below {@link #length}
   * @return it
   */
  public long get(long index) {
    try {
      return Long.reverseBytes(rawGet(address(index))); // the file is big-endian
    } finally {
      java.lang.ref.Reference.reachabilityFence(segments); // mapped until the read is done
    }
  }

  /** @return the address of a word, checked to be one of these */
  private long address(long index) {
    java.util.Objects.checkIndex(index, length);
    return addresses[(int) (index >>> SEGMENT_SHIFT)] + ((index & SEGMENT_MASK) << 3);
  }

  /**
   * @param index a word, below {@link #length}
   * @param value what to store there
   */
  public void set(long index, long value) {
    long address = address(index);
    changed[(int) (index >>> regionShift)] = true; // first: for a read-only file this throws, and nothing is written
    try {
      rawPut(address, Long.reverseBytes(value));
    } finally {
      java.lang.ref.Reference.reachabilityFence(segments);
    }
  }

  /** Replaces the bits of a word that {@code mask} selects with {@code bits}: one address for the load and the store. */
  private void update(long index, long mask, long bits) {
    long address = address(index);
    changed[(int) (index >>> regionShift)] = true; // before the store, as in set
    try {
      rawPut(address, Long.reverseBytes((Long.reverseBytes(rawGet(address)) & ~mask) | bits));
    } finally {
      java.lang.ref.Reference.reachabilityFence(segments);
    }
  }

  /**
   * {@link PackedBits#window} over these words: bits {@code [offset, offset + 64)} of the bit
   * string, zeros past its end.
   *
   * @param offset a bit offset below {@code 64·length()}
   * @return the 64 bits from there
   */
  public long window(long offset) {
    long w = offset >>> 6;
    long next = w + 1 < length ? get(w + 1) : 0L;
    return (get(w) >>> offset) | ((next << 1) << ~offset);
  }

  /**
   * {@link PackedBits#write} over these words: stores the low bits of {@code value} that {@code
   * mask} selects at the bit offset, keeping every other bit of the words it touches.
   *
   * @param offset a bit offset
   * @param value the value
   * @param mask {@code 2^bits - 1} for the field's width
   */
  public void write(long offset, long value, long mask) {
    long w = offset >>> 6;
    long v = value & mask;
    update(w, mask << offset, v << offset);
    long spill = (mask >>> 1) >>> ~offset;
    if (spill != 0) {
      update(w + 1, spill, (v >>> 1) >>> ~offset);
    }
  }

  /**
   * @param bit a bit offset
   * @return whether every bit from there to the end is zero
   */
  public boolean isClearFrom(long bit) {
    for (long w = bit >>> 6; w < length; w++) {
      long unused = w == bit >>> 6 ? -1L << bit : -1L;
      if ((get(w) & unused) != 0) {
        return false;
      }
    }
    return true;
  }

  /** Zeros every word. */
  public void clear() {
    for (long w = 0; w < length; w++) {
      if (get(w) != 0) {
        set(w, 0L); // a word already zero is left alone, so that untouched pages stay untouched
      }
    }
  }

  /**
   * Writes the changed pages of every segment to the file and waits for them, and reports the
   * regions stored to since the last force to the payload.
   */
  public void force() {
    for (MappedByteBuffer segment : segments) {
      segment.force();
    }
    long regionWords = 1L << regionShift;
    for (int r = 0; r < changed.length; r++) {
      if (changed[r]) {
        long first = (long) r << regionShift;
        payload.changed(at + first * Long.BYTES, Math.min(regionWords, length - first) * Long.BYTES);
        changed[r] = false;
      }
    }
  }
}
