package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterShard;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
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
    long[] hashes = gather(chunks);
    Arrays.sort(hashes);
    FilterShard shard = CuckooFilters.createShard(plan.config, index);
    long keys = 0;
    long refused = 0;
    for (int i = 0; i < hashes.length; i++) {
      if (i > 0 && hashes[i] == hashes[i - 1]) {
        continue;
      }
      keys++;
      if (refused > 0 || !shard.addHash(hashes[i])) {
        refused++;
      }
    }
    if (refused > 0) {
      return new ShardOutcome(index, keys, refused, null, null);
    }
    try {
      if (target == null) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(
            Math.toIntExact(Math.min(Integer.MAX_VALUE - 8L, shard.tableBytes() + 4096)));
        shard.writeTo(out);
        return new ShardOutcome(index, keys, 0, out.toByteArray(), null);
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

  private static long[] gather(Iterator<Tuple2<Integer, long[]>> chunks) {
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
