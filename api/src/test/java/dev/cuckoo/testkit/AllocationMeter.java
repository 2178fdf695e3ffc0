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
   * Runs the action once to warm it up, then three more times, and returns the least any of
   * those three allocated. Code that allocates per operation allocates in every run; what the
   * JVM allocates now and then on the thread's behalf (while it recompiles or deoptimizes the
   * loop, say) shows in one run, not in all three.
   *
   * @param action what to measure; run four times
   * @return the bytes allocated by the least allocating of the measured runs
   */
  public static long allocatedBy(Runnable action) {
    action.run();
    long least = Long.MAX_VALUE;
    for (int run = 0; run < 3; run++) {
      long before = threadAllocatedBytes();
      action.run();
      least = Math.min(least, threadAllocatedBytes() - before);
    }
    return least;
  }

  /**
   * Counts what an action allocates beyond what the meter itself does: the least of five
   * measured runs (the JVM now and then allocates on the thread while it compiles), less the
   * least the meter's own reflective call allocates. 0 for an action that allocates nothing.
   *
   * @param action what to measure; run ten times
   * @return the bytes it allocates, at least 0
   */
  public static long allocatedBeyondTheMeter(Runnable action) {
    long meterItself = Long.MAX_VALUE;
    long allocated = Long.MAX_VALUE;
    for (int round = 0; round < 5; round++) {
      meterItself = Math.min(meterItself, allocatedBy(() -> { }));
      allocated = Math.min(allocated, allocatedBy(action));
    }
    return Math.max(0, allocated - meterItself);
  }

  /**
   * Counts what a filter's hot paths allocate: adds every key (past the filter's capacity, if
   * there are enough keys, so that kicks, their undo and the stash run), then looks up, counts
   * and add-if-absents each, then removes each; as {@link #allocatedBy} runs it.
   *
   * @param filter the filter; emptied by each run's removals of what it added
   * @param keys the keys
   * @return the bytes allocated by the least allocating measured run
   */
  public static long allocatedByOperations(dev.cuckoo.CuckooFilter filter, long[] keys) {
    long[] sink = new long[1];
    long bytes = allocatedBy(() -> {
      for (long k : keys) {
        sink[0] += filter.add(k) ? 1 : 0;
      }
      for (long k : keys) {
        sink[0] += filter.mightContain(k) ? 1 : 0;
        sink[0] += filter.count(k);
        sink[0] += filter.addIfAbsent(k) ? 1 : 0;
      }
      for (long k : keys) {
        sink[0] += filter.remove(k) ? 1 : 0;
      }
    });
    return bytes;
  }
}
