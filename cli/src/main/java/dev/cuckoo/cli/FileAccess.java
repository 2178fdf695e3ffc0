package dev.cuckoo.cli;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterFileInfo;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.HashStrategy;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The command's access to files: inputs and filters are opened with one-line errors that name
 * the file ({@link CommandError}), and outputs are written atomically, to a temporary file in
 * the same folder that is then renamed over the target, so that a failure never leaves a
 * half-written file where the output should be.
 */
final class FileAccess {
  private static final int BUFFER_BYTES = 1 << 16;

  private FileAccess() {}

  /** The bytes to write into a file. */
  interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  /**
   * @param path a file to read
   * @return a buffered stream over it
   * @throws CommandError if it is missing, a folder or unreadable
   */
  static InputStream open(Path path) {
    if (Files.isDirectory(path)) {
      throw new CommandError(path + ": is a folder, not a file");
    }
    try {
      return new BufferedInputStream(Files.newInputStream(path), BUFFER_BYTES);
    } catch (IOException e) {
      throw failure(path, e);
    }
  }

  /**
   * @param path a file
   * @return its size in bytes
   * @throws CommandError if it is missing or cannot be read
   */
  static long size(Path path) {
    try {
      return Files.size(path);
    } catch (IOException e) {
      throw failure(path, e);
    }
  }

  /**
   * Reads a filter file of any installed variant and hash; the file must hold exactly one filter.
   *
   * @param path the filter file
   * @return the filter
   * @throws CommandError as {@link #readFilter(Path, HashPath)} does
   */
  static CuckooFilter readFilter(Path path) {
    return readFilter(path, new HashPath());
  }

  /**
   * Reads a filter file of any installed variant; the file must hold exactly one filter.
   *
   * @param path the filter file
   * @param hashes where to find a hash that is not installed
   * @return the filter
   * @throws CommandError if the file is missing, unreadable, corrupt, of a variant that is not
   *     installed or a hash that neither is installed nor on the hash path, or followed by other
   *     bytes
   */
  static CuckooFilter readFilter(Path path, HashPath hashes) {
    return readFilter(path, hashes, headerOf(path));
  }

  /** {@link #readFilter(Path, HashPath)} with the file's header already read ({@code null} if none reads). */
  private static CuckooFilter readFilter(Path path, HashPath hashes, FilterFileInfo header) {
    String hashName = header == null ? null : hashOf(header);
    HashStrategy given = hashName == null ? null : hashes.notInstalled(hashName, seedOf(header));
    try (InputStream in = open(path)) {
      CuckooFilter filter = given != null ? CuckooFilters.read(in, given) : CuckooFilters.read(in);
      if (in.read() != -1) {
        throw new CommandError(path + ": not a valid filter file: more bytes follow the filter's end");
      }
      return filter;
    } catch (CorruptFilterException e) {
      if (isRefusalOfIntactFile(e) && hashName != null && given == null && !CuckooFilters.hashes().contains(hashName)) {
        throw new CommandError(path + ": built with hash " + hashName + ", and hash " + hashName
            + " is not installed here: give its jar or folder with --hash-path (installed hashes: "
            + String.join(", ", CuckooFilters.hashes()) + ")", e);
      }
      if (header != null && header.beingChanged()) {
        throw beingChanged(path, e);
      }
      throw notValid(path, e);
    } catch (IOException e) {
      throw failure(path, e);
    } catch (IllegalArgumentException | OutOfMemoryError e) {
      // The library refuses a filter the heap cannot hold before reading it (and one that did
      // not fit in what was free, as it read): the advice here is the command's, not the API's.
      throw noRoomToRead(path, header, e);
    }
  }

  /**
   * @param path a filter file
   * @param e why it cannot be used
   * @return the one-line error: the file, that it is not valid, and why, naming the file once
   */
  static CommandError notValid(Path path, IOException e) {
    String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (why.startsWith(path.toString())) {
      return new CommandError(why, e); // the library named the file already
    }
    return new CommandError(path + ": not a valid filter file: " + why, e);
  }

  /**
   * @return the error for a file marked as being changed, from {@link CuckooFilters#open}, which
   *     tells a writer that has it open now from one that stopped (its lock tells)
   */
  private static CommandError beingChanged(Path path, Exception readRefusal) {
    try {
      CuckooFilters.open(path).close();
      return new CommandError(path + ": " + readRefusal.getMessage(), readRefusal); // it was forced meanwhile
    } catch (CorruptFilterException e) {
      return new CommandError(e.getMessage(), e);
    } catch (IOException | RuntimeException e) {
      return new CommandError(path + ": " + readRefusal.getMessage(), readRefusal);
    }
  }

  /**
   * @param path the file
   * @param header its header, or {@code null}
   * @param cause the library's refusal, or the {@code OutOfMemoryError} of the read
   * @return the error for a filter larger than the heap: the file's size, the heap's, and what
   *     to do from the command line
   */
  static CommandError noRoomToRead(Path path, FilterFileInfo header, Throwable cause) {
    long bytes = size(path);
    long heap = Runtime.getRuntime().maxMemory();
    String instead = "";
    if (header != null && header.formatVersion() < header.currentFormatVersion() && mapsFiles(header.variant())) {
      instead = "'cuckoo convert " + path + " NEW' rewrites it in format version " + header.currentFormatVersion()
          + " without reading it onto the heap, and query and info then map NEW without reading it; or ";
    }
    return new CommandError(path + ": its filter (" + TextFormat.mebibytes(bytes) + ") does not fit in Java's heap"
        + " here (" + TextFormat.mebibytes(heap) + "): " + instead + CommandError.moreHeap(bytes), cause);
  }

  /** @return whether a variant of that name is installed and maps its files */
  static boolean mapsFiles(String variant) {
    return CuckooFilters.variants().contains(variant) && CuckooFilters.variant(variant).mapsFiles();
  }

  /** @return the installed variants that map their files, for messages */
  static String mappingVariants() {
    java.util.List<String> names = new java.util.ArrayList<>();
    for (String v : CuckooFilters.variants()) {
      if (CuckooFilters.variant(v).mapsFiles()) {
        names.add(v);
      }
    }
    return String.join(", ", names);
  }

  /**
   * Opens a filter file mapped ({@link CuckooFilters#open}: milliseconds at any size) when its
   * variant maps and its hash is installed, and reads it ({@link #readFilter}) otherwise: a file
   * of an older format version, a variant that does not map, a hash from the hash path, and a
   * file that open refuses (reading it then reports what is wrong, as for every file).
   *
   * @param path the filter file
   * @param hashes where to find a hash that is not installed
   * @return the filter
   * @throws CommandError as {@link #readFilter} does
   */
  static CuckooFilter openFilter(Path path, HashPath hashes, java.io.PrintWriter notices) {
    return openFilter(path, hashes, headerOf(path), notices);
  }

  /** {@link #openFilter(Path, HashPath, java.io.PrintWriter)} with the file's header already read ({@code null} if none reads). */
  static CuckooFilter openFilter(Path path, HashPath hashes, FilterFileInfo header, java.io.PrintWriter notices) {
    if (header == null || !header.maps() || !Files.isRegularFile(path)) {
      return readFilter(path, hashes, header);
    }
    String hashName = hashOf(header);
    if (hashName == null || !CuckooFilters.hashes().contains(hashName)) {
      return readFilter(path, hashes, header);
    }
    try {
      dev.cuckoo.MappedFilter opened = CuckooFilters.open(path);
      if (opened.recovery().isPresent()) {
        // open recovered it: a command that only reads says that it wrote the file
        notices.println("cuckoo: " + opened.recovery().get().description());
        notices.flush();
      }
      return opened;
    } catch (CorruptFilterException e) {
      if (header.beingChanged()) {
        // open recovers a file whose writer stopped, or says why it cannot: its message is the one to give
        throw new CommandError(e.getMessage(), e);
      }
      return readFilter(path, hashes, header); // a damaged file: reading it says what is wrong, as for any file
    } catch (IOException e) {
      throw failure(path, e); // a writer has it open now: open says so
    }
  }

  /**
   * @param path a filter file
   * @param hashes where to find a hash that is not installed
   * @return the file's header if the file is intact but its hash is neither installed nor on
   *     the hash path, so that it can be described; else {@code null}
   */
  static FilterFileInfo headerIfHashMissing(Path path, HashPath hashes) {
    FilterFileInfo header = headerOf(path);
    String hashName = header == null ? null : hashOf(header);
    if (hashName == null || CuckooFilters.hashes().contains(hashName)
        || hashes.notInstalled(hashName, seedOf(header)) != null) {
      return null;
    }
    try (InputStream in = open(path)) {
      CuckooFilters.read(in);
      return null; // not expected: the hash is missing
    } catch (CorruptFilterException e) {
      return isRefusalOfIntactFile(e) ? header : null;
    } catch (IOException e) {
      throw failure(path, e);
    }
  }

  /**
   * @return whether the reader refused a name or spec of a file whose checksum holds, rather
   *     than found it damaged: it then throws with the configuration error as the cause
   */
  private static boolean isRefusalOfIntactFile(CorruptFilterException e) {
    return e.getCause() instanceof IllegalArgumentException;
  }

  /** @return the header, or {@code null} if the file has none that reads (the full read says why) */
  static FilterFileInfo headerOf(Path path) {
    if (Files.isDirectory(path)) {
      throw new CommandError(path + ": is a folder, not a file");
    }
    try {
      return CuckooFilters.describe(path);
    } catch (CorruptFilterException e) {
      return null;
    } catch (IOException e) {
      throw failure(path, e);
    }
  }

  /** @return the hash the header's spec names, or {@code null} if it names none or is no spec */
  static String hashOf(FilterFileInfo header) {
    try {
      return FilterSpec.parse(header.spec()).hash().orElse(null);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static long seedOf(FilterFileInfo header) {
    return FilterSpec.parse(header.spec()).seed().orElse(0L);
  }

  /**
   * Writes a file atomically: the content goes to a temporary file next to the target, is
   * forced to the disk, and only then replaces the target. If anything fails, the target is as
   * it was and the temporary file is gone.
   *
   * @param target the file to write; its folder must exist
   * @param content what to write
   * @throws CommandError if the target is a folder, its folder is missing, or writing fails
   */
  static void writeAtomically(Path target, Content content) {
    requireWritable(target);
    Path absolute = target.toAbsolutePath();
    Path temp = TemporaryFiles.forTarget(target);
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
          OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), BUFFER_BYTES)) {
        content.writeTo(out);
        out.flush();
        channel.force(true);
      }
      moveReplacing(temp, absolute);
    } catch (IOException e) {
      throw failure(target, e);
    } finally {
      TemporaryFiles.release(temp);
    }
  }

  /**
   * Checks, before any work is done, that {@link #writeAtomically} can write a file there.
   *
   * @param target the file to write
   * @throws CommandError if it is a folder or its folder is missing
   */
  static void requireWritable(Path target) {
    Path absolute = target.toAbsolutePath();
    Path folder = absolute.getParent();
    if (Files.isDirectory(absolute)) {
      throw new CommandError(target + ": is a folder; give the name of the file to write");
    }
    if (folder == null || !Files.isDirectory(folder)) {
      throw new CommandError(target + ": cannot write it: folder " + folder + " does not exist");
    }
  }

  /**
   * Renames {@code from} to {@code to}, replacing it: atomically where the file system can.
   */
  static void moveReplacing(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /**
   * @throws CommandError if {@code output} is the same file as {@code input}
   */
  static void requireNotSameFile(Path input, Path output, String outputOption) {
    try {
      if (Files.exists(input) && Files.exists(output) && Files.isSameFile(input, output)) {
        throw new CommandError(outputOption + " " + output + " is the input file itself: give another name");
      }
    } catch (IOException e) {
      throw failure(output, e);
    }
  }

  /**
   * @param path the file the failure is about
   * @param e the failure
   * @return the one-line error: the file, then what went wrong
   */
  static CommandError failure(Path path, IOException e) {
    String why;
    if (e instanceof NoSuchFileException) {
      why = "no such file";
    } else if (e instanceof AccessDeniedException) {
      why = "permission denied";
    } else if (e instanceof FileSystemException fs && fs.getReason() != null) {
      why = fs.getReason();
    } else {
      why = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
    if (why.startsWith(path.toString())) {
      return new CommandError(why, e); // the library named the file already
    }
    return new CommandError(path + ": " + why, e);
  }
}
