package dev.cuckoo.cli;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.redis.RedisFilters;
import dev.cuckoo.scalable.ScalableCuckooFilter;
import java.nio.file.Path;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * {@code cuckoo pull-redis}: copies the filter under a Redis key into a filter file with {@link
 * RedisFilters#pull}: one state of the key, even while other clients write it.
 */
@Command(
    name = "pull-redis",
    mixinStandardHelpOptions = true,
    description = {
      "Copy the filter under a Redis key into a filter file (CF.SCANDUMP).",
      "",
      "Streams the key's RedisBloom chunks into a filter and writes it. The copy is one state of "
          + "the key even while other clients write it: a read the key changed under is read "
          + "again, and a key that keeps changing is copied server side first.",
      "",
    })
final class PullRedisCommand implements Callable<Integer> {
  @Mixin RedisTarget target;

  @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE",
      description = "The filter file to write (replaced if it exists).")
  Path output;

  @Mixin Summary summary;

  @ParentCommand CuckooCommand parent;

  @Override
  public Integer call() {
    FileAccess.requireWritable(output);
    ScalableCuckooFilter filter;
    try (UnifiedJedis redis = target.connect(parent.environment)) {
      filter = RedisFilters.pull(redis, target.key);
    } catch (NoSuchElementException e) {
      throw new CommandError(target.describe() + " does not exist", e);
    } catch (IllegalStateException e) {
      throw new CommandError(target.where() + ": " + e.getMessage(), e);
    } catch (CorruptFilterException e) {
      throw new CommandError(target.describe() + ": not a valid RedisBloom dump: " + e.getMessage(), e);
    } catch (JedisException e) {
      throw target.failure(e);
    } catch (OutOfMemoryError e) {
      throw CommandError.outOfMemory("pull " + target.describe());
    }
    FileAccess.writeAtomically(output, filter::writeTo);
    summary.print(out -> {
      out.println("wrote " + output + " from " + target.describe());
      new FilterReport(filter).printText(out);
    });
    return CuckooCommand.EXIT_OK;
  }
}
