package dev.cuckoo.testkit;

import dev.cuckoo.internal.io.FileWrites;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@link FileWrites} that a test watches: every write the library makes to a filter file or its
 * journal is first described to {@link #step} as a {@link Write} (what, which file, where, which
 * bytes), which may throw to stop it (a power cut, a full disk) or record it (a log to cut at),
 * and is then made by the operating system's writes. Stores to a mapping are described with the
 * file and the offset they change, found from the mappings this made; stores to a copy-on-write
 * mapping change no file and are not described.
 *
 * <p>{@link #install} puts it in place for the files opened from then on; {@link #close} takes
 * it away.
 */
public abstract class WatchedWrites extends FileWrites implements AutoCloseable {
  /** What a write does. */
  public enum Kind {
    /** Bytes written through a channel. */
    WRITE,
    /** Eight bytes stored into a shared mapping. */
    STORE,
    /** A file cut to a length. */
    TRUNCATE,
    /** A file made, empty, by an open. */
    CREATE,
    /** A file removed. */
    DELETE,
    /** A file renamed. */
    RENAME,
    /** A file's writes forced to the device (a channel's or a mapping's). */
    FORCE,
    /** A folder's names forced to the device. */
    FORCE_FOLDER
  }

  /**
   * One write.
   *
   * @param kind what it does
   * @param path the file (the folder, for {@link Kind#FORCE_FOLDER})
   * @param to a rename's new name, else {@code null}
   * @param position where in the file, for a write or a store; the new length for a truncation
   * @param bytes what a write or a store puts there, else {@code null}
   */
  @SuppressWarnings("ArrayRecordComponent") // a log's entry, handed on, never compared
  public record Write(Kind kind, Path path, Path to, long position, byte[] bytes) {
    /** @return whether it changes what a file holds or which files there are (a force does not) */
    public boolean changes() {
      return kind != Kind.FORCE && kind != Kind.FORCE_FOLDER;
    }

    @Override
    public String toString() {
      String where = kind == Kind.RENAME ? path.getFileName() + " -> " + to.getFileName()
          : String.valueOf(path.getFileName());
      return kind + " " + where + (bytes == null ? (kind == Kind.TRUNCATE ? " to " + position : "")
          : " [" + position + ", +" + bytes.length + ")");
    }
  }

  private static final FileWrites SYSTEM = FileWrites.system();

  /** The channels this opened, for a test whose writer's process is gone to close. */
  private final java.util.List<FileChannel> opened = new java.util.ArrayList<>();

  /** Live mappings this made, by address: file, position, and whether stores reach the file. */
  private final TreeMap<Long, Mapping> mappings = new TreeMap<>();

  private record Mapping(long address, long size, Path path, long position, boolean shared) {}

  /**
   * Describes a write before it is made.
   *
   * @param write the write
   * @throws IOException to fail it as the system would (the write is not made)
   */
  protected abstract void step(Write write) throws IOException;

  /** Puts these writes in place for files opened from now on. */
  public final void install() {
    FileWrites.install(this);
  }

  /** Puts the operating system's writes back. */
  @Override
  public void close() {
    FileWrites.install(null);
  }

  @Override
  public FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
    boolean creates = (options.contains(StandardOpenOption.CREATE) || options.contains(StandardOpenOption.CREATE_NEW))
        && !java.nio.file.Files.exists(path);
    if (creates) {
      step(new Write(Kind.CREATE, path.toAbsolutePath(), null, 0, null));
    }
    FileChannel channel = SYSTEM.open(path, options);
    synchronized (opened) {
      opened.add(channel);
    }
    return channel;
  }

  /** Closes every channel this opened, as the end of the writer's process would: its locks go with them. */
  protected final void closeChannels() throws IOException {
    synchronized (opened) {
      for (FileChannel c : opened) {
        c.close();
      }
      opened.clear();
    }
  }

  @Override
  public void write(Path path, FileChannel channel, ByteBuffer bytes, long position) throws IOException {
    byte[] copy = new byte[bytes.remaining()];
    bytes.duplicate().get(copy);
    step(new Write(Kind.WRITE, path.toAbsolutePath(), null, position, copy));
    SYSTEM.write(path, channel, bytes, position);
  }

  @Override
  public void truncate(Path path, FileChannel channel, long size) throws IOException {
    if (size < channel.size()) {
      step(new Write(Kind.TRUNCATE, path.toAbsolutePath(), null, size, null));
    }
    SYSTEM.truncate(path, channel, size);
  }

  @Override
  public void force(Path path, FileChannel channel, boolean metadata) throws IOException {
    step(new Write(Kind.FORCE, path.toAbsolutePath(), null, 0, null));
    if (forcesReachDevice()) {
      SYSTEM.force(path, channel, metadata);
    }
  }

  @Override
  public MappedByteBuffer map(Path path, FileChannel channel, FileChannel.MapMode mode, long position, long size)
      throws IOException {
    MappedByteBuffer mapping = SYSTEM.map(path, channel, mode, position, size);
    long address = MappingAddress.of(mapping);
    synchronized (mappings) {
      // Live mappings do not overlap: any this overlaps was unmapped.
      Map.Entry<Long, Mapping> below = mappings.floorEntry(address);
      if (below != null && below.getValue().address() + below.getValue().size() > address) {
        mappings.remove(below.getKey());
      }
      mappings.subMap(address, address + size).clear();
      mappings.put(address, new Mapping(address, size, path.toAbsolutePath(), position,
          mode != FileChannel.MapMode.PRIVATE));
    }
    return mapping;
  }

  @Override
  public void force(Path path, MappedByteBuffer mapping) throws IOException {
    step(new Write(Kind.FORCE, path.toAbsolutePath(), null, 0, null));
    if (forcesReachDevice()) {
      SYSTEM.force(path, mapping);
    }
  }

  @Override
  public void beforeStore(long address, long value) {
    Mapping m;
    synchronized (mappings) {
      Map.Entry<Long, Mapping> e = mappings.floorEntry(address);
      m = e == null ? null : e.getValue();
    }
    if (m == null || address + Long.BYTES > m.address() + m.size()) {
      throw new AssertionError("a store at 0x" + Long.toHexString(address) + " is in no mapping the writes made");
    }
    if (!m.shared()) {
      return; // this process's copy of the page: no file changes
    }
    byte[] bytes = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder()).putLong(value).array();
    try {
      step(new Write(Kind.STORE, m.path(), null, m.position() + (address - m.address()), bytes));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e); // a test's stop: a store cannot fail as a write
    }
  }

  @Override
  public boolean delete(Path path) throws IOException {
    if (!java.nio.file.Files.exists(path)) {
      return false;
    }
    step(new Write(Kind.DELETE, path.toAbsolutePath(), null, 0, null));
    return SYSTEM.delete(path);
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    if (java.nio.file.Files.exists(to)) {
      SYSTEM.rename(from, to); // refused: no write
    }
    step(new Write(Kind.RENAME, from.toAbsolutePath(), to.toAbsolutePath(), 0, null));
    SYSTEM.rename(from, to);
    synchronized (mappings) {
      // a mapping is of the file, whatever its name: stores to it go to the file under its new one
      mappings.replaceAll((address, m) -> m.path().equals(from.toAbsolutePath())
          ? new Mapping(m.address(), m.size(), to.toAbsolutePath(), m.position(), m.shared()) : m);
    }
  }

  @Override
  public void forceFolder(Path folder) throws IOException {
    step(new Write(Kind.FORCE_FOLDER, folder.toAbsolutePath(), null, 0, null));
    if (forcesReachDevice()) {
      SYSTEM.forceFolder(folder);
    }
  }

  /**
   * @return whether a force waits for the real device: a test that models the device itself, or
   *     where only a process dies, need not wait
   */
  protected boolean forcesReachDevice() {
    return false;
  }

  /** The address of a direct buffer's first byte, read as the engine reads it. */
  static final class MappingAddress {
    private static final Object UNSAFE;
    private static final java.lang.reflect.Method GET_LONG;
    private static final long ADDRESS;

    static {
      try {
        Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
        java.lang.reflect.Field the = unsafeClass.getDeclaredField("theUnsafe");
        the.setAccessible(true);
        UNSAFE = the.get(null);
        GET_LONG = unsafeClass.getMethod("getLong", Object.class, long.class);
        ADDRESS = (long) unsafeClass.getMethod("objectFieldOffset", java.lang.reflect.Field.class)
            .invoke(UNSAFE, java.nio.Buffer.class.getDeclaredField("address"));
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    private MappingAddress() {}

    static long of(MappedByteBuffer buffer) {
      try {
        return (long) GET_LONG.invoke(UNSAFE, buffer, ADDRESS);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
