package dev.cuckoo.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.Durability;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk, an I/O error or a permission taken away at any write the library makes is an
 * error, never a crash, and leaves a file the next open brings back with every key it promised:
 * for each config, a writer's run (creation, adds to a full table, forces, removes, a merge, a
 * clear, a close, a reopen, more adds, a close) is made once to count its writes, then again
 * once per write with a {@link FaultyDisk} that fails that write and every later one of its kind
 * ({@code ENOSPC}, {@code EIO} or {@code EACCES}, in turn) until it is healed. The operation that
 * meets the fault must throw an {@link IOException} (or an {@link java.io.UncheckedIOException}
 * wrapping one) that names the file and the cause, for a full disk the bytes the write needed;
 * closing the filter while the fault lasts may throw one too, and nothing else; no part of a
 * journal is left beside a file whose disk filled; and once the disk is healed, the next open
 * finds every key an add had returned for ({@code durability=process}) or a force had
 * ({@code durability=machine}), and the file verifies whole.
 *
 * <p>Stores to the table's mapping are not failed: the file's blocks were all taken when it was
 * made, so a store never needs room, and a device's error reaches a writer at its next force,
 * which is failed here.
 */
public abstract class FileFaultContractTest {

  @TempDir
  protected Path dir;

  /** @return configs with small capacities the run fills, {@code durability=machine} among them */
  protected abstract List<String> configs();

  /** A fault a disk can have. */
  enum Fault {
    /** {@code ENOSPC}: what takes room fails; truncating and removing, which free it, do not. */
    FULL,
    /** {@code EIO}: everything fails. */
    IO_ERROR,
    /** {@code EACCES}: everything fails, as after a permission is taken away. */
    DENIED;

    IOException exception(Path path) {
      return switch (this) {
        case FULL -> new IOException("No space left on device");
        case IO_ERROR -> new IOException("Input/output error");
        case DENIED -> new java.nio.file.AccessDeniedException(path.toString());
      };
    }

    boolean fails(WatchedWrites.Kind kind) {
      return this != FULL || (kind != WatchedWrites.Kind.TRUNCATE && kind != WatchedWrites.Kind.DELETE);
    }

    /** @return what a message about this fault must say */
    String said() {
      return switch (this) {
        case FULL -> "the file system is full (the write needed";
        case IO_ERROR -> "Input/output error";
        case DENIED -> "permission denied";
      };
    }
  }

  /** A disk that fails one write, and every later one of its kind, until it is healed. */
  static final class FaultyDisk extends WatchedWrites {
    private final long failAt;
    private final Fault fault;
    private long writes;
    private boolean failing;

    FaultyDisk(long failAt, Fault fault) {
      this.failAt = failAt;
      this.fault = fault;
    }

    @Override
    protected synchronized void step(Write w) throws IOException {
      if (w.kind() == Kind.STORE) {
        return; // a store into a file whose blocks are all taken needs no room; see the class comment
      }
      if (!failing && writes++ == failAt) {
        failing = true;
      }
      if (failing && fault.fails(w.kind())) {
        throw fault.exception(w.path());
      }
    }

    synchronized boolean failed() {
      return failing;
    }

    synchronized void heal() {
      failing = false;
    }

    synchronized long writes() {
      return writes;
    }
  }

  @TestFactory
  Stream<DynamicTest> aFaultAtAnyWriteIsAnErrorAndLosesNothingPromised() {
    return configs().stream().map(config -> DynamicTest.dynamicTest(config, () -> run(config)));
  }

  private void run(String config) throws IOException {
    String where = config + ", " + TestSeed.rerun();
    long seed = TestSeed.random("faults: " + config).nextLong();
    Path clean = Files.createDirectories(dir.resolve("clean-" + Integer.toHexString(config.hashCode())));
    long writes;
    try (FaultyDisk counting = new FaultyDisk(Long.MAX_VALUE, Fault.FULL)) {
      counting.install();
      new Writer(config, clean.resolve("f.cuckoo"), seed).run();
      writes = counting.writes();
    }
    assertTrue(writes > 40, where + ": " + writes + " writes to fail");
    Fault[] faults = Fault.values();
    for (long n = 0; n < writes; n++) {
      trial(config, seed, n, faults[(int) (n % faults.length)], where);
    }
  }

  private void trial(String config, long seed, long n, Fault fault, String where) throws IOException {
    Path folder = Files.createDirectories(dir.resolve("fault-" + Integer.toHexString(config.hashCode()) + "-" + n));
    Path file = folder.resolve("f.cuckoo");
    String at = where + ", " + fault + " at write " + n;
    Writer writer = new Writer(config, file, seed);
    FaultyDisk disk = new FaultyDisk(n, fault);
    try (disk) {
      disk.install();
      try {
        writer.run();
        // The fault met only writes a full disk lets through (a truncation, a removal): no harm done.
        assertTrue(fault == Fault.FULL, at + ": the run ended without meeting the fault");
        writer.filter = null;
      } catch (IOException | java.io.UncheckedIOException e) {
        IOException io = e instanceof IOException direct ? direct : ((java.io.UncheckedIOException) e).getCause();
        String m = io.getMessage();
        if (m == null || !m.contains(file.getFileName().toString()) || !m.contains(fault.said())) {
          throw new AssertionError(at + ": the error does not name the file and the cause: " + io, io);
        }
        requireNoPartialJournal(folder, fault, at + ", just after the failed call");
      }
      if (writer.filter != null) {
        try {
          writer.filter.close(); // while the fault lasts: an error or nothing, never a crash
        } catch (IOException expected) {
          // the file is closed all the same, and the next open recovers it
        }
      }
    }
    requireNoPartialJournal(folder, fault, at + ", after the close");
    if (!writer.created) {
      if (Files.exists(file)) {
        // Where the file system refused its removal too: the file left is a whole, empty filter.
        assertTrue(fault != Fault.FULL, at + ": a creation that failed on a full disk left " + file);
        try (MappedFilter f = CuckooFilters.openWritable(file)) {
          assertTrue(f.size() == 0, at + ": a creation that failed left a filter of " + f.size() + " items");
          f.verify();
        }
      }
      return;
    }
    try (MappedFilter f = CuckooFilters.openWritable(file)) {
      int lost = 0;
      for (long key : writer.promised) {
        lost += f.mightContain(key) ? 0 : 1;
      }
      if (lost > 0) {
        fail(at + ": " + lost + " of " + writer.promised.size() + " promised keys are lost");
      }
      f.verify();
    } catch (IOException | RuntimeException e) {
      throw new AssertionError(at + ": the file could not be opened once the disk was healed: " + e, e);
    }
  }

  /**
   * Only a whole journal, of a force that marked the file, may stay beside it (the next open
   * replays it): a part of one, which a later call could take for whole, never does. Checked on
   * a full disk, which lets the library empty what it could not finish; an I/O error or a
   * revoked permission may refuse that too.
   */
  private static void requireNoPartialJournal(Path folder, Fault fault, String at) throws IOException {
    Path journal = folder.resolve("f.cuckoo.journal");
    if (fault == Fault.FULL && Files.exists(journal) && Files.size(journal) > 0) {
      assertTrue(isWhole(Files.readAllBytes(journal)), at + ": a part of a journal, " + Files.size(journal)
          + " bytes, is left beside the file");
    }
  }

  /**
   * @return whether a journal's bytes are a whole journal: "CKJ1", the payload's offset and
   *     length, a count of ranges, each range's offset, length and bytes, then the CRC32C of all
   *     of it (the file-format guide)
   */
  private static boolean isWhole(byte[] journal) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(journal);
    if (journal.length < 28 || b.getInt(0) != 0x434B4A31) {
      return false;
    }
    int count = b.getInt(20);
    long at = 24;
    for (int i = 0; i < count; i++) {
      if (at + 12 > journal.length - 4) {
        return false;
      }
      at += 12L + b.getInt((int) at + 8);
    }
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(journal, 0, journal.length - 4);
    return at == journal.length - 4 && b.getInt(journal.length - 4) == (int) crc.getValue();
  }

  /** One run of a writer, the same for the same seed; what it promised, and its filter. */
  private static final class Writer {
    private final String config;
    private final Path file;
    private final SplittableRandom random;
    private final boolean machine;
    final Set<Long> promised = new HashSet<>();
    private final List<Long> live = new ArrayList<>();
    private final List<Long> sinceForce = new ArrayList<>();
    MappedFilter filter;
    boolean created;

    Writer(String config, Path file, long seed) {
      this.config = config;
      this.file = file;
      this.random = new SplittableRandom(seed);
      this.machine = FilterSpec.parse(config).durability() == Durability.MACHINE;
    }

    void run() throws IOException {
      filter = CuckooFilters.createFile(config, file);
      created = true;
      fill();
      force();
      for (int i = live.size() - 1; i >= 0; i -= 3) {
        remove(i);
      }
      CuckooFilter other = CuckooFilters.create(config);
      List<Long> merged = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        long key = random.nextLong();
        if (other.add(key)) {
          merged.add(key);
        }
      }
      if (filter.addAll(other) == merged.size()) {
        merged.forEach(this::added);
      }
      force();
      promised.clear(); // they may be gone from here on
      live.clear();
      sinceForce.clear();
      filter.clear();
      fill();
      filter.close();
      forced();
      filter = null;
      filter = CuckooFilters.openWritable(file);
      fill();
      filter.close();
      forced();
      filter = null;
    }

    private void fill() {
      for (int refused = 0; refused < 2; ) {
        long key = random.nextLong();
        if (filter.add(key)) {
          added(key);
        } else {
          refused++;
        }
      }
    }

    private void added(long key) {
      live.add(key);
      if (machine) {
        sinceForce.add(key);
      } else {
        promised.add(key);
      }
    }

    private void remove(int i) {
      long key = live.remove(i);
      promised.remove(key); // it may be gone from here on
      sinceForce.remove(key);
      filter.remove(key);
    }

    private void force() throws IOException {
      filter.force();
      forced();
    }

    private void forced() {
      promised.addAll(sinceForce);
      sinceForce.clear();
    }
  }
}
