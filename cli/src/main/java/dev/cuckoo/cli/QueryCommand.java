package dev.cuckoo.cli;

import dev.cuckoo.CuckooFilter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code cuckoo query}: looks keys up in a filter file and prints {@code KEY<TAB>yes|no}, one
 * line a key in the order given; the exit status is {@link CuckooCommand#EXIT_OK} if every key
 * may be present and {@link CuckooCommand#EXIT_INCOMPLETE} if any is certainly absent.
 */
@Command(
    name = "query",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Look keys up in a filter file: KEY<TAB>yes or KEY<TAB>no.",
      "",
      "Prints one line a key, in order. 'yes' means the key may be present: never a false "
          + "'no', and a false 'yes' about as often as the filter's expected FPP (cuckoo info). "
          + "Keys come from the arguments (UTF-8 text; put -- before a key that starts with -) "
          + "and then from --input, read as build reads it (blank lines skipped; binary keys "
          + "are printed in hex). A file of format version 3 is mapped, not read: the query "
          + "starts in milliseconds whatever the filter's size.",
      "",
    },
    footer = {"", "Exit status: 0 every key may be present, 1 a key is absent, 2 an error."})
final class QueryCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "FILTER", description = "The filter file.")
  Path filterFile;

  @Mixin HashPath hashes;

  @Parameters(index = "1..*", paramLabel = "KEY", description = "Keys to look up.")
  List<String> keys = new ArrayList<>();

  @Option(names = {"-i", "--input"}, paramLabel = "FILE",
      description = "Also look up the keys of FILE, one a line; '-' reads stdin.")
  String input;

  @Mixin KeyFormat format;

  @Option(names = {"-c", "--count"},
      description = "Print KEY<TAB>N instead: the copies of the key's fingerprint, at least the "
          + "times it was added (0 is 'no').")
  boolean count;

  @Option(names = {"-q", "--quiet"}, description = "Print nothing; the exit status answers.")
  boolean quiet;

  @Option(names = "--progress", description = "Show the progress through --input on stderr even when it is not a "
      + "terminal (by default it shows when stderr is a terminal and the answers go elsewhere, or with --quiet).")
  boolean progress;

  @ParentCommand CuckooCommand parent;

  @Spec CommandSpec spec;

  /** Keys of {@code --input} looked up at once. */
  private static final int BATCH = 1024;

  private long absent;

  @Override
  public Integer call() {
    int recordSize = format.recordSize();
    if (keys.isEmpty() && input == null) {
      throw new CommandError("give the keys to look up after the filter file, or --input FILE ('-' for stdin)");
    }
    if (recordSize > 0 && !keys.isEmpty()) {
      throw new CommandError("with --binary, keys come only from --input; KEY arguments are text");
    }
    CuckooFilter filter = FileAccess.openFilter(filterFile, hashes, spec.commandLine().getErr());
    PrintWriter out = spec.commandLine().getOut();
    for (String key : keys) {
      answer(out, filter, key, key.getBytes(StandardCharsets.UTF_8));
    }
    if (input != null) {
      try (KeyReader reader = KeyReader.open(input, recordSize, parent.stdin)) {
        ProgressBar bar = ProgressBar.wanted(progress, !quiet)
            ? ProgressBar.on(spec.commandLine().getErr(), reader.totalBytes())
            : ProgressBar.off();
        long read = 0;
        // Keys are looked up a batch at a time (mightContainAll): a filter larger than the caches
        // answers a batch about twice as fast as a loop (docs/results.md, "Many lookups at once").
        byte[][] batch = new byte[BATCH][];
        int[] lengths = new int[BATCH];
        boolean[] found = new boolean[BATCH];
        int n = 0;
        try {
          for (byte[] key = reader.next(); key != null; key = reader.next()) {
            batch[n] = key;
            lengths[n++] = key.length;
            if (n == BATCH) {
              answerAll(out, filter, batch, lengths, n, found, recordSize);
              n = 0;
            }
            bar.update(++read, reader.bytesConsumed());
          }
          answerAll(out, filter, batch, lengths, n, found, recordSize);
        } finally {
          bar.finish();
        }
      } catch (IOException e) {
        throw new CommandError(input + ": " + e.getMessage(), e);
      }
    }
    out.flush();
    return absent > 0 ? CuckooCommand.EXIT_INCOMPLETE : CuckooCommand.EXIT_OK;
  }

  private void answerAll(PrintWriter out, CuckooFilter filter, byte[][] keys, int[] lengths, int n, boolean[] found,
      int recordSize) {
    if (!count) {
      filter.mightContainAll(keys, lengths, n, found);
    }
    for (int i = 0; i < n; i++) {
      String shown = quiet ? null
          : recordSize > 0 ? HexFormat.of().formatHex(keys[i]) : new String(keys[i], StandardCharsets.UTF_8);
      print(out, shown, count ? filter.count(keys[i]) : found[i] ? 1 : 0);
      keys[i] = null;
    }
  }

  private void answer(PrintWriter out, CuckooFilter filter, String shown, byte[] key) {
    print(out, shown, count ? filter.count(key) : (filter.mightContain(key) ? 1 : 0));
  }

  private void print(PrintWriter out, String shown, long copies) {
    if (copies == 0) {
      absent++;
    }
    if (!quiet) {
      out.print(shown);
      out.print('\t');
      out.println(count ? Long.toString(copies) : copies > 0 ? "yes" : "no");
    }
  }
}
