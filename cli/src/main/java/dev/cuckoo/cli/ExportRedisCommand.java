package dev.cuckoo.cli;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.scalable.RedisBloomDump;
import dev.cuckoo.scalable.RedisBloomDump.Chunk;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cuckoo export-redis}: writes a filter's RedisBloom dump ({@link RedisBloomDump#dump})
 * as a {@link RedisDumpFolder}, and prints how to load it with {@code redis-cli}.
 */
@Command(
    name = "export-redis",
    mixinStandardHelpOptions = true,
    description = {
      "Write a filter as RedisBloom chunks, for CF.LOADCHUNK.",
      "",
      "Writes the chunks CF.SCANDUMP would return: DIR/index.txt lists 'ITERATOR LENGTH FILE' "
          + "for each chunk, and DIR/0000.bin (the header), 0001.bin, ... hold their bytes. "
          + "Only filters RedisBloom can read export (the variant that mirrors RedisBloom, with "
          + "its default hash and seed); an empty filter has no dump.",
      "",
    })
final class ExportRedisCommand implements Callable<Integer> {
  private static final Pattern SHELL_SAFE = Pattern.compile("[A-Za-z0-9_./:@%+=,-]+");

  @Parameters(index = "0", paramLabel = "FILTER", description = "The filter file.")
  Path filterFile;

  @Option(names = {"-o", "--out"}, required = true, paramLabel = "DIR",
      description = "The folder to create (it may exist if it is empty).")
  Path out;

  @Option(names = "--key", paramLabel = "NAME",
      description = "The Redis key in the printed redis-cli command (default: the file's name without .cuckoo).")
  String key;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    CuckooFilter filter = FileAccess.readFilter(filterFile);
    List<Chunk> chunks;
    try {
      chunks = RedisBloomDump.dump(filter);
    } catch (IllegalArgumentException e) {
      throw new CommandError(filterFile + ": cannot be exported to Redis: " + e.getMessage(), e);
    }
    if (chunks.isEmpty()) {
      throw new CommandError(filterFile + ": holds no items, and RedisBloom dumps nothing for an empty filter");
    }
    RedisDumpFolder.write(chunks, out);
    long bytes = chunks.stream().mapToLong(c -> c.data().length).sum();
    String name = key != null ? key : filterFile.getFileName().toString().replaceFirst("\\.cuckoo$", "");
    PrintWriter o = spec.commandLine().getOut();
    o.println("wrote " + chunks.size() + " chunks (" + TextFormat.grouped(bytes) + " bytes) and "
        + RedisDumpFolder.INDEX + " to " + out);
    o.println("load them into Redis under a new key with:");
    o.println("  while read it len file; do redis-cli -x CF.LOADCHUNK " + shell(name) + " \"$it\" < "
        + shell(out.toString()) + "/\"$file\"; done < " + shell(out.resolve(RedisDumpFolder.INDEX).toString()));
    o.flush();
    return CuckooCommand.EXIT_OK;
  }

  /** @return the text as one shell word */
  static String shell(String text) {
    return SHELL_SAFE.matcher(text).matches() ? text : "'" + text.replace("'", "'\\''") + "'";
  }
}
