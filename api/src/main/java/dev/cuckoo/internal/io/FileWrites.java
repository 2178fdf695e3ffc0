package dev.cuckoo.internal.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;

/**
 * Every write the library makes to a filter file or to its journal passes through here, one at a
 * time: a store to the file's mapping (table words, undo records, the merge record), a write
 * through its channel (the first page, the stash, the mark, the checksum, a new file's header and
 * zeros), a force, a truncation, a removal and a rename. It is the one place a test stands to
 * see, cut or fail the library's writes: a log of every write to cut the file at any one of them
 * (the process-death test), a disk that keeps only what was forced (the machine-crash test), a
 * disk that fills or fails at a chosen write (the fault test). A write that does not pass here is
 * a write no test can cut at.
 *
 * <p>The instance in use is {@link #installed()}: the operating system's, unless a test installed
 * its own. A file takes the instance installed when it is opened or created, and keeps it.
 *
 * <p>A store to a mapping is made by the caller, at an address: {@link #beforeStore} is called
 * first, and the store follows at once unless it throws. The operating system's does nothing
 * there, and while it is the only subclass loaded the JIT compiles the call to nothing.
 */
public abstract class FileWrites {

  /** For the operating system's and for tests' own. */
  protected FileWrites() {}

  private static volatile FileWrites installed = OperatingSystem.INSTANCE;

  /** @return the writes in use: the operating system's unless a test installed its own */
  public static FileWrites installed() {
    return installed;
  }

  /** @return the operating system's writes, which a test's own pass on to */
  public static FileWrites system() {
    return OperatingSystem.INSTANCE;
  }

  /**
   * For tests: from now on, files opened or created take these writes.
   *
   * @param writes the writes, or {@code null} for the operating system's
   */
  public static void install(FileWrites writes) {
    installed = writes == null ? OperatingSystem.INSTANCE : writes;
  }

  /**
   * Opens a filter file or a journal.
   *
   * @param path the file
   * @param options as {@link FileChannel#open(Path, Set, java.nio.file.attribute.FileAttribute[])}
   * @return the channel
   * @throws IOException if it cannot be opened
   */
  public abstract FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException;

  /**
   * Writes all of {@code bytes}, from its position to its limit, at a position of the file.
   *
   * @param path the file, for what a test keeps and for messages
   * @param channel its channel
   * @param bytes what to write; its position is moved to its limit
   * @param position where in the file
   * @throws IOException if writing fails
   */
  public abstract void write(Path path, FileChannel channel, ByteBuffer bytes, long position) throws IOException;

  /** Zeros written at a time by {@link #allocate}. */
  private static final int ZEROS = 1 << 20;

  /**
   * Gives a new file its blocks: writes zeros over {@code [position, position + length)}, a MiB
   * at a time through {@link #write}, so that the file system takes the room now and no later
   * store into the file's mapping needs any. (Java 17 has no {@code fallocate}.)
   *
   * @param path the file
   * @param channel its channel
   * @param position where the zeros start
   * @param length how many
   * @throws IOException if writing fails: for a full disk, with the system's message
   */
  public void allocate(Path path, FileChannel channel, long position, long length) throws IOException {
    ByteBuffer zeros = ByteBuffer.allocateDirect((int) Math.max(1, Math.min(ZEROS, length)));
    for (long at = position; at < position + length; ) {
      zeros.clear().limit((int) Math.min(zeros.capacity(), position + length - at));
      write(path, channel, zeros, at);
      at += zeros.limit();
    }
  }

  /**
   * @param path the file
   * @param channel its channel
   * @param size the file's new length, at most its length now
   * @throws IOException if truncating fails
   */
  public abstract void truncate(Path path, FileChannel channel, long size) throws IOException;

  /**
   * Waits until what was written through the channel is on the storage device.
   *
   * @param path the file
   * @param channel its channel
   * @param metadata whether the file's metadata (its length, say) must be too
   * @throws IOException if the device reports a failure
   */
  public abstract void force(Path path, FileChannel channel, boolean metadata) throws IOException;

  /**
   * Maps part of a file.
   *
   * @param path the file
   * @param channel its channel
   * @param mode as {@link FileChannel#map}
   * @param position where the mapping starts in the file
   * @param size its length
   * @return the mapping
   * @throws IOException if mapping fails
   */
  public abstract MappedByteBuffer map(Path path, FileChannel channel, FileChannel.MapMode mode, long position,
      long size) throws IOException;

  /**
   * Writes the changed pages of a shared mapping to the file and waits for them.
   *
   * @param path the file the mapping is of
   * @param mapping the mapping, made by {@link #map}
   * @throws IOException if the device reports a failure
   */
  public abstract void force(Path path, MappedByteBuffer mapping) throws IOException;

  /**
   * Called before each store of eight bytes to a mapping made by {@link #map}; the caller makes
   * the store at once after. Nothing, for the operating system.
   *
   * @param address where the store goes
   * @param value the bytes stored, as the store lays them in memory
   */
  public abstract void beforeStore(long address, long value);

  /**
   * Removes a file, if it exists.
   *
   * @param path the file
   * @return whether it existed
   * @throws IOException if removing it fails
   */
  public abstract boolean delete(Path path) throws IOException;

  /**
   * Renames a file to a name that does not exist yet.
   *
   * @param from the file
   * @param to its new name, in the same folder
   * @throws java.nio.file.FileAlreadyExistsException if {@code to} exists
   * @throws IOException if renaming fails
   */
  public abstract void rename(Path from, Path to) throws IOException;

  /**
   * Waits until the names in a folder (a file created, renamed or removed there) are on the
   * storage device; nothing where the system cannot open a folder for that.
   *
   * @param folder the folder
   * @throws IOException if the device reports a failure
   */
  public abstract void forceFolder(Path folder) throws IOException;

  /** The operating system's writes: each call does what it says, and {@link #beforeStore} nothing. */
  private static final class OperatingSystem extends FileWrites {
    static final OperatingSystem INSTANCE = new OperatingSystem();

    @Override
    public FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
      return FileChannel.open(path, options);
    }

    @Override
    public void write(Path path, FileChannel channel, ByteBuffer bytes, long position) throws IOException {
      long at = position;
      while (bytes.hasRemaining()) {
        at += channel.write(bytes, at);
      }
    }

    @Override
    public void truncate(Path path, FileChannel channel, long size) throws IOException {
      channel.truncate(size);
    }

    @Override
    public void force(Path path, FileChannel channel, boolean metadata) throws IOException {
      channel.force(metadata);
    }

    @Override
    public MappedByteBuffer map(Path path, FileChannel channel, FileChannel.MapMode mode, long position, long size)
        throws IOException {
      return channel.map(mode, position, size);
    }

    @Override
    public void force(Path path, MappedByteBuffer mapping) throws IOException {
      try {
        mapping.force();
      } catch (java.io.UncheckedIOException e) {
        throw e.getCause(); // Java 17 wraps msync's failure
      }
    }

    @Override
    public void beforeStore(long address, long value) {
      // the store is the caller's
    }

    @Override
    public boolean delete(Path path) throws IOException {
      return java.nio.file.Files.deleteIfExists(path);
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
      Objects.requireNonNull(to, "to must not be null");
      java.nio.file.Files.move(from, to); // refuses an existing name
    }

    @Override
    public void forceFolder(Path folder) throws IOException {
      FileChannel d;
      try {
        d = FileChannel.open(folder, java.nio.file.StandardOpenOption.READ);
      } catch (IOException | UnsupportedOperationException notOnThisSystem) {
        return; // some systems cannot open a folder: there a new name is as durable as they make it
      }
      try (d) {
        d.force(true);
      }
    }
  }
}
