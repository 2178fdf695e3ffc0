package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterShard;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;
import scala.Tuple2;

/**
 * The reduce side of a build: the task of shuffle partition i builds shard i from the chunks of
 * hashes routed to it, and either returns its bytes or writes them to a file beside the target.
 *
 * <p>The hashes are sorted and each distinct one is added once, so a build has set semantics: a
 * key that occurs in many rows is stored once (a cuckoo filter stores duplicates, and more than
 * 2·bucketSize copies of one key would not fit). Sorted hashes also fill the table front to back,
 * as the first bucket follows the hash's top bits. A shard that cannot take a key counts it and
 * goes on counting the rest, so the driver can say which capacity would do.
 */
final class ShardTask {
  private ShardTask() {}

  /**
   * @param target the directory to write the shard into, or null to return its bytes
   */
  static ShardOutcome build(ShardPlan plan, Iterator<Tuple2<Integer, long[]>> chunks, HadoopPath target) {
    int index = TaskContext.getPartitionId();
    FilterShard shard = CuckooFilters.createShard(plan.config, index);
    long[] counts = fill(shard, chunks);
    long keys = counts[0];
    long refused = counts[1];
    if (refused > 0) {
      return new ShardOutcome(index, keys, refused, null, null);
    }
    try {
      if (target == null) {
        return new ShardOutcome(index, keys, 0, bytesOf(shard), null);
      }
      // One name per attempt: a retried or speculative attempt never writes over another's file;
      // the driver joins the files of the attempts whose results it got.
      Path file = target.child(String.format("shard-%07d.%d", index, TaskContext.get().taskAttemptId()));
      try (OutputStream out = target.fileSystem().create(file, true)) {
        shard.writeTo(out);
      }
      return new ShardOutcome(index, keys, 0, null, file.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("writing shard " + index + " of " + plan.config + " failed", e);
    }
  }

  /**
   * Adds each distinct hash of the chunks once. The hashes are gone when it returns, before the
   * shard's bytes are written: a task holds the hashes and the table, then the table and its bytes.
   *
   * @return the distinct keys, and how many of them the shard refused
   */
  private static long[] fill(FilterShard shard, Iterator<Tuple2<Integer, long[]>> chunks) {
    long[] hashes = gather(chunks);
    return fill(shard, hashes, distinct(hashes, hashes.length));
  }

  /**
   * Adds the first {@code keys} hashes, which are distinct, and goes on counting past the first
   * one the shard refuses, so the driver can say which capacity would do.
   *
   * @return the distinct keys, and how many of them the shard refused
   */
  static long[] fill(FilterShard shard, long[] hashes, int keys) {
    long refused = 0;
    for (int i = 0; i < keys; i++) {
      if (refused > 0 || !shard.addHash(hashes[i])) {
        refused++;
      }
    }
    return new long[] {keys, refused};
  }

  /**
   * Sorts the first {@code length} hashes and moves the distinct ones to the front, in order.
   *
   * @return how many are distinct
   */
  static int distinct(long[] hashes, int length) {
    Arrays.sort(hashes, 0, length);
    int n = 0;
    for (int i = 0; i < length; i++) {
      if (i == 0 || hashes[i] != hashes[n - 1]) {
        hashes[n++] = hashes[i];
      }
    }
    return n;
  }

  /**
   * A shard's bytes ({@link FilterShard#writeTo}), counted first, then written into an array of
   * exactly that size: a task holds its table and one copy of its bytes, where a
   * ByteArrayOutputStream would hold two (its buffer, then toByteArray's copy) and a spare buffer
   * would travel with a tail of zeros.
   */
  static byte[] bytesOf(FilterShard shard) throws IOException {
    CountingOutput counted = new CountingOutput();
    shard.writeTo(counted);
    if (counted.count > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("shard " + shard.index() + " takes " + counted.count
          + " bytes, more than one array: give a larger 'shards'");
    }
    ByteBuffer bytes = ByteBuffer.allocate((int) counted.count);
    shard.writeTo(new BufferOutput(bytes));
    return bytes.array();
  }

  /** Counts the bytes written to it, and keeps none. */
  private static final class CountingOutput extends OutputStream {
    long count;

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }
  }

  /** Writes into a buffer of the exact size; overflowing it is a bug, and throws. */
  private static final class BufferOutput extends OutputStream {
    private final ByteBuffer buffer;

    BufferOutput(ByteBuffer buffer) {
      this.buffer = buffer;
    }

    @Override
    public void write(int b) {
      buffer.put((byte) b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      buffer.put(b, off, len);
    }
  }

  /** The chunks' hashes in one array; each chunk is let go as it is copied. */
  static long[] gather(Iterator<Tuple2<Integer, long[]>> chunks) {
    List<long[]> parts = new ArrayList<>();
    long n = 0;
    while (chunks.hasNext()) {
      long[] part = chunks.next()._2();
      parts.add(part);
      n += part.length;
    }
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("a shard got " + n + " keys, more than one task can sort: give a larger"
          + " 'shards'");
    }
    long[] all = new long[(int) n];
    int at = 0;
    for (int i = 0; i < parts.size(); i++) {
      long[] part = parts.set(i, null);
      System.arraycopy(part, 0, all, at, part.length);
      at += part.length;
    }
    return all;
  }
}
