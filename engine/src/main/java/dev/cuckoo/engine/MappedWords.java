package dev.cuckoo.engine;

import dev.cuckoo.spi.MappedPayload;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.MappedByteBuffer;

/**
 * {@link TableWords} where they lie in a mapped filter file: the file's words (big-endian, as
 * every payload writes them), read and written at their addresses. A table of any length works:
 * a {@link MappedByteBuffer} holds at most 2 GiB, so the words are mapped in segments of 2^27
 * longs (1 GiB), and when the segments land next to one another in memory, as they do unless
 * something else was mapped between them, the table is one run of memory from one address, as
 * an array is: word {@code i} is at {@code base + 8i}, whatever the file's size. Otherwise {@link
 * SegmentedWords} finds each word's segment.
 *
 * <p>Words are read and written with {@code sun.misc.Unsafe}, rather than through {@link
 * MappedByteBuffer#getLong(int)}: the buffer's scope, limit and address checks are instructions
 * on every access, and in a loop of lookups more instructions per lookup mean fewer cache misses
 * in flight (docs/results.md, "Filters in mapped files"). What the buffer checked holds by
 * construction: a table's indexes are in range (a bucket index is below the bucket count, whose
 * words {@code TablePayload.open} checked the file holds), as they are for a table on the heap;
 * the buffers stay referenced, so the mappings live as long as this object; a read-only mapping
 * is never written, since a store first marks its region in an array that is empty for a
 * read-only file ({@link ChangedRegions}); and a fault on a page of a file truncated underneath
 * is reported as the JVM reports it for any unsafe access, an {@link InternalError}, as the
 * buffer's own access did.
 */
final class MappedWords extends FileWords {
  /** Longs per segment, as a shift: 2^27 longs, 1 GiB. */
  static final int SEGMENT_SHIFT = 27;
  static final long SEGMENT_MASK = (1L << SEGMENT_SHIFT) - 1;

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

  /** The address of word 0; word {@code i} is at {@code base + 8i}. */
  private long base;

  private MappedWords(MappedByteBuffer[] segments, long base, long length, ChangedRegions changed,
      UndoRecords undo, MappedPayload payload) {
    super(segments, length, changed, undo, payload);
    this.base = base;
  }

  /**
   * Maps words of a payload.
   *
   * @param payload the payload
   * @param at where the words start in it, in bytes
   * @param length how many longs
   * @return them: one run of memory when the segments landed next to one another, else {@link
   *     SegmentedWords}
   * @throws IOException if mapping fails
   */
  static TableWords mapSegments(MappedPayload payload, long at, long length, FirstPage undoPage) throws IOException {
    return mapSegments(payload, at, length, undoPage, true);
  }

  /** For tests: {@code runs} false makes the words {@link SegmentedWords} even where the segments touch. */
  static TableWords mapSegments(MappedPayload payload, long at, long length, boolean runs) throws IOException {
    return mapSegments(payload, at, length, null, runs);
  }

  /**
   * Maps words of a payload copy-on-write ({@link MappedPayload#mapPrivate}): stores stay in
   * this process until {@link FileWords#changedRuns} are committed.
   */
  static TableWords mapCopyOnWrite(MappedPayload payload, long at, long length) throws IOException {
    MappedByteBuffer[] segments = mapEach(payload, at, length, true);
    FileWords words = of(segments, length, ChangedRegions.ofPages(payload, at, length), null, true, payload);
    words.privately = true;
    return words;
  }

  /**
   * @param undoPage the first page, mapped, whose undo records guard rewrites of several words
   *     ({@link TableWords#openUndo}), or {@code null} for none (a reader, or a test's words)
   */
  private static TableWords mapSegments(MappedPayload payload, long at, long length, FirstPage undoPage,
      boolean runs) throws IOException {
    UndoRecords undo = undoPage == null ? null : new UndoRecords(undoPage);
    MappedByteBuffer[] segments = mapEach(payload, at, length, false);
    return of(segments, length, new ChangedRegions(payload, at, length), undo, runs, payload);
  }

  /** Maps the segments of the words, shared or copy-on-write. */
  static MappedByteBuffer[] mapEach(MappedPayload payload, long at, long length, boolean privately)
      throws IOException {
    int count = (int) ((length + SEGMENT_MASK) >>> SEGMENT_SHIFT);
    MappedByteBuffer[] segments = new MappedByteBuffer[count];
    // Last segment first: Linux places each new mapping just below the one before it when the
    // space there is free, so that mapping the segments backwards lays them out forwards.
    for (int s = count - 1; s >= 0; s--) {
      long first = (long) s << SEGMENT_SHIFT;
      long words = Math.min(1L << SEGMENT_SHIFT, length - first);
      segments[s] = privately ? payload.mapPrivate(at + first * Long.BYTES, words * Long.BYTES)
          : payload.map(at + first * Long.BYTES, words * Long.BYTES);
    }
    return segments;
  }

  private static FileWords of(MappedByteBuffer[] segments, long length, ChangedRegions changed, UndoRecords undo,
      boolean runs, MappedPayload payload) {
    int count = segments.length;
    long[] addresses = new long[count];
    for (int s = 0; s < count; s++) {
      addresses[s] = fieldLong(segments[s], BUFFER_ADDRESS);
    }
    boolean contiguous = true;
    for (int s = 1; s < count; s++) {
      contiguous &= addresses[s] == addresses[s - 1] + (Long.BYTES << SEGMENT_SHIFT);
    }
    if (contiguous && runs) {
      return new MappedWords(segments, count == 0 ? 0 : addresses[0], length, changed, undo, payload);
    }
    return (FileWords) SegmentedWords.of(segments, addresses, length, changed, undo, payload);
  }

  @SuppressWarnings("ThrowSpecificExceptions") // what the handles throw: nothing, for these signatures
  static long rawGet(long address) {
    try {
      return (long) GET_LONG.invokeExact((Object) null, address);
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  @SuppressWarnings("ThrowSpecificExceptions")
  static void rawPut(long address, long value) {
    try {
      Stores.PUT_LONG.invokeExact(address, value);
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  /** @return the address of a direct buffer's first byte */
  static long addressOf(MappedByteBuffer buffer) {
    return fieldLong(buffer, BUFFER_ADDRESS);
  }

  private static long fieldLong(Object o, long offset) {
    try {
      return (long) GET_LONG.invokeExact(o, offset);
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  long address(long index) {
    return base + (index << 3);
  }

  @Override
  boolean rebase(long[] addresses) {
    for (int s = 1; s < addresses.length; s++) {
      if (addresses[s] != addresses[s - 1] + (Long.BYTES << SEGMENT_SHIFT)) {
        return false;
      }
    }
    base = addresses.length == 0 ? 0 : addresses[0];
    return true;
  }

  /** Unmaps mappings no reader is inside: their memory is returned at once, not when they are collected. */
  static void unmap(MappedByteBuffer[] segments) {
    for (MappedByteBuffer segment : segments) {
      try {
        Cleaner.INVOKE_CLEANER.invokeExact((java.nio.ByteBuffer) segment);
      } catch (Throwable e) {
        throw new IllegalStateException("cannot unmap a segment", e);
      }
    }
  }

  /** {@code void invokeCleaner(ByteBuffer)}, made at the first unmap. */
  private static final class Cleaner {
    static final MethodHandle INVOKE_CLEANER;

    static {
      try {
        INVOKE_CLEANER = MethodHandles.lookup().findVirtual(UNSAFE.getClass(), "invokeCleaner",
            MethodType.methodType(void.class, java.nio.ByteBuffer.class)).bindTo(UNSAFE);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }
  }
}
