package dev.cuckoo.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every write the library makes to the files of one folder, in the order it made them: what a
 * writer's death leaves is the folder as it was, with some first part of these writes made
 * (the kernel writes every page a process stored to or wrote, however the process ends; the
 * process's writes stop at one point of its program). {@link #images} rebuilds the folder at any
 * such point. Forces do not reach the device: only a process dies here.
 */
public final class WriteLog extends WatchedWrites {
  private final Path folder;
  private final Map<String, byte[]> before = new HashMap<>();
  private final List<Write> writes = new ArrayList<>();

  /**
   * @param folder the folder whose files it logs, as they are now
   * @throws IOException if they cannot be read
   */
  public WriteLog(Path folder) throws IOException {
    this.folder = folder.toAbsolutePath();
    try (Stream<Path> files = Files.list(folder)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(f)) {
          before.put(f.getFileName().toString(), Files.readAllBytes(f));
        }
      }
    }
  }

  @Override
  protected synchronized void step(Write write) {
    if (write.changes()) {
      if (!write.path().getParent().equals(folder)) {
        throw new AssertionError(write + " is outside the folder logged, " + folder);
      }
      writes.add(write);
    }
  }

  /** @return the writes made so far: a death may come after any number of them */
  public synchronized int size() {
    return writes.size();
  }

  /** @return the write at an index */
  public synchronized Write write(int index) {
    return writes.get(index);
  }

  /** @return the writes around one, for a failure's message */
  public synchronized String around(int n) {
    StringBuilder b = new StringBuilder();
    for (int i = Math.max(0, n - 8); i < Math.min(writes.size(), n + 3); i++) {
      b.append(i == n ? "\n  >> " : "\n     ").append(i).append(": ").append(writes.get(i));
    }
    return b.toString();
  }

  /** @return the folder's files as they were when the log began, for writes to be applied to */
  public Images images() {
    return new Images(before);
  }

  /** A folder's files in memory, by name, to which writes are applied one at a time. */
  public static final class Images {
    private final Map<String, byte[]> files = new HashMap<>();
    private final Map<String, Integer> lengths = new HashMap<>();

    Images(Map<String, byte[]> from) {
      from.forEach((name, bytes) -> {
        files.put(name, bytes.clone());
        lengths.put(name, bytes.length);
      });
    }

    /** @return a copy, which later writes to this one do not change */
    public Images copy() {
      Images c = new Images(Map.of());
      files.forEach((name, bytes) -> c.files.put(name, Arrays.copyOf(bytes, lengths.get(name))));
      c.lengths.putAll(lengths);
      return c;
    }

    /** Applies one write, as the file system would have it. */
    public void apply(Write w) {
      String name = w.path().getFileName().toString();
      switch (w.kind()) {
        case CREATE -> {
          files.putIfAbsent(name, new byte[0]);
          lengths.putIfAbsent(name, 0);
        }
        case WRITE, STORE -> {
          byte[] f = files.get(name);
          if (f == null) {
            throw new AssertionError(w + " to a file that does not exist");
          }
          long end = w.position() + w.bytes().length;
          if (end > f.length) {
            f = Arrays.copyOf(f, (int) Math.max(end, Math.min(Integer.MAX_VALUE - 8, 2L * f.length)));
            files.put(name, f);
          }
          System.arraycopy(w.bytes(), 0, f, (int) w.position(), w.bytes().length);
          lengths.put(name, (int) Math.max(lengths.get(name), end));
        }
        case TRUNCATE -> {
          int length = (int) Math.min(lengths.get(name), w.position());
          Arrays.fill(files.get(name), length, files.get(name).length, (byte) 0);
          lengths.put(name, length);
        }
        case DELETE -> {
          files.remove(name);
          lengths.remove(name);
        }
        case RENAME -> {
          String to = w.to().getFileName().toString();
          files.put(to, files.remove(name));
          lengths.put(to, lengths.remove(name));
        }
        default -> throw new AssertionError("not a change: " + w);
      }
    }

    /** @return whether a file of that name exists */
    public boolean has(String name) {
      return files.containsKey(name);
    }

    /**
     * Makes a folder hold exactly these files.
     *
     * @param folder the folder, which exists
     * @throws IOException if writing fails
     */
    public void writeTo(Path folder) throws IOException {
      try (Stream<Path> old = Files.list(folder)) {
        for (Path f : (Iterable<Path>) old::iterator) {
          if (!files.containsKey(f.getFileName().toString())) {
            Files.delete(f);
          }
        }
      }
      for (Map.Entry<String, byte[]> e : files.entrySet()) {
        try (var out = Files.newOutputStream(folder.resolve(e.getKey()))) {
          out.write(e.getValue(), 0, lengths.get(e.getKey()));
        }
      }
    }
  }
}
