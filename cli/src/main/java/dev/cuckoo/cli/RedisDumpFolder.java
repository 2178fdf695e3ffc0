package dev.cuckoo.cli;

import dev.cuckoo.scalable.RedisBloomDump;
import dev.cuckoo.scalable.RedisBloomDump.Chunk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A RedisBloom dump as a folder of files: {@code index.txt}, one line per chunk in the order
 * {@code CF.SCANDUMP} returns them, {@code ITERATOR LENGTH FILE}; and each chunk's bytes in its
 * own file, {@code 0000.bin} (the 38-byte header, iterator 1), {@code 0001.bin}, ... Feeding each
 * {@code (ITERATOR, bytes)} pair to {@code CF.LOADCHUNK} in that order rebuilds the filter in
 * Redis. This is the layout of the conformance vectors in {@code
 * scalable/src/test/resources/redisbloom/}.
 *
 * <p>Reading checks everything before it allocates: each index line's form, that its file is a
 * plain name inside the folder, exists, and holds exactly LENGTH bytes.
 */
final class RedisDumpFolder {
  /** The index file's name. */
  static final String INDEX = "index.txt";

  private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,254}");

  private RedisDumpFolder() {}

  /**
   * Writes the chunks into a new folder, atomically: into a temporary folder beside it that is
   * then renamed, so a failure never leaves a partial dump.
   *
   * @param chunks the chunks, in {@code CF.SCANDUMP} order
   * @param folder the folder to create; it may exist if it is empty
   * @throws CommandError if the folder exists and is not empty, its parent is missing, or
   *     writing fails
   */
  static void write(List<Chunk> chunks, Path folder) {
    Path absolute = folder.toAbsolutePath();
    Path parent = absolute.getParent();
    if (Files.exists(absolute) && !isEmptyFolder(absolute)) {
      throw new CommandError(folder + ": already exists and is not an empty folder; give a new folder for the dump");
    }
    if (parent == null || !Files.isDirectory(parent)) {
      throw new CommandError(folder + ": cannot create it: folder " + parent + " does not exist");
    }
    Path temp = parent.resolve(
        "." + absolute.getFileName() + "." + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".tmp");
    try {
      Files.createDirectory(temp);
      StringBuilder index = new StringBuilder();
      for (int i = 0; i < chunks.size(); i++) {
        Chunk c = chunks.get(i);
        String file = String.format(Locale.ROOT, "%04d.bin", i);
        Files.write(temp.resolve(file), c.data());
        index.append(c.iterator()).append(' ').append(c.data().length).append(' ').append(file).append('\n');
      }
      Files.writeString(temp.resolve(INDEX), index, StandardCharsets.UTF_8);
      Files.deleteIfExists(absolute);
      FileAccess.moveReplacing(temp, absolute);
    } catch (IOException e) {
      throw FileAccess.failure(folder, e);
    } finally {
      deleteTree(temp);
    }
  }

  /**
   * Reads the chunks a folder holds.
   *
   * @param folder a folder written by {@link #write} (or in its layout)
   * @return the chunks, in the index's order
   * @throws CommandError naming the folder, index line or file at fault
   */
  static List<Chunk> read(Path folder) {
    if (!Files.exists(folder)) {
      throw new CommandError(folder + ": no such folder");
    }
    if (!Files.isDirectory(folder)) {
      throw new CommandError(folder + ": is not a folder; give the folder export-redis wrote");
    }
    Path indexFile = folder.resolve(INDEX);
    if (!Files.isRegularFile(indexFile)) {
      throw new CommandError(folder + ": has no " + INDEX + ", so it is not a RedisBloom dump folder"
          + " (export-redis writes " + INDEX + " and 0000.bin, 0001.bin, ...)");
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(indexFile, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw FileAccess.failure(indexFile, e);
    }
    List<Chunk> chunks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (!line.isEmpty()) {
        chunks.add(chunk(folder, indexFile + ":" + (i + 1), line));
      }
    }
    if (chunks.isEmpty()) {
      throw new CommandError(indexFile + ": lists no chunk");
    }
    return chunks;
  }

  private static Chunk chunk(Path folder, String where, String line) {
    String[] fields = line.split("\\s+");
    if (fields.length != 3) {
      throw new CommandError(where + ": expected 'ITERATOR LENGTH FILE', found '" + line + "'");
    }
    long iterator = number(where, "iterator", fields[0], 1, Long.MAX_VALUE);
    int length = (int) number(where, "length", fields[1], 1, RedisBloomDump.MAX_CHUNK_BYTES);
    if (!FILE_NAME.matcher(fields[2]).matches()) {
      throw new CommandError(where + ": file '" + fields[2] + "' is not a plain file name inside the folder");
    }
    Path file = folder.resolve(fields[2]);
    if (!Files.isRegularFile(file)) {
      throw new CommandError(where + ": chunk file " + file + " is missing");
    }
    try {
      long size = Files.size(file);
      if (size != length) {
        throw new CommandError(where + ": chunk file " + file + " holds " + size + " bytes, not the "
            + length + " the index gives");
      }
      return new Chunk(iterator, Files.readAllBytes(file));
    } catch (IOException e) {
      throw FileAccess.failure(file, e);
    }
  }

  private static long number(String where, String field, String text, long min, long max) {
    long n;
    try {
      n = Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new CommandError(where + ": " + field + " '" + text + "' is not a whole number");
    }
    if (n < min || n > max) {
      throw new CommandError(where + ": " + field + " " + n + " is out of range " + min + ".." + max);
    }
    return n;
  }

  private static boolean isEmptyFolder(Path path) {
    if (!Files.isDirectory(path)) {
      return false;
    }
    try (Stream<Path> entries = Files.list(path)) {
      return entries.findAny().isEmpty();
    } catch (IOException e) {
      throw FileAccess.failure(path, e);
    }
  }

  private static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException | UncheckedIOException ignored) {
      // a temporary folder is left behind; the dump folder is unharmed either way
    }
  }
}
