package dev.cuckoo.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CorruptFilterException;
import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract of a variant whose filters map from files ({@link CuckooFilters#open}, {@link
 * CuckooFilters#createFile}): a mapped filter answers exactly as the heap filter its file was
 * written from, in every shape the variant names; a file written in place reopens with every key
 * forced; a file a writer left between forces is refused, also when the writer is a real child JVM
 * that halts; two processes map one file at once; hostile files are refused at open. A variant's
 * test subclasses it and names its shapes.
 */
public abstract class MappedFilterContractTest {
  @TempDir
  protected Path dir;

  /** @return configs without capacity covering the variant's shapes: widths and bucket sizes */
  protected abstract List<String> shapes();

  /** @return a config of a small filter, for the tests that need one shape */
  protected String small() {
    return shapes().get(0) + "&capacity=5000";
  }

  private static String key(long i) {
    return "key-" + i;
  }

  private static Path write(CuckooFilter f, Path file) throws IOException {
    try (OutputStream out = Files.newOutputStream(file)) {
      f.writeTo(out);
    }
    return file;
  }

  private static CuckooFilter read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return CuckooFilters.read(in);
    }
  }

  /** Every shape, filled until it refuses (so that the stash holds keys too), then opened mapped. */
  @Test
  void aMappedFilterAnswersAsTheHeapFilterItsFileWasWrittenFrom() throws IOException {
    SplittableRandom random = TestSeed.random("mapped-equals-heap");
    for (String shape : shapes()) {
      String config = shape + "&capacity=" + (300 + random.nextInt(3000));
      CuckooFilter heap = CuckooFilters.create(config);
      long added = 0;
      for (long i = 0; heap.add(key(i)); i++) {
        added++;
      }
      Path file = write(heap, dir.resolve("f" + shape.hashCode() + ".cuckoo"));
      try (MappedFilter mapped = CuckooFilters.open(file)) {
        assertFalse(mapped.isWritable());
        assertEquals(heap.size(), mapped.size(), config);
        assertEquals(heap.spec(), mapped.spec(), config);
        for (long i = 0; i < 2 * added + 1000; i++) {
          String k = key(i);
          assertEquals(heap.mightContain(k), mapped.mightContain(k), () -> config + ", " + k + TestSeed.rerun());
          assertEquals(heap.count(k), mapped.count(k), () -> config + ", " + k + TestSeed.rerun());
        }
        long[] longs = random.longs(5000).toArray();
        boolean[] heapAnswers = new boolean[longs.length];
        boolean[] mappedAnswers = new boolean[longs.length];
        assertEquals(heap.mightContainAll(longs, heapAnswers), mapped.mightContainAll(longs, mappedAnswers), config);
        assertTrue(java.util.Arrays.equals(heapAnswers, mappedAnswers), () -> config + TestSeed.rerun());
        mapped.verify();
      }
    }
  }

  @Test
  void aCreatedFileReopensWithEveryKeyAndReadsAsAStream() throws IOException {
    for (String shape : shapes()) {
      Path file = dir.resolve("c" + shape.hashCode() + ".cuckoo");
      String config = shape + "&capacity=3000";
      List<String> keys = new ArrayList<>();
      try (MappedFilter f = CuckooFilters.createFile(config, file)) {
        assertTrue(f.isWritable());
        for (long i = 0; i < 2000; i++) {
          assertTrue(f.add(key(i)), config);
          keys.add(key(i));
        }
        assertTrue(f.remove(key(0)));
        keys.remove(0);
        f.force();
        f.add(key(5000));
        keys.add(key(5000));
      }
      try (MappedFilter f = CuckooFilters.open(file)) {
        assertEquals(keys.size(), f.size(), config);
        for (String k : keys) {
          assertTrue(f.mightContain(k), config + ", " + k);
        }
        f.verify();
      }
      CuckooFilter heap = read(file);
      assertEquals(keys.size(), heap.size(), config);
      for (String k : keys) {
        assertTrue(heap.mightContain(k), config + ", " + k);
      }
      try (MappedFilter f = CuckooFilters.openWritable(file)) {
        f.clear();
        assertEquals(0, f.size());
      }
      assertEquals(0, read(file).size(), config);
    }
  }

  @Test
  void aReadOnlyFilterRefusesWritesAndAClosedOneToo() throws IOException {
    Path file = dir.resolve("ro.cuckoo");
    CuckooFilter heap = CuckooFilters.create(small());
    heap.add("a");
    write(heap, file);
    try (MappedFilter f = CuckooFilters.open(file)) {
      UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> f.add("b"));
      assertTrue(e.getMessage().contains("openWritable"), e.getMessage());
      assertThrows(UnsupportedOperationException.class, () -> f.remove("a"));
      assertTrue(f.mightContain("a"));
    }
    MappedFilter w = CuckooFilters.openWritable(file);
    w.close();
    w.close();
    assertThrows(IllegalStateException.class, () -> w.add("c"));
  }

  @Test
  void aFileBeingChangedByALiveWriterIsRefusedSayingSo() throws IOException {
    Path file = dir.resolve("dirty.cuckoo");
    MappedFilter f = CuckooFilters.createFile(small(), file);
    f.add("a");
    f.force();
    f.add("b"); // and not forced: the writer is at work
    IOException e = assertThrows(IOException.class, () -> CuckooFilters.open(file));
    assertFalse(e instanceof CorruptFilterException, "a file a writer is changing is not damaged: " + e);
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("being changed"), e.getMessage());
    // Its writer is alive and holds the lock: the reader is told so, not that the writer stopped.
    assertTrue(e.getMessage().contains("a writer that has it open now"), e.getMessage());
    assertFalse(e.getMessage().contains("when its writer stopped"), e.getMessage());
    assertThrows(CorruptFilterException.class, () -> read(file));
    f.close();
    try (MappedFilter g = CuckooFilters.open(file)) {
      assertTrue(g.mightContain("a") && g.mightContain("b"));
    }
  }

  @Test
  void aSecondWriterIsRefused() throws IOException {
    Path file = dir.resolve("locked.cuckoo");
    try (MappedFilter f = CuckooFilters.createFile(small(), file)) {
      f.add("a");
      IOException e = assertThrows(IOException.class, () -> CuckooFilters.openWritable(file));
      assertTrue(e.getMessage().contains("another"), e.getMessage());
    }
  }

  @Test
  void hostileFilesAreRefusedAtOpen() throws IOException {
    byte[] good = smallFileOf100Keys();
    // truncated anywhere, or extended
    for (int cut : new int[] {0, 3, 20, 100, 4096, good.length / 2, good.length - 5, good.length - 1}) {
      Path f = Files.write(dir.resolve("cut" + cut), java.util.Arrays.copyOf(good, cut));
      assertThrows(CorruptFilterException.class, () -> CuckooFilters.open(f), "cut at " + cut);
    }
    Path longer = Files.write(dir.resolve("longer"), java.util.Arrays.copyOf(good, good.length + 8));
    assertThrows(CorruptFilterException.class, () -> CuckooFilters.open(longer));
    // every header byte flipped: the header checksum, or a field check, refuses it
    for (int i = 0; i < 80; i++) {
      byte[] bad = good.clone();
      bad[i] ^= 0x10;
      Path f = Files.write(dir.resolve("flip" + i), bad);
      int at = i;
      assertThrows(IOException.class, () -> CuckooFilters.open(f).close(), "flipped byte " + at);
    }
    // a forged payload page that the header checksum does not cover: its fields are checked
    long offset = offsetOfPayload(good);
    for (int field : new int[] {0, 4, 8, 16, 24, 32}) {
      byte[] bad = good.clone();
      ByteBuffer.wrap(bad).putInt((int) offset + field, 0x7FFF_FFFF);
      Path f = Files.write(dir.resolve("field" + field), bad);
      assertThrows(CorruptFilterException.class, () -> CuckooFilters.open(f).close(), "payload field at " + field);
    }
    // a flipped table bit is not checked at open, but verify() finds it
    byte[] bad = good.clone();
    bad[(int) offset + 4096 + 3] ^= 0x01;
    Path flipped = Files.write(dir.resolve("table-flip"), bad);
    try (MappedFilter f = CuckooFilters.open(flipped)) {
      assertThrows(CorruptFilterException.class, f::verify);
    }
  }

  /** @return the bytes of a file of {@link #small} holding 100 keys */
  private byte[] smallFileOf100Keys() throws IOException {
    CuckooFilter heap = CuckooFilters.create(small());
    for (int i = 0; i < 100; i++) {
      heap.add(key(i));
    }
    return Files.readAllBytes(write(heap, dir.resolve("good.cuckoo")));
  }

  private static long offsetOfPayload(byte[] file) throws IOException {
    return dev.cuckoo.internal.FilterFile.readHeader(new ByteArrayInputStream(file)).payloadOffset();
  }

  @Test
  void aFileOfFormatVersion2SaysHowToConvertIt() throws IOException {
    CuckooFilter heap = CuckooFilters.create(small());
    heap.add("a");
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    dev.cuckoo.internal.FilterFile.write(out, heap.spec(), dev.cuckoo.CuckooFilters.hashOf(heap.spec()), 4, o -> o.writeInt(0));
    Path file = Files.write(dir.resolve("v2.cuckoo"), out.toByteArray());
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> CuckooFilters.open(file));
    assertTrue(e.getMessage().contains("cuckoo convert"), e.getMessage());
  }

  /** A flipped version byte (3 to 2) reads as an older file: open, read and convert report damage, not "convert it". */
  @Test
  void aFileWhoseVersionFieldIsDamagedIsReportedAsDamaged() throws IOException {
    byte[] bad = smallFileOf100Keys();
    bad[5] = 2;
    Path file = Files.write(dir.resolve("version-flipped.cuckoo"), bad);
    CorruptFilterException opened = assertThrows(CorruptFilterException.class, () -> CuckooFilters.open(file));
    assertTrue(opened.getMessage().contains("damaged") && !opened.getMessage().contains("convert"), opened.getMessage());
    CorruptFilterException read = assertThrows(CorruptFilterException.class, () -> read(file));
    assertTrue(read.getMessage().contains("damaged: checksum mismatch"), read.getMessage());
    CorruptFilterException converted = assertThrows(CorruptFilterException.class,
        () -> CuckooFilters.convert(file, dir.resolve("out.cuckoo")));
    assertTrue(converted.getMessage().contains("damaged"), converted.getMessage());
    assertFalse(Files.exists(dir.resolve("out.cuckoo")), "a failed conversion leaves nothing");
  }

  @Test
  void aDirectoryIsRefusedNamingIt() throws IOException {
    Path folder = Files.createDirectory(dir.resolve("folder.cuckoo"));
    IOException e = assertThrows(IOException.class, () -> CuckooFilters.open(folder));
    assertTrue(e.getMessage().contains(folder.toString()) && e.getMessage().contains("directory"), e.getMessage());
    IOException c = assertThrows(IOException.class, () -> CuckooFilters.convert(folder, dir.resolve("x.cuckoo")));
    assertTrue(c.getMessage().contains(folder.toString()), c.getMessage());
  }

  /**
   * A file of format version 2 (an earlier release's) converts to exactly the file {@code writeTo}
   * writes today, in every shape, stash included; an existing target is refused and kept.
   */
  @Test
  void anOlderFileConvertsToTheFileWriteToWrites() throws IOException {
    for (String shape : shapes()) {
      String config = shape + "&capacity=2000";
      CuckooFilter heap = CuckooFilters.create(config);
      for (long i = 0; heap.add(key(i)); i++) {
        // to the brim: the stash holds some too
      }
      Path current = write(heap, dir.resolve("v3-" + shape.hashCode() + ".cuckoo"));
      Path older = asVersion2(current, dir.resolve("v2-" + shape.hashCode() + ".cuckoo"));
      assertEquals(2, dev.cuckoo.internal.FilterFile.readHeader(new ByteArrayInputStream(Files.readAllBytes(older)))
          .version(), config);
      assertEquals(heap.size(), read(older).size(), config);
      Path converted = dir.resolve("converted-" + shape.hashCode() + ".cuckoo");
      assertEquals(3, CuckooFilters.convert(older, converted), config);
      assertEquals(-1, Files.mismatch(current, converted), config + ": the converted file is the one writeTo writes");
      Path again = dir.resolve("again-" + shape.hashCode() + ".cuckoo");
      assertEquals(3, CuckooFilters.convert(converted, again), config);
      assertEquals(-1, Files.mismatch(current, again), config);
      byte[] before = Files.readAllBytes(again);
      assertThrows(java.nio.file.FileAlreadyExistsException.class, () -> CuckooFilters.convert(older, again));
      assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(again)), "an existing target is kept");
    }
  }

  /**
   * Files larger than the heap: {@code read} refuses one before it allocates, naming the bytes,
   * the heap and {@code open}, where it threw {@code OutOfMemoryError}; {@code convert} streams an
   * older one into the file {@code writeTo} would write (child JVMs with a heap smaller than the file).
   */
  @Test
  void aFileLargerThanTheHeapIsRefusedByReadAndConvertsStreaming() throws Exception {
    Path big = dir.resolve("big.cuckoo");
    long capacity = 8_000_000;
    while (true) {
      try (MappedFilter f = CuckooFilters.createFile(shapes().get(0) + "&capacity=" + capacity, big)) {
        for (int i = 0; i < 5000; i++) {
          assertTrue(f.add(key(i)));
        }
      }
      if (Files.size(big) > 96L << 20) {
        break;
      }
      Files.delete(big);
      capacity *= 2;
    }
    assertEquals(0, MappedFileChild.run(List.of("-Xmx48m"), "read-refused", small(), big.toString(), "0"),
        "read of a " + Files.size(big) + "-byte file in a 48 MB heap");
    Path older = asVersion2(big, dir.resolve("big-v2.cuckoo"));
    Path converted = dir.resolve("big-converted.cuckoo");
    assertEquals(0, MappedFileChild.run(List.of("-Xmx48m"), "convert", older.toString(), converted.toString(), "0"),
        "convert of a " + Files.size(older) + "-byte file in a 48 MB heap");
    assertEquals(-1, Files.mismatch(big, converted), "the converted file is the one the filter was");
  }

  /** A heap filter and a mapped one of one config merge, either into the other. */
  @Test
  void aHeapAndAMappedFilterOfOneConfigMergeEitherWay() throws IOException {
    for (String shape : shapes()) {
      String config = shape + "&capacity=4000";
      CuckooFilter heap = CuckooFilters.create(config);
      try (MappedFilter mapped = CuckooFilters.createFile(config, dir.resolve("m" + shape.hashCode() + ".cuckoo"))) {
        for (int i = 0; i < 1500; i++) {
          assertTrue(heap.add(key(i)), config);
          assertTrue(mapped.add(key(10_000 + i)), config);
        }
        assertEquals(1500, mapped.addAll(heap), config + ": heap into mapped");
        CuckooFilter fromMapped = CuckooFilters.create(config);
        assertEquals(3000, fromMapped.addAll(mapped), config + ": mapped into heap");
        for (int i = 0; i < 1500; i++) {
          assertTrue(mapped.mightContain(key(i)) && mapped.mightContain(key(10_000 + i)), config);
          assertTrue(fromMapped.mightContain(key(i)) && fromMapped.mightContain(key(10_000 + i)), config);
        }
        mapped.force();
        mapped.verify();
      }
    }
  }

  /**
   * Writes a version 3 file of a table variant again as its earlier release wrote it: format
   * version 2, payload layout 2 (fields, table, stash), streaming the table.
   */
  static Path asVersion2(Path current, Path older) throws IOException {
    dev.cuckoo.internal.FilterFile.Header header;
    try (InputStream in = Files.newInputStream(current)) {
      header = dev.cuckoo.internal.FilterFile.readHeader(in);
    }
    try (FileChannel channel = FileChannel.open(current, StandardOpenOption.READ);
        OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(older))) {
      ByteBuffer page = ByteBuffer.allocate(4096);
      channel.read(page, header.payloadOffset());
      int sizing = page.getInt(4);
      long buckets = page.getLong(8);
      long items = page.getLong(16);
      long words = page.getLong(24);
      int stashed = page.getInt(32);
      long length = 4 + 3 * 8 + 8 * words + 4 + 12L * stashed;
      dev.cuckoo.FilterSpec spec = dev.cuckoo.FilterSpec.parse(header.spec());
      dev.cuckoo.internal.FilterFile.write(out, spec, dev.cuckoo.CuckooFilters.hashOf(spec), length, o -> {
        o.writeInt(sizing);
        o.writeLong(buckets);
        o.writeLong(items);
        o.writeLong(words);
        ByteBuffer chunk = ByteBuffer.allocate(1 << 16);
        for (long at = 0; at < 8 * words; ) {
          chunk.clear().limit((int) Math.min(chunk.capacity(), 8 * words - at));
          int n = channel.read(chunk, header.payloadOffset() + 4096 + at);
          o.write(chunk.array(), 0, n);
          at += n;
        }
        o.writeInt(stashed);
        o.write(page.array(), 36, 12 * stashed);
      }, false);
    }
    return older;
  }

  @Test
  @SuppressWarnings("ThreadPriorityCheck") // Thread.yield as a native call, where a pending fault is raised
  void aFileTruncatedAfterItWasOpenedIsNoCrash() throws IOException {
    Path file = dir.resolve("shrinks.cuckoo");
    CuckooFilter heap = CuckooFilters.create(shapes().get(0) + "&capacity=200000");
    for (int i = 0; i < 1000; i++) {
      heap.add(key(i));
    }
    write(heap, file);
    try (MappedFilter f = CuckooFilters.open(file)) {
      try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
        c.truncate(8192);
      }
      // The JVM reports SIGBUS on a mapped page as an InternalError: an error, never a crash. A
      // fault in compiled code is raised at the thread's next check, a native call at the latest.
      assertThrows(InternalError.class, () -> {
        for (int i = 0; i < 1000; i++) {
          f.mightContain(key(i));
          Thread.yield();
        }
      });
    }
  }

  /**
   * A writer that forces, adds more and halts leaves a file that open recovers with every key
   * whose add returned, forced or not; one halted right after a force, a file with every key.
   */
  @Test
  void aWriterHaltedBetweenForcesLeavesAFileOpenRecoversWithEveryKey() throws Exception {
    Path between = dir.resolve("halted-between.cuckoo");
    assertEquals(0, MappedFileChild.run("halt-between", small(), between.toString(), "3000"));
    assertThrows(CorruptFilterException.class, () -> read(between), "a stream reader does not recover");
    try (MappedFilter f = CuckooFilters.open(between)) {
      assertEquals(dev.cuckoo.FileRecovery.Cause.WRITER_STOPPED, f.recovery().orElseThrow().cause(),
          "open says it recovered the file");
      assertTrue(f.recovery().get().description().contains(between.toString()), f.recovery().get().description());
      for (long i = 0; i < 3100; i++) {
        assertTrue(f.mightContain(key(i)), "key " + i + " of 3000 forced and 100 not");
      }
      assertEquals(3100, f.size());
      f.verify();
    }
    assertFalse(CuckooFilters.recover(between).isPresent(), "open recovered it: nothing is left to recover");

    Path after = dir.resolve("halted-after.cuckoo");
    assertEquals(0, MappedFileChild.run("halt-after-force", small(), after.toString(), "3000"));
    try (MappedFilter f = CuckooFilters.open(after)) {
      for (long i = 0; i < 3000; i++) {
        assertTrue(f.mightContain(key(i)), "key " + i);
      }
      assertEquals(3000, f.size());
      f.verify();
    }
  }

  /**
   * A machine-durable writer that forces, adds more and halts leaves the file as its force left
   * it (the adds after it are not kept), which opens without recovery; closing a writer leaves no
   * journal beside the file.
   */
  @Test
  void aMachineDurableFileIsWhatItsLastForceLeftWhenItsWriterDies() throws Exception {
    Path file = dir.resolve("machine.cuckoo");
    assertEquals(0, MappedFileChild.run("halt-between", small() + "&durability=machine", file.toString(), "3000"));
    assertTrue(Files.exists(dir.resolve("machine.cuckoo.journal")), "a halted writer's journal is left");
    dev.cuckoo.FileRecovery left = CuckooFilters.recover(file).orElseThrow();
    assertEquals(dev.cuckoo.FileRecovery.Cause.JOURNAL_LEFT, left.cause(), left.description());
    assertEquals(3000, left.items(), left.description());
    assertFalse(Files.exists(dir.resolve("machine.cuckoo.journal")), "recover removes the journal a writer left");
    assertFalse(CuckooFilters.recover(file).isPresent(), "then nothing is left to recover");
    try (MappedFilter f = CuckooFilters.open(file)) {
      for (long i = 0; i < 3000; i++) {
        assertTrue(f.mightContain(key(i)), "forced key " + i);
      }
      assertEquals(3000, f.size());
      f.verify();
    }
    try (MappedFilter w = CuckooFilters.openWritable(file)) {
      w.add("after");
    }
    assertFalse(Files.exists(dir.resolve("machine.cuckoo.journal")), "a closed writer leaves no journal");
    try (MappedFilter f = CuckooFilters.open(file)) {
      assertTrue(f.mightContain("after"));
      assertEquals(3001, f.size());
    }
  }

  /** The boot id tells a machine that stopped from a process that did: such a file is refused, naming why. */
  @Test
  void aFileWhoseMachineStoppedIsRefusedNotRecovered() throws Exception {
    Path file = dir.resolve("rebooted.cuckoo");
    assertEquals(0, MappedFileChild.run("halt-between", small(), file.toString(), "3000"));
    long payload = dev.cuckoo.internal.MappedFiles.headerOf(file).payloadOffset();
    try (java.nio.channels.FileChannel c = java.nio.channels.FileChannel.open(file,
        java.nio.file.StandardOpenOption.WRITE)) {
      // Another boot's id in the mark, where the writer recorded its own: as after a power loss and a restart.
      c.write(java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}),
          payload - 16);
    }
    for (org.junit.jupiter.api.function.Executable open : List.<org.junit.jupiter.api.function.Executable>of(
        () -> CuckooFilters.open(file), () -> CuckooFilters.openWritable(file), () -> CuckooFilters.recover(file))) {
      CorruptFilterException e = assertThrows(CorruptFilterException.class, open);
      assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("machine stopped")
          && e.getMessage().contains("01020304-0506-0708-090a-0b0c0d0e0f10"), e.getMessage());
    }
  }

  /** A file cut short is damage, which recover reports, as open does, rather than "nothing to recover". */
  @Test
  void recoverOfATruncatedFileThrows() throws IOException {
    for (String config : List.of(small(), small() + "&durability=machine")) {
      Path file = dir.resolve("truncated-" + Integer.toHexString(config.hashCode()) + ".cuckoo");
      try (MappedFilter f = CuckooFilters.createFile(config, file)) {
        f.add("a");
      }
      try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
        c.truncate(c.size() - 4096);
      }
      CorruptFilterException e = assertThrows(CorruptFilterException.class, () -> CuckooFilters.recover(file));
      assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("bytes long"), e.getMessage());
    }
  }

  /**
   * A machine-durable file keeps its journal beside it while open for writing: a folder the
   * journal cannot be made in is refused at the open, naming it, before any add is taken (here
   * the folder's permission is taken away as a write of the library meets it; {@link
   * #aReadOnlyFolderIsRefusedAtOpen} tries a real one where the tests do not run as root).
   */
  @Test
  void aFolderTheJournalCannotBeMadeInIsRefusedAtOpen() throws IOException {
    Path file = dir.resolve("journal-denied.cuckoo");
    try (MappedFilter f = CuckooFilters.createFile(small() + "&durability=machine", file)) {
      f.add("a");
    }
    try (WatchedWrites denied = new WatchedWrites() {
      @Override
      protected void step(Write w) throws IOException {
        if (w.kind() == Kind.CREATE && w.path().getFileName().toString().endsWith(".journal")) {
          throw new java.nio.file.AccessDeniedException(w.path().toString());
        }
      }
    }) {
      denied.install();
      IOException e = assertThrows(IOException.class, () -> CuckooFilters.openWritable(file));
      assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("journal")
          && e.getMessage().contains("permission denied") && e.getMessage().contains("folder must be writable"),
          e.getMessage());
    }
    try (MappedFilter f = CuckooFilters.open(file)) {
      assertTrue(f.mightContain("a"), "the file is as it was");
    }
  }

  /** A real folder this process may not write (skipped as root, which writes any folder). */
  @Test
  void aReadOnlyFolderIsRefusedAtOpen() throws IOException {
    Path folder = Files.createDirectories(dir.resolve("read-only-folder"));
    Path file = folder.resolve("f.cuckoo");
    try (MappedFilter f = CuckooFilters.createFile(small() + "&durability=machine", file)) {
      f.add("a");
    }
    Files.setPosixFilePermissions(folder, java.nio.file.attribute.PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      org.junit.jupiter.api.Assumptions.assumeFalse(Files.isWritable(folder),
          "running as root: the folder stays writable, nothing to refuse");
      IOException e = assertThrows(IOException.class, () -> CuckooFilters.openWritable(file));
      assertTrue(e.getMessage().contains("journal") && e.getMessage().contains(file.toString()), e.getMessage());
    } finally {
      Files.setPosixFilePermissions(folder, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  /** A creation that fails, at any of its writes, leaves no file where the filter was to be. */
  @Test
  void aCreationThatFailsLeavesNoFile() throws IOException {
    Path file = dir.resolve("never.cuckoo");
    for (long failAt = 0; ; failAt++) {
      long at = failAt;
      long[] writes = {0};
      try (WatchedWrites full = new WatchedWrites() {
        @Override
        protected void step(Write w) throws IOException {
          if (w.kind() != Kind.STORE && writes[0]++ == at) {
            throw new IOException("No space left on device");
          }
        }
      }) {
        full.install();
        try {
          CuckooFilters.createFile(small(), file).close();
          assertTrue(failAt > 3, "a creation takes a few writes");
          return; // every write of a creation was failed once
        } catch (IOException e) {
          assertTrue(e.getMessage().contains(file.getFileName().toString()) && e.getMessage().contains("full"),
              e.getMessage());
        }
      }
      assertFalse(Files.exists(file), "a creation failed at write " + failAt + " left " + file);
      try (java.util.stream.Stream<Path> left = Files.list(dir)) {
        assertTrue(left.noneMatch(p -> p.getFileName().toString().contains("never")),
            "a creation failed at write " + failAt + " left its temporary file");
      }
    }
  }

  /**
   * A real file system that fills: a tmpfs of 4 MiB, mounted for the test (where the tests run as
   * root and may mount; else skipped, saying so). A file larger than it is refused at creation,
   * naming the bytes it needs, and leaves nothing; a file that fits takes adds on every page once
   * another file has filled the disk; a machine-durable file whose journal no longer
   * fits fails its force with an error, leaves no partial journal, and recovers with its last
   * forced keys; no add ever meets a fault of the JVM.
   */
  @Test
  void aFileSystemThatFillsIsAnErrorNotACrash() throws Exception {
    Path mount = Files.createDirectories(dir.resolve("small-fs"));
    org.junit.jupiter.api.Assumptions.assumeTrue(SmallFileSystem.mount(mount, "4m"),
        "cannot mount a tmpfs here (needs root and mount): the full-disk check is left to the fault test");
    try {
      Path big = mount.resolve("big.cuckoo");
      IOException e = assertThrows(IOException.class,
          () -> CuckooFilters.createFile(shapes().get(0) + "&capacity=4000000", big));
      assertTrue(e.getMessage().contains("big.cuckoo") && e.getMessage().contains("the file system is full")
          && e.getMessage().contains("needed"), e.getMessage());
      try (java.util.stream.Stream<Path> left = Files.list(mount)) {
        assertEquals(0, left.count(), "a creation that did not fit leaves nothing");
      }
      // A file that fits, then a disk filled by another file: every store of the adds lands in a
      // block the file took when it was made, so none meets a fault (a sparse file's would).
      Path fits = mount.resolve("p.cuckoo");
      Path other = mount.resolve("other");
      List<String> added = new ArrayList<>();
      try (MappedFilter p = CuckooFilters.createFile(shapes().get(0) + "&capacity=300000", fits)) {
        Files.write(other, new byte[(int) Math.max(0, Files.getFileStore(mount).getUsableSpace() - 16 * 1024)]);
        for (int i = 0; i < 200_000; i++) {
          if (p.add(key(i))) {
            added.add(key(i));
          }
        }
        p.force();
      }
      Files.delete(other);
      try (MappedFilter p = CuckooFilters.open(fits)) {
        for (String k : added) {
          assertTrue(p.mightContain(k), "added key " + k);
        }
        p.verify();
      }
      // The file stays: removed, its blocks would come back only when the collector unmaps it,
      // which would make room for the journal below at a moment no one chooses.
      // A machine-durable filter of ~1.5 MiB: its journal (as large as the pages a force changes) does not fit twice.
      Path file = mount.resolve("m.cuckoo");
      String config = shapes().get(0) + "&capacity=300000&durability=machine";
      Path filler = mount.resolve("filler");
      List<String> forced = new ArrayList<>();
      MappedFilter f = CuckooFilters.createFile(config, file);
      try {
        for (int i = 0; i < 1000; i++) {
          f.add(key(i));
          forced.add(key(i));
        }
        f.force();
        long free = Files.getFileStore(mount).getUsableSpace();
        Files.write(filler, new byte[(int) Math.max(0, free - 64 * 1024)]);
        for (int i = 1000; i < 200_000; i++) {
          f.add(key(i)); // changes every page of the table: the next journal needs them all
        }
        IOException full = assertThrows(IOException.class, f::force);
        assertTrue(full.getMessage().contains(file.toString()) && full.getMessage().contains("journal")
            && full.getMessage().contains("the file system is full"), full.getMessage());
        assertTrue(!Files.exists(mount.resolve("m.cuckoo.journal")) || Files.size(mount.resolve("m.cuckoo.journal")) == 0,
            "no part of a journal is left");
      } finally {
        try {
          f.close();
        } catch (IOException stillFull) {
          // as a force: the file is closed all the same
        }
      }
      Files.delete(filler);
      try (MappedFilter g = CuckooFilters.openWritable(file)) {
        for (String k : forced) {
          assertTrue(g.mightContain(k), "forced key " + k);
        }
        g.verify();
      }
    } finally {
      SmallFileSystem.unmount(mount);
    }
  }

  @Test
  void twoProcessesMapOneFileAtOnce() throws Exception {
    Path file = dir.resolve("shared.cuckoo");
    CuckooFilter heap = CuckooFilters.create(small());
    for (int i = 0; i < 2000; i++) {
      heap.add(key(i));
    }
    write(heap, file);
    try (MappedFilter mine = CuckooFilters.open(file)) {
      assertTrue(mine.mightContain(key(7)));
      assertEquals(0, MappedFileChild.run("query", small(), file.toString(), "2000"));
      for (int i = 0; i < 2000; i++) {
        assertTrue(mine.mightContain(key(i)));
      }
    }
  }
}
