package dev.cuckoo.cli;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.redis.RedisFilters;
import dev.cuckoo.scalable.RedisBloomDump;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * {@code cuckoo push-redis}: copies a filter file into a live Redis under a key with {@link
 * RedisFilters#push} (or {@link RedisFilters#replace}), where RedisBloom's {@code CF.*}
 * commands then answer for it.
 */
@Command(
    name = "push-redis",
    mixinStandardHelpOptions = true,
    description = {
      "Copy a filter into Redis under a key (CF.LOADCHUNK).",
      "",
      "Streams the filter's RedisBloom chunks into a new key beside KEY and renames it over KEY in "
          + "one step, so readers never see half a filter. Only filters RedisBloom can hold go "
          + "(the variant that mirrors RedisBloom, with its default hash and seed). KEY must not "
          + "exist unless --replace is given.",
      "",
    })
final class PushRedisCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "FILTER", description = "The filter file.")
  Path filterFile;

  @Mixin RedisTarget target;

  @Option(names = "--replace", description = "Replace KEY if it exists (whatever it holds).")
  boolean replace;

  @Mixin Summary summary;

  @ParentCommand CuckooCommand parent;

  @Override
  public Integer call() {
    CuckooFilter filter = FileAccess.readFilter(filterFile);
    try {
      RedisBloomDump.scanDump(filter, 0); // the header alone: refuses what Redis cannot hold, before connecting
    } catch (IllegalArgumentException e) {
      throw new CommandError(filterFile + ": cannot be pushed to Redis: " + e.getMessage(), e);
    }
    long startNanos = System.nanoTime();
    try (UnifiedJedis redis = target.connect(parent.environment)) {
      if (replace) {
        RedisFilters.replace(filter, redis, target.key);
      } else {
        RedisFilters.push(filter, redis, target.key);
      }
    } catch (IllegalStateException e) {
      throw new CommandError(target.describe() + " already exists: give --replace to overwrite it", e);
    } catch (JedisException e) {
      throw target.failure(e);
    }
    long nanos = System.nanoTime() - startNanos;
    summary.print(out -> out.println("pushed " + filterFile + " to " + target.describe() + ": "
        + TextFormat.grouped(filter.size()) + " items, " + TextFormat.grouped(filter.sizeInBytes()) + " bytes in "
        + TextFormat.seconds(nanos)));
    return CuckooCommand.EXIT_OK;
  }
}
