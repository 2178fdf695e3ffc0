package dev.cuckoo.testkit;

import dev.cuckoo.internal.MappedFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A machine whose power a test cuts: while {@link #install}ed, every channel the library opens
 * on a filter file or its journal ({@link MappedFiles#wrapChannels}) is watched. A file's image
 * on the "disk" is what it held at its last {@code force}; the pages written since are in the
 * page cache only. {@link #cut} stops the writer at its {@code n}-th write or force (it throws
 * {@link PowerCut} there) and then {@link #crash} writes each file back as a disk would hold it
 * after a power loss: every page written since its last force kept as written or as it was, a
 * coin toss each, and a truncation since then kept or not. Forces are not passed to the disk:
 * the model is the durability, and a thousand trials take seconds.
 *
 * <p>It sees what goes through channels only, which is every change a {@code durability=machine}
 * filter makes to its file (its table is mapped copy-on-write).
 */
public final class StagedMachine implements AutoCloseable {
  /** Thrown at the write or force a power cut stops. */
  public static final class PowerCut extends Error {
    private static final long serialVersionUID = 1L;

    PowerCut() {
      super("power cut", null, false, false);
    }
  }

  private static final int PAGE = 4096;

  private final Map<Path, byte[]> disk = new HashMap<>();
  private final Map<Path, BitSet> dirty = new HashMap<>();
  private final Map<Path, Boolean> truncated = new HashMap<>();
  private final List<FileChannel> opened = new ArrayList<>();
  private long operations;
  private long cutAt = Long.MAX_VALUE;
  private boolean down;

  /** @return a machine watching every channel the library opens from now on */
  public static StagedMachine install() {
    StagedMachine machine = new StagedMachine();
    MappedFiles.wrapChannels(machine::watch);
    return machine;
  }

  /** @return the writes and forces made so far */
  public long operations() {
    return operations;
  }

  /** @param n the write or force (counted from 0) to stop the writer at */
  public void cut(long n) {
    cutAt = n;
  }

  private synchronized FileChannel watch(Path path, FileChannel channel) {
    Path file = path.toAbsolutePath();
    disk.computeIfAbsent(file, f -> {
      try {
        return Files.exists(f) ? Files.readAllBytes(f) : new byte[0];
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    dirty.computeIfAbsent(file, f -> new BitSet());
    Watched watched = new Watched(file, channel);
    opened.add(channel);
    return watched;
  }

  private synchronized void step() {
    if (down) {
      throw new PowerCut();
    }
    if (operations++ == cutAt) {
      down = true;
      throw new PowerCut();
    }
  }

  /**
   * Writes every watched file back as the disk would hold it after the power loss, and closes
   * every channel the writer had open (its process is gone).
   *
   * @param random the coin tosses
   * @throws IOException if the files cannot be written
   */
  public synchronized void crash(SplittableRandom random) throws IOException {
    down = true;
    for (FileChannel c : opened) {
      c.close();
    }
    for (Map.Entry<Path, byte[]> entry : disk.entrySet()) {
      Path file = entry.getKey();
      byte[] durable = entry.getValue();
      byte[] now = Files.exists(file) ? Files.readAllBytes(file) : new byte[0];
      int length = Boolean.TRUE.equals(truncated.get(file)) || now.length > durable.length
          ? (random.nextBoolean() ? now.length : durable.length) : durable.length;
      byte[] image = java.util.Arrays.copyOf(durable, length);
      BitSet pages = dirty.get(file);
      for (int p = pages.nextSetBit(0); p >= 0; p = pages.nextSetBit(p + 1)) {
        if (random.nextBoolean()) {
          int from = p * PAGE;
          for (int i = from; i < Math.min(from + PAGE, length); i++) {
            image[i] = i < now.length ? now[i] : 0;
          }
        }
      }
      Files.write(file, image);
    }
  }

  @Override
  public void close() {
    MappedFiles.wrapChannels(null);
  }

  private synchronized void wrote(Path file, long position, long bytes) {
    if (bytes > 0) {
      dirty.get(file).set((int) (position / PAGE), (int) ((position + bytes - 1) / PAGE) + 1);
    }
  }

  private synchronized void forced(Path file) throws IOException {
    disk.put(file, Files.readAllBytes(file));
    dirty.get(file).clear();
    truncated.put(file, false);
  }

  /** A channel whose writes and forces the machine counts and models. */
  private final class Watched extends FileChannel {
    private final Path file;
    private final FileChannel c;

    Watched(Path file, FileChannel c) {
      this.file = file;
      this.c = c;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      return c.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      return c.read(dsts, offset, length);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      step();
      long at = c.position();
      int n = c.write(src);
      wrote(file, at, n);
      return n;
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      step();
      long at = c.position();
      long n = c.write(srcs, offset, length);
      wrote(file, at, n);
      return n;
    }

    @Override
    public long position() throws IOException {
      return c.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      c.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return c.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      step();
      if (size < c.size()) {
        synchronized (StagedMachine.this) {
          truncated.put(file, true);
        }
      }
      c.truncate(size);
      return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
      step();
      forced(file); // the model is the disk: no need to wait for the real one
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
      return c.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
      step();
      long n = c.transferFrom(src, position, count);
      wrote(file, position, n);
      return n;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return c.read(dst, position);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      step();
      int n = c.write(src, position);
      wrote(file, position, n);
      return n;
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
      if (mode == MapMode.READ_WRITE) {
        throw new UnsupportedOperationException("a shared writable mapping would change the file unseen");
      }
      return c.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
      return c.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
      return c.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
      c.close();
    }
  }
}
