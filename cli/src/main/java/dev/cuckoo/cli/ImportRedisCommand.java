package dev.cuckoo.cli;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.scalable.RedisBloomDump;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cuckoo import-redis}: reads a {@link RedisDumpFolder} (as {@code export-redis} writes,
 * or as saved from {@code CF.SCANDUMP}) with {@link RedisBloomDump#load}, which checks that the
 * chunks make one whole, consistent filter, and writes it as a filter file.
 */
@Command(
    name = "import-redis",
    mixinStandardHelpOptions = true,
    description = {
      "Read RedisBloom chunks (a CF.SCANDUMP) into a filter file.",
      "",
      "Reads a dump folder, index.txt with 'ITERATOR LENGTH FILE' lines and the chunk files "
          + "(what export-redis writes, or CF.SCANDUMP's replies saved the same way), and "
          + "writes the filter file. Everything is checked: a missing or short chunk file, a "
          + "bad index line, or chunks that do not make one whole filter are errors.",
      "",
    })
final class ImportRedisCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "The dump folder.")
  Path folder;

  @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE",
      description = "The filter file to write (replaced if it exists).")
  Path output;

  @Mixin Summary summary;

  @Override
  public Integer call() {
    FileAccess.requireWritable(output);
    CuckooFilter filter;
    try {
      filter = RedisBloomDump.load(RedisDumpFolder.read(folder));
    } catch (CorruptFilterException e) {
      throw new CommandError(folder + ": not a valid RedisBloom dump: " + e.getMessage(), e);
    } catch (OutOfMemoryError e) {
      throw CommandError.outOfMemory("load " + folder);
    }
    FileAccess.writeAtomically(output, filter::writeTo);
    summary.print(out -> {
      out.println("wrote " + output + " from " + folder);
      new FilterReport(filter).printText(out);
    });
    return CuckooCommand.EXIT_OK;
  }
}
