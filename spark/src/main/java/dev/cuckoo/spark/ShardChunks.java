package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.ShardRouter;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * The map side of a build: hashes one partition's keys and hands them on grouped by shard, as
 * {@code (shard, long[] hashes)} chunks of up to {@link ShardPlan#chunkLongs} hashes. A chunk is
 * one shuffle record, so the shuffle moves 8 bytes per key in large arrays rather than one
 * record per key. It pulls rows only as chunks are taken, so a task holds at most one partly
 * filled buffer per shard. Null keys are skipped and counted.
 */
final class ShardChunks implements Iterator<Tuple2<Integer, long[]>> {
  private final Iterator<InternalRow> rows;
  private final ShardPlan plan;
  private final ShardRouter router;
  private final LongAccumulator nulls;
  private final long[][] buffers;
  private final int[] filled;
  private final byte[] scratch = new byte[8];
  private Tuple2<Integer, long[]> next;
  private int flushFrom = -1;
  private long nullCount;

  ShardChunks(Iterator<InternalRow> rows, ShardPlan plan, LongAccumulator nulls) {
    this.rows = rows;
    this.plan = plan;
    this.router = CuckooFilters.keyHasher(plan.config);
    this.nulls = nulls;
    this.buffers = new long[plan.shards][];
    this.filled = new int[plan.shards];
  }

  @Override
  public boolean hasNext() {
    if (next == null) {
      next = advance();
    }
    return next != null;
  }

  @Override
  public Tuple2<Integer, long[]> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Tuple2<Integer, long[]> chunk = next;
    next = null;
    return chunk;
  }

  private Tuple2<Integer, long[]> advance() {
    while (flushFrom < 0 && rows.hasNext()) {
      InternalRow row = rows.next();
      if (row.isNullAt(0)) {
        nullCount++;
        continue;
      }
      long h = plan.key.hash(row, router, scratch);
      int shard = router.shardOf(h);
      long[] buffer = buffers[shard];
      if (buffer == null) {
        buffer = buffers[shard] = new long[plan.chunkLongs];
      }
      buffer[filled[shard]++] = h;
      if (filled[shard] == buffer.length) {
        buffers[shard] = null;
        filled[shard] = 0;
        return new Tuple2<>(shard, buffer);
      }
    }
    if (flushFrom < 0) {
      flushFrom = 0;
      nulls.add(nullCount);
    }
    // The rows are done: hand on what is left in each buffer, trimmed.
    while (flushFrom < buffers.length) {
      int shard = flushFrom++;
      if (filled[shard] > 0) {
        long[] rest = Arrays.copyOf(buffers[shard], filled[shard]);
        buffers[shard] = null;
        return new Tuple2<>(shard, rest);
      }
    }
    return null;
  }
}
