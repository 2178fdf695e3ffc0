package dev.cuckoo.cli;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.FilterVariant;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code cuckoo build}: adds every key of an input to a new filter and writes the filter file.
 *
 * <p>A refused add (the filter has no room) is never silent: by default the build stops, writes
 * nothing, exits with {@link CuckooCommand#EXIT_INCOMPLETE} and says where it stopped, how many
 * keys the input holds and which config would take them; {@code --on-refusal write} writes what
 * was stored, {@code --on-refusal skip} goes on past refused keys.
 */
@Command(
    name = "build",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Build a filter file from keys, one a line or fixed-size records.",
      "",
      "Lines: a key is the line's bytes (UTF-8 text) without its line end, \\n or \\r\\n; "
          + "spaces are part of the key. Blank lines are not keys: they are skipped and counted. "
          + "A UTF-8 byte-order mark at the start is dropped. The input is read as a stream, "
          + "never whole into memory.",
      "",
      "A refused add (the filter is full) stops the build by default: nothing is written, the "
          + "exit status is 1, and the message names the line, the keys the input holds and a "
          + "config that takes them, tried on the input (read again; not for stdin) before it "
          + "is given. The output is written atomically: a failed build never leaves a partial "
          + "file. Progress (rate, ETA) goes to stderr in a terminal, after "
          + "half a second.",
      "",
    })
final class BuildCommand implements Callable<Integer> {
  /** What a refused add does. */
  enum OnRefusal {
    /** Stop; write nothing. */
    STOP,
    /** Stop; write the filter with the keys stored before the refused one. */
    WRITE,
    /** Skip the refused key and go on; write the filter without the refused keys. */
    SKIP
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  ConfigSource config;

  /** Where the configuration comes from: a config string, or a properties file. */
  static final class ConfigSource {
    @Option(names = {"-c", "--config"}, required = true, paramLabel = "CONFIG",
        description = "The filter's config, 'variant?key=value&...', e.g. 'classic?capacity=1000000&fingerprintBits=12'.")
    String text;

    @Option(names = "--config-file", required = true, paramLabel = "FILE",
        description = "Or a properties file with the same keys, e.g. cuckoo.variant=classic, cuckoo.capacity=1000000.")
    Path file;
  }

  @Option(names = "--config-prefix", paramLabel = "PREFIX", defaultValue = "cuckoo.",
      description = "With --config-file: the keys' prefix (default: ${DEFAULT-VALUE}; '' for none).")
  String configPrefix;

  @Option(names = {"-i", "--input"}, required = true, paramLabel = "FILE",
      description = "The keys; '-' reads stdin.")
  String input;

  @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE",
      description = "The filter file to write (replaced if it exists).")
  Path output;

  @Mixin KeyFormat format;

  @Mixin HashPath hashes;

  @Option(names = "--distinct",
      description = "Add each key once: skip keys the filter already reports present (duplicates, "
          + "and the rare false positive, which then needs no slot to be found).")
  boolean distinct;

  @Option(names = "--on-refusal", paramLabel = "stop|write|skip", defaultValue = "stop",
      description = "When the filter refuses a key: stop and write nothing (default), stop and "
          + "write the keys stored so far, or skip it and go on. All three exit with status 1.")
  OnRefusal onRefusal;

  @Option(names = "--in-place",
      description = "Build the filter in a mapped file rather than on the heap, for filters larger "
          + "than the heap (variants that map: classic, semi-sorted). The file is built under a temporary name "
          + "beside the output and renamed when done; the hash must be installed.")
  boolean inPlace;

  @Option(names = {"-q", "--quiet"}, description = "Print no progress and no summary; errors and warnings only.")
  boolean quiet;

  @Option(names = "--progress", description = "Show progress even when stderr is not a terminal.")
  boolean progress;

  @ParentCommand CuckooCommand parent;

  @Spec CommandSpec spec;

  /** @return the help's footer: the variants and hashes installed in this build */
  static String footer() {
    return String.format(Locale.ROOT, "%nInstalled variants: %s. Installed hashes: %s. "
            + "Every config key: docs/guide/configuration.md.%n%n%s",
        String.join(", ", CuckooFilters.variants()), String.join(", ", CuckooFilters.hashes()),
        CuckooCommand.EXIT_STATUS_HELP);
  }

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    int recordSize = format.recordSize();
    FilterSpec wanted = hashes.resolve(wantedSpec());
    if (!input.equals(KeyReader.STDIN)) {
      FileAccess.requireNotSameFile(Paths.get(input), output, "--output");
    }
    FileAccess.requireWritable(output);
    if (inPlace && !FileAccess.mapsFiles(wanted.variant())) {
      throw new CommandError("--in-place builds the filter in a mapped file, and variant " + wanted.variant()
          + (CuckooFilters.variants().contains(wanted.variant()) ? " is not mapped" : " is not installed")
          + " (variants that are: " + FileAccess.mappingVariants() + "); without --in-place it is built on the heap");
    }
    if (!inPlace) {
      return build(out, err, recordSize, wanted, create(wanted), null);
    }
    Path temp = TemporaryFiles.forTarget(output);
    try {
      MappedFilter filter = createFile(wanted, temp);
      try {
        return build(out, err, recordSize, wanted, filter, temp);
      } finally {
        filter.close();
      }
    } finally {
      TemporaryFiles.release(temp);
    }
  }

  /**
   * Adds the input's keys and writes the filter: {@code filter} is on the heap, or, with {@code
   * mappedFile}, mapped from that temporary file, which is then closed and renamed to the output.
   */
  private int build(PrintWriter out, PrintWriter err, int recordSize, FilterSpec wanted, CuckooFilter filter,
      Path mappedFile) throws IOException {
    long startNanos = System.nanoTime();
    Tally tally = new Tally();
    try (KeyReader keys = KeyReader.open(input, recordSize, parent.stdin)) {
      boolean showProgress = !quiet && ProgressBar.wanted(progress, false);
      ProgressBar bar = showProgress ? ProgressBar.on(err, keys.totalBytes()) : ProgressBar.off();
      try {
        addAll(filter, keys, bar, tally);
      } finally {
        bar.finish();
      }
      tally.blankLines = keys.blankLines();
      warnAboutInput(err, keys, tally);
    }
    long nanos = System.nanoTime() - startNanos;

    if (tally.refused > 0) {
      reportRefusal(err, filter, wanted, tally);
    }
    if (tally.refused > 0 && onRefusal == OnRefusal.STOP) {
      err.println("cuckoo: nothing written to " + output + " (--on-refusal write keeps the keys stored so far,"
          + " --on-refusal skip goes on past refused keys)");
      return CuckooCommand.EXIT_INCOMPLETE;
    }
    if (mappedFile == null) {
      FileAccess.writeAtomically(output, filter::writeTo);
    } else {
      ((MappedFilter) filter).close();
      try {
        FileAccess.moveReplacing(mappedFile, output.toAbsolutePath());
      } catch (IOException e) {
        throw new CommandError(output + ": cannot write it: " + e.getMessage(), e);
      }
    }
    if (tally.refused > 0) {
      err.println("cuckoo: wrote " + output + " without " + (onRefusal == OnRefusal.SKIP
          ? TextFormat.things(tally.refused, "refused key") + ": query answers no for most of them"
          : TextFormat.things(tally.read - tally.readAtRefusal + 1, "key") + " from " + tally.refusedAt + " on"));
    }
    if (!quiet) {
      printSummary(out, filter, tally, nanos);
    }
    return tally.refused > 0 ? CuckooCommand.EXIT_INCOMPLETE : CuckooCommand.EXIT_OK;
  }

  /** Counts of one build. */
  private static final class Tally {
    long read;
    long present;
    long refused;
    long blankLines;
    String refusedAt;
    long readAtRefusal;
    long storedAtRefusal;
    long copiesAtRefusal;
  }

  private void addAll(CuckooFilter filter, KeyReader keys, ProgressBar bar, Tally tally) {
    boolean stopped = false;
    try {
      for (byte[] key = keys.next(); key != null; key = keys.next()) {
        tally.read++;
        bar.update(tally.read, keys.bytesConsumed());
        if (stopped) {
          continue; // counting the keys the input holds, for the advice
        }
        if (distinct && filter.mightContain(key)) {
          tally.present++;
        } else if (!filter.add(key)) {
          if (tally.refused++ == 0) {
            tally.refusedAt = keys.where();
            tally.readAtRefusal = tally.read;
            tally.storedAtRefusal = filter.size();
            tally.copiesAtRefusal = filter.count(key);
          }
          stopped = onRefusal != OnRefusal.SKIP;
        }
      }
    } catch (IOException e) {
      throw new CommandError(keys.name() + ": " + e.getMessage(), e);
    } catch (OutOfMemoryError e) {
      throw CommandError.outOfMemory("build the filter (it held " + TextFormat.grouped(filter.size())
          + " keys at " + keys.where() + ")");
    }
  }

  /**
   * Warns, even under {@code --quiet}, of an input that most likely is not what the user meant:
   * one that holds no key, or lines that are not UTF-8 text (a binary file read as lines).
   */
  private static void warnAboutInput(PrintWriter err, KeyReader keys, Tally tally) {
    if (tally.read == 0) {
      err.println("cuckoo: warning: " + keys.name() + " holds no keys"
          + (tally.blankLines > 0 ? " (" + TextFormat.things(tally.blankLines, "blank line") + ")" : "")
          + ": the filter written is empty");
    } else if (keys.notUtf8Lines() > 0) {
      err.println("cuckoo: warning: " + TextFormat.grouped(keys.notUtf8Lines()) + " of the "
          + TextFormat.things(keys.lines(), "line") + " of " + keys.name() + " are not valid UTF-8 text (the first: line "
          + keys.firstNotUtf8Line() + "): if the keys are binary, read them with --binary --record-size N");
    }
  }

  /** Says where the filter refused a key, why it probably did, and which config would do. */
  private void reportRefusal(PrintWriter err, CuckooFilter filter, FilterSpec wanted, Tally tally) {
    err.println("cuckoo: " + tally.refusedAt + ": the filter refused this key after storing "
        + TextFormat.things(tally.storedAtRefusal, "key") + " (load "
        + String.format(Locale.ROOT, "%.1f%%", 100.0 * tally.storedAtRefusal / filter.slots()) + " of "
        + TextFormat.grouped(filter.slots()) + " slots)");
    int bucketSize = filter.spec().bucketSize().orElse(0);
    long capacity = filter.spec().capacity().orElse(0);
    if (bucketSize > 0 && tally.copiesAtRefusal >= 2L * bucketSize) {
      err.println("cuckoo: the filter holds " + tally.copiesAtRefusal + " copies of that key already, and all"
          + " copies of a key go to its 2 buckets of " + bucketSize + " slots: use --distinct to add each key once");
      return;
    }
    // maxKicks=0 refuses a key the moment its two buckets are full, at any capacity: the cause
    // to name and to change, not the capacity.
    boolean noKicks = filter.spec().maxKicks().orElse(-1) == 0;
    String kicks = noKicks ? "maxKicks=0 refuses a key as soon as its two buckets are full" : null;
    String why = "the input holds " + TextFormat.things(tally.read, "key");
    long start;
    if (tally.read > capacity) {
      why += ", more than the capacity of " + TextFormat.grouped(capacity) + (noKicks ? ", and " + kicks : "");
      start = TextFormat.roundUpToTwoFigures(tally.read + tally.read / 10);
    } else {
      why += ", within the capacity of " + TextFormat.grouped(capacity) + ", but "
          + (noKicks ? kicks : "the filter filled first");
      start = noKicks ? capacity : TextFormat.roundUpToTwoFigures(2 * capacity);
    }
    FilterSpec.Builder first = noKicks ? withoutMaxKicks(wanted) : wanted.toBuilder();
    err.println("cuckoo: " + why + ": " + suggestion(first.capacity(start).build(), tally.read));
  }

  /** Configs tried on the input before the advice gives up. */
  private static final int MAX_TRIALS = 8;

  /**
   * Finds a config that takes the input, starting from {@code candidate}: each is tried on the
   * input, read again, and one that refuses a key is followed by one sized from the keys it
   * stored. A variant's nominal capacity is not what every shape reaches (a scalable filter
   * that never grows fills at RedisBloom's kick limit long before it), so advice that is not
   * tried could be refused in its turn.
   *
   * @return the advice: a config, tried or (for stdin, which cannot be read again) likely
   */
  private String suggestion(FilterSpec candidate, long keys) {
    for (int trial = 0; trial < MAX_TRIALS; trial++) {
      try {
        CuckooFilters.variant(candidate.variant()).resolve(candidate);
      } catch (IllegalArgumentException e) {
        return "no filter of variant " + candidate.variant() + " takes them (" + e.getMessage() + ")";
      }
      if (input.equals(KeyReader.STDIN)) {
        return "a filter that takes them is likely --config '" + candidate + "' (not tried: stdin cannot be read again)";
      }
      String untried = inPlace ? roomOnDisk(candidate) : roomOnHeap(candidate);
      if (untried != null) {
        return "a filter that takes them is likely --config '" + candidate + "' (not tried: " + untried + ")";
      }
      long stored;
      try {
        stored = storedBeforeRefusal(candidate);
      } catch (IllegalArgumentException | OutOfMemoryError e) {
        return "a filter that takes them is likely --config '" + candidate + "' (not tried: "
            + (e instanceof OutOfMemoryError ? "not enough memory" : e.getMessage()) + ")";
      } catch (IOException e) {
        return "a filter that takes them is likely --config '" + candidate + "' (not tried: its file could not be"
            + " written beside " + output + ": " + e.getMessage() + ")";
      }
      if (stored < 0) {
        return "a filter that takes them is --config '" + candidate + "'";
      }
      if (trial == MAX_TRIALS - 1) {
        return "no config tried takes them (the last, --config '" + candidate + "', refused a key after "
            + TextFormat.things(stored, "key") + ")";
      }
      long capacity = candidate.capacity().orElse(keys);
      long sized = (long) Math.ceil(capacity * 1.1 * keys / Math.max(1, stored));
      candidate = candidate.toBuilder()
          .capacity(TextFormat.roundUpToTwoFigures(Math.max(capacity + capacity / 4, sized))).build();
    }
    throw new AssertionError("the last trial returns");
  }

  /**
   * Builds a filter of this spec in memory from the input, read again.
   *
   * @return the keys it stored when it refused one, or -1 if it took every key
   */
  private long storedBeforeRefusal(FilterSpec spec) throws IOException {
    if (!inPlace) {
      return storedBeforeRefusal(CuckooFilters.create(spec));
    }
    // A build in place is tried in place: in a file beside the output, removed after, so that
    // the advice is about what the file system holds, not the heap.
    Path temp = TemporaryFiles.forTarget(output);
    try (MappedFilter trial = CuckooFilters.createFile(spec.toString(), temp)) {
      return storedBeforeRefusal(trial);
    } finally {
      TemporaryFiles.release(temp);
    }
  }

  private long storedBeforeRefusal(CuckooFilter trial) {
    try (KeyReader keys = KeyReader.open(input, format.recordSize(), parent.stdin)) {
      for (byte[] key = keys.next(); key != null; key = keys.next()) {
        if (!(distinct && trial.mightContain(key)) && !trial.add(key)) {
          return trial.size();
        }
      }
      return -1;
    } catch (IOException e) {
      throw new CommandError(input + ": " + e.getMessage(), e);
    }
  }

  /**
   * @return why a filter of the candidate cannot be tried on the heap (its size against the
   *     heap's maximum, and what to do), or {@code null} if it can
   */
  private static String roomOnHeap(FilterSpec candidate) {
    boolean maps = FileAccess.mapsFiles(candidate.variant());
    long needed;
    try {
      FilterVariant variant = CuckooFilters.variant(candidate.variant());
      FilterSpec resolved = variant.resolve(candidate);
      try {
        needed = variant.heapBytes(resolved).orElse(0);
      } catch (IllegalArgumentException pastOneArray) {
        // The spec is valid, and only the heap refuses it: its table is past what one array holds.
        return "its table is more than one Java array holds, whatever the heap"
            + (maps ? "; build it with --in-place, in a file, which has no such bound" : "");
      }
    } catch (IllegalArgumentException badConfig) {
      return null; // create says what is wrong with it
    }
    long max = Runtime.getRuntime().maxMemory();
    if (needed <= max) {
      return null;
    }
    return "it " + needsMoreThan(candidate, needed, "Java's heap of " + TextFormat.mebibytes(max));
  }

  /** @return that a filter of the spec needs more than {@code room} holds, and the ways out from the command line */
  private static String needsMoreThan(FilterSpec spec, long needed, String room) {
    return "needs " + TextFormat.mebibytes(needed) + ", more than " + room
        + (FileAccess.mapsFiles(spec.variant()) ? "; build it with --in-place, in a file the heap does not bound, or"
            : ";") + " " + CommandError.moreHeap(needed);
  }

  /**
   * @return why a filter of the candidate cannot be tried in a file beside the output (its file
   *     against the room left on that file system), or {@code null} if it can
   */
  private String roomOnDisk(FilterSpec candidate) {
    long needed;
    try {
      needed = CuckooFilters.variant(candidate.variant()).fileBytes(candidate).orElse(0);
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    Path folder = output.toAbsolutePath().getParent();
    long free;
    try {
      free = java.nio.file.Files.getFileStore(folder).getUsableSpace();
    } catch (IOException e) {
      return null; // unknown: the trial itself will tell
    }
    if (needed <= free) {
      return null;
    }
    return "its file takes " + TextFormat.mebibytes(needed) + " once full, and the file system of " + folder
        + " has " + TextFormat.mebibytes(free) + " free";
  }

  /** @return the heap a new filter of the spec takes, or 0 if its variant does not say */
  private static long heapBytes(FilterSpec spec) {
    try {
      return CuckooFilters.variant(spec.variant()).heapBytes(spec).orElse(0);
    } catch (IllegalArgumentException e) {
      return 0; // the variant refuses it: create says why
    }
  }


  /** @return a builder of the spec without its {@code maxKicks}, so the variant's default applies */
  private static FilterSpec.Builder withoutMaxKicks(FilterSpec spec) {
    FilterSpec.Builder b = FilterSpec.builder(spec.variant());
    spec.capacity().ifPresent(b::capacity);
    spec.fingerprintBits().ifPresent(b::fingerprintBits);
    spec.targetFpp().ifPresent(b::targetFpp);
    spec.bucketSize().ifPresent(b::bucketSize);
    spec.hash().ifPresent(b::hash);
    spec.hashInstance().ifPresent(b::hash);
    spec.seed().ifPresent(b::seed);
    spec.concurrency().ifPresent(b::concurrency);
    spec.options().forEach(b::option);
    return b;
  }

  private void printSummary(PrintWriter out, CuckooFilter filter, Tally tally, long nanos) {
    out.println("wrote " + output + ": " + TextFormat.things(filter.size(), "key") + " from " + input + " in "
        + TextFormat.seconds(nanos) + " (" + TextFormat.count(tally.read / Math.max(nanos / 1e9, 1e-9))
        + " keys/s)");
    if (tally.blankLines > 0) {
      out.println("skipped " + TextFormat.things(tally.blankLines, "blank line"));
    }
    if (tally.present > 0) {
      out.println("skipped " + TextFormat.things(tally.present, "key") + " already present (--distinct)");
    }
    new FilterReport(filter).printText(out);
  }

  private FilterSpec wantedSpec() {
    if (config.text != null) {
      try {
        return CuckooFilters.spec(config.text);
      } catch (IllegalArgumentException e) {
        throw new CommandError("bad config '" + config.text + "': " + e.getMessage(), e);
      }
    }
    Properties properties = new Properties();
    try (InputStream in = FileAccess.open(config.file);
        Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
      properties.load(reader);
    } catch (IOException e) {
      throw FileAccess.failure(config.file, e);
    } catch (IllegalArgumentException e) {
      throw new CommandError(config.file + ": not a properties file: " + e.getMessage(), e);
    }
    try {
      return FilterSpec.fromProperties(properties, configPrefix);
    } catch (IllegalArgumentException e) {
      throw new CommandError("bad config in " + config.file + ": " + e.getMessage(), e);
    }
  }

  private MappedFilter createFile(FilterSpec wanted, Path file) {
    try {
      return CuckooFilters.createFile(wanted.toString(), file);
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      throw new CommandError("bad config for --in-place " + (config.text != null ? "'" + config.text + "'" : "in "
          + config.file) + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw new CommandError(file + ": cannot write it: " + e.getMessage(), e);
    }
  }

  private CuckooFilter create(FilterSpec wanted) {
    String noRoom = roomOnHeap(wanted);
    if (noRoom != null) {
      throw new CommandError("a filter of " + wanted + " does not fit on the heap: " + noRoom);
    }
    try {
      return CuckooFilters.create(wanted);
    } catch (IllegalArgumentException e) {
      if (isOutOfMemory(e)) {
        throw new CommandError("a filter of " + wanted + " " + needsMoreThan(wanted, heapBytes(wanted),
            "Java's heap of " + TextFormat.mebibytes(Runtime.getRuntime().maxMemory()) + " had free"), e);
      }
      throw new CommandError("bad config " + (config.text != null ? "'" + config.text + "'" : "in " + config.file)
          + ": " + e.getMessage(), e);
    } catch (OutOfMemoryError e) {
      throw CommandError.outOfMemory("create a filter of " + wanted);
    }
  }

  /** @return whether the library refused a filter because its allocation ran out of heap */
  private static boolean isOutOfMemory(IllegalArgumentException e) {
    for (Throwable suppressed : e.getSuppressed()) {
      if (suppressed instanceof OutOfMemoryError) {
        return true;
      }
    }
    return false;
  }
}
