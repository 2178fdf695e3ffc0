package dev.cuckoo.testkit;

import java.lang.reflect.Method;

/**
 * Counts the bytes the current thread allocates, through HotSpot's {@code
 * com.sun.management.ThreadMXBean} (looked up reflectively, so callers need not read the
 * {@code jdk.management} module). Used to check that hot paths allocate nothing: a count, never a
 * time.
 */
public final class AllocationMeter {
  private static final Object BEAN;
  private static final Method ALLOCATED;

  static {
    try {
      Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
      BEAN = factory.getMethod("getThreadMXBean").invoke(null);
      ALLOCATED = Class.forName("com.sun.management.ThreadMXBean")
          .getMethod("getThreadAllocatedBytes", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private AllocationMeter() {}

  /** @return the bytes the current thread has allocated since it started */
  @SuppressWarnings("deprecation") // Thread.getId: threadId() is Java 19+
  public static long threadAllocatedBytes() {
    try {
      return (long) ALLOCATED.invoke(BEAN, Thread.currentThread().getId());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Runs the action once to warm it up, then again, and counts what the second run allocates.
   *
   * @param action what to measure; run twice
   * @return the bytes allocated by the second run
   */
  public static long allocatedBy(Runnable action) {
    action.run();
    long before = threadAllocatedBytes();
    action.run();
    return threadAllocatedBytes() - before;
  }
}
