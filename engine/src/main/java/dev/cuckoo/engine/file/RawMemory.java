package dev.cuckoo.engine.file;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.MappedByteBuffer;

/**
 * Words of memory read and written at their addresses, the addresses of direct buffers, and the
 * unmapping of mappings: the {@code sun.misc.Unsafe} plumbing of a mapped table ({@link
 * FileWords}) and its first page ({@link FirstPage}), in one place.
 *
 * <p>Why {@code Unsafe} rather than {@link MappedByteBuffer#getLong(int)}: the buffer's scope,
 * limit and address checks are instructions on every access, and in a loop of lookups more
 * instructions per lookup mean fewer cache misses in flight (docs/results.md, "Filters in mapped
 * files"). What the buffer checked holds by construction for its callers: their indexes are in
 * range, their buffers stay referenced while they use an address, and a read-only mapping is
 * never written ({@link ChangedRegions}). A fault on a page of a file truncated underneath is
 * reported as the JVM reports it for any unsafe access, an {@link InternalError}, as the buffer's
 * own access did.
 */
final class RawMemory {
  private RawMemory() {}

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

  /** @return the word at an address, in the machine's byte order */
  @SuppressWarnings("ThrowSpecificExceptions") // what the handles throw: nothing, for these signatures
  static long get(long address) {
    try {
      return (long) GET_LONG.invokeExact((Object) null, address);
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  /** Stores a word at an address, in the machine's byte order. */
  @SuppressWarnings("ThrowSpecificExceptions")
  static void put(long address, long value) {
    try {
      Stores.PUT_LONG.invokeExact(address, value);
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  /** @return the address of a direct buffer's first byte */
  @SuppressWarnings("ThrowSpecificExceptions")
  static long addressOf(java.nio.Buffer buffer) {
    try {
      return (long) GET_LONG.invokeExact((Object) buffer, BUFFER_ADDRESS);
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
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
}
