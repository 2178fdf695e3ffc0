package dev.cuckoo.spark;

import org.apache.spark.TaskContext;
import org.apache.spark.memory.MemoryConsumer;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.memory.TaskMemoryManager;

/**
 * The heap a SQL build's buffer holds in its task, asked of Spark's memory manager before it is
 * allocated, so that a build too big for the task fails with a message that says what to do
 * instead of running the executor (in local mode, the driver) out of memory.
 *
 * <p>Spark sizes a task's share of execution memory for its own operators, and an aggregate's
 * object buffer ({@code ObjectAggregationIterator}) is not among what it counts: a {@code
 * cuckoo_build} over 40M keys took 320 MB of hashes and more to serialize them, and Spark's
 * handler for an uncaught {@code OutOfMemoryError} exited the JVM. Asking first turns that into a
 * failed query. A build cannot spill (it needs every distinct hash at once to size and fill one
 * table), so {@link #spill} frees nothing and another operator's need does not take from it.
 */
final class BuildMemory extends MemoryConsumer {
  private final String what;

  private BuildMemory(TaskMemoryManager manager, String what) {
    super(manager, MemoryMode.ON_HEAP);
    this.what = what;
  }

  /** @return the accounting of the task this runs in, or null outside a task (nothing to ask) */
  static BuildMemory ofTask(String what) {
    TaskContext task = TaskContext.get();
    return task == null ? null : new BuildMemory(task.taskMemoryManager(), what);
  }

  /**
   * Takes {@code bytes} more of the task's execution memory, or fails.
   *
   * @param bytes what is about to be allocated
   * @param keys the distinct keys the buffer will then hold, for the message
   * @throws IllegalStateException saying what the build needs and what to do, where the task
   *     cannot have it
   */
  void reserve(long bytes, long keys) {
    if (bytes <= 0) {
      return; // Spark asserts on a request of nothing
    }
    long granted = acquireMemory(bytes);
    if (granted < bytes) {
      freeMemory(granted);
      throw new IllegalStateException(what + ": this task would need " + mib(getUsed() + bytes) + " of heap for the hashes of "
          + keys + " keys (and, in the task that finishes, their filter), and Spark's memory manager can give it " + mib(getUsed() + granted)
          + ": a SQL build holds the 8-byte hash of every distinct key, and then the whole filter, in one task."
          + " Build large filters with CuckooSpark.write (cuckoo_spark.write in Python), which splits the filter"
          + " into shards across tasks, or give the executors more memory (spark.executor.memory; in local mode,"
          + " spark.driver.memory)");
    }
  }

  /** Gives back what this buffer holds. */
  void releaseAll() {
    freeMemory(getUsed());
  }

  @Override
  public long spill(long size, MemoryConsumer trigger) {
    return 0;
  }

  private static String mib(long bytes) {
    return (bytes >> 20) + " MiB";
  }
}
