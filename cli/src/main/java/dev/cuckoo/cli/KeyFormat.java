package dev.cuckoo.cli;

import picocli.CommandLine.Option;

/**
 * The options that say how an input holds its keys, shared by {@code build} and {@code query}:
 * one key a line (the default), or {@code --binary --record-size N}, fixed-size records.
 */
final class KeyFormat {
  @Option(names = "--binary",
      description = "The input is binary: every --record-size bytes are one key (no line ends).")
  boolean binary;

  @Option(names = "--record-size", paramLabel = "N",
      description = "With --binary: the size of every key in bytes, 1..1048576.")
  Integer recordSize;

  /**
   * @return the record size, or 0 for one key a line
   * @throws CommandError if only one of the two options is given, or the size is out of range
   */
  int recordSize() {
    if (binary != (recordSize != null)) {
      throw new CommandError(binary
          ? "--binary needs --record-size N, the size of every key in bytes"
          : "--record-size is for binary input: add --binary");
    }
    if (!binary) {
      return 0;
    }
    if (recordSize < 1 || recordSize > KeyReader.MAX_RECORD_BYTES) {
      throw new CommandError("--record-size " + recordSize + " is out of range: 1.." + KeyReader.MAX_RECORD_BYTES);
    }
    return recordSize;
  }
}
