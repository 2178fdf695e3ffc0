package dev.cuckoo.cli;

import dev.cuckoo.logstore.LogStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cuckoo store}: files in a {@link LogStore}, cut into chunks keyed by their SHA-1, the
 * log-structured store with a cuckoo index of tag and offset: {@code import} stores a file's
 * chunks (each distinct chunk once) and a {@link ChunkManifest} of their order, {@code export}
 * writes it back byte for byte, {@code info} says what the store holds and what a get costs.
 */
@Command(
    name = "store",
    mixinStandardHelpOptions = true,
    subcommands = {StoreCommand.Import.class, StoreCommand.Export.class, StoreCommand.Info.class},
    description = {
      "Keep files in a log store: chunks keyed by their SHA-1, and a manifest of their order.",
      "",
      "A log store is a folder holding an append-only log and, in memory while it is open, a "
          + "cuckoo index of a 12-bit tag and the log offset per key: a get of an absent key "
          + "reads nothing from the disk, a get of a present key about one record.",
      "",
    })
final class StoreCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** {@code cuckoo store} alone: the usage, as an error. */
  @Override
  public Integer call() {
    spec.commandLine().getErr().println("cuckoo: give a store command: import, export or info");
    spec.commandLine().usage(spec.commandLine().getErr());
    return CuckooCommand.EXIT_ERROR;
  }

  /** {@code STORE}, the folder of the log store a store command works on. */
  static final class Folder {
    @Parameters(index = "0", paramLabel = "STORE", description = "The store's folder.")
    Path path;

    /**
     * Opens the store, turning its failures into one-line errors.
     *
     * @param forWriting whether to open it for writing, creating it if missing; else it must
     *     exist, and is opened {@linkplain LogStore#openReadOnly read-only}, so that a store the
     *     user cannot write can still be read
     */
    LogStore open(boolean forWriting) {
      if (Files.isRegularFile(path)) {
        throw new CommandError(path + " is a file, not a store folder");
      }
      if (!forWriting && !LogStore.exists(path)) {
        throw new CommandError(path + ": no log store there (cuckoo store import creates one)");
      }
      try {
        return forWriting ? LogStore.open(path) : LogStore.openReadOnly(path);
      } catch (IOException e) {
        throw FileAccess.failure(path, e);
      }
    }

    /** @return the folder as the user gave it, which is how messages name the store */
    @Override
    public String toString() {
      return String.valueOf(path);
    }
  }

  static MessageDigest sha1() {
    try {
      return MessageDigest.getInstance("SHA-1");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-1", e);
    }
  }

  /** @return the names imported into the store, the latest last */
  static List<String> names(LogStore s) throws IOException {
    byte[] index = s.get(ChunkManifest.INDEX_KEY.getBytes(StandardCharsets.UTF_8));
    List<String> names = new ArrayList<>();
    if (index != null) {
      for (String line : new String(index, StandardCharsets.UTF_8).split("\n")) {
        if (!line.isEmpty()) {
          names.add(line);
        }
      }
    }
    return names;
  }

  /** @return the manifest stored under a name */
  static ChunkManifest manifest(LogStore s, Folder store, String name) throws IOException {
    byte[] bytes = s.get(ChunkManifest.key(name));
    if (bytes == null) {
      throw new CommandError(store + ": holds no file named '" + name + "'");
    }
    return ChunkManifest.parse(bytes, name);
  }

  /** {@code cuckoo store import STORE FILE}. */
  @Command(
      name = "import",
      mixinStandardHelpOptions = true,
      description = {
        "Store a file in a log store as chunks keyed by their SHA-1 (created if missing).",
        "",
        "Cuts FILE into chunks, stores each chunk the store does not already hold, and a manifest "
            + "of their order under the file's name, so that 'cuckoo store export' writes it back "
            + "byte for byte. Importing again under the same name replaces the manifest.",
        "",
      })
  static final class Import implements Callable<Integer> {
    @Mixin Folder store;

    @Parameters(index = "1", paramLabel = "FILE", description = "The file to store.")
    Path file;

    @Option(names = "--chunk-size", paramLabel = "BYTES", defaultValue = "65536",
        description = "Bytes per chunk, 1024 to 16777216 (default: ${DEFAULT-VALUE}).")
    int chunkBytes;

    @Option(names = "--name", paramLabel = "NAME",
        description = "The name to store the file under (default: FILE's file name).")
    String name;

    @Mixin Summary summary;

    @Override
    public Integer call() throws IOException {
      if (chunkBytes < 1024 || chunkBytes > LogStore.MAX_VALUE_BYTES) {
        throw new CommandError("--chunk-size " + chunkBytes + " is out of range: 1024 to " + LogStore.MAX_VALUE_BYTES);
      }
      String as = name != null ? name : String.valueOf(file.getFileName());
      if (as.isEmpty() || as.contains("\n")) {
        throw new CommandError("--name must be a non-empty name on one line");
      }
      long fileBytes = FileAccess.size(file);
      long chunks = ChunkManifest.chunksOf(fileBytes, chunkBytes);
      if (chunks > ChunkManifest.MAX_CHUNKS) {
        throw new CommandError(file + ": " + TextFormat.things(chunks, "chunk") + " of " + chunkBytes
            + " bytes are more than one manifest lists (" + ChunkManifest.MAX_CHUNKS + "): give a larger --chunk-size");
      }
      long started = System.nanoTime();
      byte[] digests = new byte[Math.toIntExact(chunks * ChunkManifest.DIGEST_BYTES)];
      long stored = 0;
      try (LogStore s = store.open(true); InputStream in = FileAccess.open(file)) {
        MessageDigest sha1 = sha1();
        byte[] chunk = new byte[chunkBytes];
        long read = 0;
        for (int i = 0; i < chunks; i++) {
          int length = in.readNBytes(chunk, 0, chunkBytes);
          read += length;
          byte[] value = length == chunkBytes ? chunk : Arrays.copyOf(chunk, length);
          sha1.update(value);
          byte[] key = sha1.digest();
          System.arraycopy(key, 0, digests, i * ChunkManifest.DIGEST_BYTES, ChunkManifest.DIGEST_BYTES);
          if (s.get(key) == null) {
            s.put(key, value);
            stored++;
          }
        }
        if (read != fileBytes || in.read() >= 0) {
          throw new CommandError(file + ": changed while it was read (" + fileBytes + " bytes, then " + read + ")");
        }
        s.put(ChunkManifest.key(as), new ChunkManifest(fileBytes, chunkBytes, digests).toBytes());
        List<String> names = names(s);
        names.remove(as);
        names.add(as);
        s.put(ChunkManifest.INDEX_KEY.getBytes(StandardCharsets.UTF_8),
            String.join("\n", names).getBytes(StandardCharsets.UTF_8));
        s.flush();
      } catch (IOException e) {
        throw FileAccess.failure(store.path, e);
      }
      long nanos = System.nanoTime() - started;
      long newChunks = stored;
      summary.print(out -> out.printf(Locale.ROOT,
          "imported %s into %s as '%s': %s bytes, %s (%s new, %s already stored) in %s (%.0f MB/s)%n",
          file, store, as, TextFormat.grouped(fileBytes), TextFormat.things(chunks, "chunk"),
          TextFormat.grouped(newChunks), TextFormat.grouped(chunks - newChunks), TextFormat.seconds(nanos),
          fileBytes / (nanos / 1e9) / 1e6));
      return CuckooCommand.EXIT_OK;
    }
  }

  /** {@code cuckoo store export STORE OUT}. */
  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      description = {
        "Write a file stored with 'cuckoo store import' back, byte for byte.",
        "",
        "Looks up every chunk of the file's manifest by its SHA-1 and checks it against that "
            + "digest; OUT is written to a temporary file and renamed into place only when whole.",
        "",
      })
  static final class Export implements Callable<Integer> {
    @Mixin Folder store;

    @Parameters(index = "1", paramLabel = "OUT", description = "The file to write (replaced if it exists).")
    Path output;

    @Option(names = "--name", paramLabel = "NAME",
        description = "The stored file to write; needed when the store holds more than one.")
    String name;

    @Mixin Summary summary;

    @Override
    public Integer call() {
      FileAccess.requireWritable(output);
      long started = System.nanoTime();
      String exported;
      ChunkManifest manifest;
      try (LogStore s = store.open(false)) {
        List<String> names = names(s);
        if (name == null && names.isEmpty()) {
          throw new CommandError(store + ": holds no imported file");
        }
        // Guessing which file was meant would replace OUT with another file without a word.
        if (name == null && names.size() > 1) {
          throw new CommandError(store + " holds " + names.size() + " files: give the one to write with --name: "
              + String.join(", ", names));
        }
        exported = name != null ? name : names.get(0);
        manifest = manifest(s, store, exported);
        MessageDigest sha1 = sha1();
        FileAccess.writeAtomically(output, out -> {
          for (int i = 0; i < manifest.chunks(); i++) {
            byte[] key = manifest.digest(i);
            byte[] chunk = s.get(key);
            String which = "chunk " + i + " of '" + exported + "' (SHA-1 " + HexFormat.of().formatHex(key) + ")";
            if (chunk == null) {
              throw new CommandError(store + ": " + which + " is missing");
            }
            if (chunk.length != manifest.chunkLength(i) || !Arrays.equals(sha1.digest(chunk), key)) {
              throw new CommandError(store + ": " + which + " holds other bytes");
            }
            out.write(chunk);
          }
        });
      } catch (IOException e) {
        throw FileAccess.failure(store.path, e);
      }
      long nanos = System.nanoTime() - started;
      summary.print(out -> out.printf(Locale.ROOT, "exported '%s' from %s to %s: %s bytes, %s in %s%n", exported,
          store, output, TextFormat.grouped(manifest.fileBytes), TextFormat.things(manifest.chunks(), "chunk"),
          TextFormat.seconds(nanos)));
      return CuckooCommand.EXIT_OK;
    }
  }

  /** {@code cuckoo store info STORE}. */
  @Command(
      name = "info",
      mixinStandardHelpOptions = true,
      description = {
        "Describe a log store: records, live keys, index memory, and what a get reads.",
        "",
        "Reads per get are measured: a get of each chunk the manifests list (up to --samples), "
            + "and of as many random absent keys, counting the records each reads from the log.",
        "",
      })
  static final class Info implements Callable<Integer> {
    @Mixin Folder store;

    @Option(names = "--samples", paramLabel = "N", defaultValue = "100000",
        description = "Gets to measure, present and absent each (default: ${DEFAULT-VALUE}).")
    int samples;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      if (samples < 1) {
        throw new CommandError("--samples must be at least 1");
      }
      PrintWriter out = spec.commandLine().getOut();
      try (LogStore s = store.open(false)) {
        long keys = s.size();
        List<String> names = names(s);
        FilterReport.row(out, "store", store.toString());
        FilterReport.row(out, "records", TextFormat.grouped(s.records()) + " (puts and tombstones in the log)");
        FilterReport.row(out, "live keys", TextFormat.grouped(keys));
        FilterReport.row(out, "log", TextFormat.grouped(s.logSizeInBytes()) + " bytes");
        FilterReport.row(out, "index", TextFormat.grouped(s.indexSizeInBytes()) + " bytes"
            + (keys == 0 ? "" : String.format(Locale.ROOT, " (%.2f bytes per key)", s.indexSizeInBytes() / (double) keys)));
        FilterReport.row(out, "files", names.isEmpty() ? "none" : String.join(", ", names));
        long hits = 0;
        long before = s.recordReads();
        for (int n = names.size() - 1; n >= 0 && hits < samples; n--) {
          ChunkManifest m = manifest(s, store, names.get(n));
          for (int i = 0; i < m.chunks() && hits < samples; i++) {
            s.get(m.digest(i));
            hits++;
          }
        }
        long hitReads = s.recordReads() - before;
        SplittableRandom random = new SplittableRandom(samples);
        byte[] absent = new byte[ChunkManifest.DIGEST_BYTES + 1]; // 21 bytes: never a chunk's key
        before = s.recordReads();
        for (int i = 0; i < samples; i++) {
          random.nextBytes(absent);
          s.get(absent);
        }
        long missReads = s.recordReads() - before;
        FilterReport.row(out, "reads per get", (hits == 0 ? "no chunk to sample"
            : String.format(Locale.ROOT, "%.4f present (%s)", hitReads / (double) hits, TextFormat.things(hits, "chunk")))
            + String.format(Locale.ROOT, ", %.4f absent (%s)", missReads / (double) samples, TextFormat.things(samples, "random key")));
      } catch (IOException e) {
        throw FileAccess.failure(store.path, e);
      }
      out.flush();
      return CuckooCommand.EXIT_OK;
    }
  }
}
