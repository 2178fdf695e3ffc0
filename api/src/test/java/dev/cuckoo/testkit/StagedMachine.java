package dev.cuckoo.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A machine whose power a test cuts, watching every write the library makes ({@link
 * WatchedWrites}). A file's content on the "disk" is what it held at its last force; the pages
 * written since are in the page cache only. A folder's names (files made, renamed, removed) are
 * on the disk as of its last force, and those changed since reach it in the order they were made,
 * up to a point. {@link #cut} stops the writer at its {@code n}-th write or force (it throws
 * {@link PowerCut} there) and {@link #crash} then leaves every file as a disk would after a power
 * loss: each page written since its file's last force kept as written or as it was, a coin toss
 * each, a truncation or growth since then kept or not, and a random first part of the name
 * changes since the folder's last force. Forces are not passed to the disk: the model is the
 * durability, and a thousand trials take seconds.
 */
public final class StagedMachine extends WatchedWrites {
  /** Thrown at the write or force a power cut stops. */
  public static final class PowerCut extends Error {
    private static final long serialVersionUID = 1L;

    PowerCut() {
      super("power cut", null, false, false);
    }
  }

  private static final int PAGE = 4096;

  /** A file's data, under whatever name it has. */
  private static final class Inode {
    byte[] disk;
    final BitSet dirty = new BitSet();
    boolean resized;

    Inode(byte[] disk) {
      this.disk = disk;
    }
  }

  /** A change of a folder's names: what it did, so that it can be taken back. */
  private record NameChange(Kind kind, Path path, Path to, Inode inode) {}

  private final Map<Path, Inode> names = new HashMap<>();
  private final Set<Path> seen = new HashSet<>();
  private final List<NameChange> sinceFolderForce = new ArrayList<>();
  private long operations;
  private long cutAt = Long.MAX_VALUE;
  private boolean down;

  /** @return a machine watching every file the library opens from now on, installed */
  public static StagedMachine start() {
    StagedMachine machine = new StagedMachine();
    machine.install();
    return machine;
  }

  private StagedMachine() {}

  /** @return the writes and forces made so far */
  public synchronized long operations() {
    return operations;
  }

  /** @param n the write or force (counted from 0) to stop the writer at */
  public synchronized void cut(long n) {
    cutAt = n;
  }

  private Inode inode(Path path) throws IOException {
    Inode i = names.get(path);
    if (i == null) {
      i = new Inode(Files.exists(path) ? Files.readAllBytes(path) : new byte[0]);
      names.put(path, i);
      seen.add(path);
    }
    return i;
  }

  @Override
  protected synchronized void step(Write w) throws IOException {
    if (down) {
      throw new PowerCut();
    }
    if (operations++ == cutAt) {
      down = true;
      throw new PowerCut();
    }
    switch (w.kind()) {
      case WRITE, STORE -> {
        Inode i = inode(w.path());
        long end = w.position() + w.bytes().length;
        i.dirty.set((int) (w.position() / PAGE), (int) ((end - 1) / PAGE) + 1);
        i.resized |= end > Files.size(w.path());
      }
      case TRUNCATE -> inode(w.path()).resized = true;
      case FORCE -> {
        if (Files.isRegularFile(w.path())) {
          Inode i = inode(w.path());
          i.disk = Files.readAllBytes(w.path());
          i.dirty.clear();
          i.resized = false;
        }
      }
      case CREATE -> {
        seen.add(w.path());
        Inode i = new Inode(new byte[0]);
        sinceFolderForce.add(new NameChange(Kind.CREATE, w.path(), null, names.put(w.path(), i)));
      }
      case DELETE -> {
        Inode i = inode(w.path());
        names.remove(w.path());
        sinceFolderForce.add(new NameChange(Kind.DELETE, w.path(), null, i));
      }
      case RENAME -> {
        Inode i = inode(w.path());
        seen.add(w.to());
        names.remove(w.path());
        sinceFolderForce.add(new NameChange(Kind.RENAME, w.path(), w.to(), names.put(w.to(), i)));
      }
      case FORCE_FOLDER -> sinceFolderForce.clear();
      default -> throw new AssertionError(w);
    }
  }

  /**
   * Leaves every file the machine saw as the disk would hold it after the power loss, and closes
   * every channel the writer had open (its process is gone).
   *
   * @param random the coin tosses
   * @throws IOException if the files cannot be written
   */
  public synchronized void crash(SplittableRandom random) throws IOException {
    down = true;
    closeChannels();
    // Which name changes reached the disk: the first k of those since the folder's last force.
    Map<Path, Inode> durable = new HashMap<>(names);
    int kept = random.nextInt(sinceFolderForce.size() + 1);
    for (int c = sinceFolderForce.size() - 1; c >= kept; c--) {
      NameChange change = sinceFolderForce.get(c);
      switch (change.kind()) {
        case CREATE -> restore(durable, change.path(), change.inode());
        case DELETE -> durable.put(change.path(), change.inode());
        default -> { // RENAME
          Inode i = durable.get(change.to());
          restore(durable, change.to(), change.inode());
          durable.put(change.path(), i);
        }
      }
    }
    Map<Inode, byte[]> images = new HashMap<>();
    for (Path path : seen) {
      Inode i = durable.get(path);
      if (i == null) {
        Files.deleteIfExists(path);
        continue;
      }
      byte[] image = images.get(i);
      if (image == null) {
        image = imageOf(i, random);
        images.put(i, image);
      }
      Files.write(path, image);
    }
  }

  private static void restore(Map<Path, Inode> names, Path path, Inode was) {
    if (was == null) {
      names.remove(path);
    } else {
      names.put(path, was);
    }
  }

  /** @return what the disk holds of an inode's data after the power loss */
  private byte[] imageOf(Inode i, SplittableRandom random) throws IOException {
    Path where = null;
    for (Map.Entry<Path, Inode> e : names.entrySet()) {
      if (e.getValue() == i) {
        where = e.getKey();
      }
    }
    byte[] now = where != null && Files.exists(where) ? Files.readAllBytes(where) : i.disk;
    int length = i.resized && random.nextBoolean() ? now.length : i.disk.length;
    byte[] image = java.util.Arrays.copyOf(i.disk, length);
    for (int p = i.dirty.nextSetBit(0); p >= 0; p = i.dirty.nextSetBit(p + 1)) {
      if (random.nextBoolean()) {
        for (int b = p * PAGE; b < Math.min((p + 1) * PAGE, length); b++) {
          image[b] = b < now.length ? now[b] : 0;
        }
      }
    }
    return image;
  }
}
