package dev.cuckoo.cli;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;

/**
 * Keys read one at a time from a file or standard input, never holding more than one key and a
 * buffer: one key a line, or fixed-size binary records.
 *
 * <p><b>Lines.</b> A key is the bytes of a line without its {@code \n} and without one {@code
 * \r} before it, taken as they are: UTF-8 text gives its UTF-8 bytes, the bytes {@code
 * add(String)} would add. A UTF-8 byte-order mark at the very start is dropped. A blank line
 * (nothing left) is not a key: it is skipped and counted. Spaces are part of the key. A line of
 * more than {@link #MAX_LINE_BYTES} is an error, since it is most likely a binary file read as
 * text. Lines that are not valid UTF-8 are keys all the same, and counted, so that the command
 * can say the input looks binary.
 *
 * <p><b>Records.</b> Every {@code recordSize} bytes are one key; input that ends inside a record
 * is an error.
 */
final class KeyReader implements Closeable {
  /** The longest line taken as a key: 1 MiB. */
  static final int MAX_LINE_BYTES = 1 << 20;
  /** The largest record size: 1 MiB. */
  static final int MAX_RECORD_BYTES = 1 << 20;
  /** The input name that means standard input. */
  static final String STDIN = "-";

  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  private final InputStream in;
  private final String name;
  private final long totalBytes;
  private final int recordSize;
  private final byte[] buffer = new byte[1 << 16];
  private int start;
  private int end;
  private boolean eof;
  private long bytesConsumed;
  private long position;
  private long blankLines;
  private long lines;
  private long notUtf8Lines;
  private long firstNotUtf8Line;
  private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
      .onMalformedInput(CodingErrorAction.REPORT)
      .onUnmappableCharacter(CodingErrorAction.REPORT);
  private byte[] pending = new byte[256];

  private KeyReader(InputStream in, String name, long totalBytes, int recordSize) {
    this.in = in;
    this.name = name;
    this.totalBytes = totalBytes;
    this.recordSize = recordSize;
  }

  /**
   * Opens an input.
   *
   * @param input a file name, or {@value #STDIN} for {@code stdin}
   * @param recordSize the size of a binary record, or 0 for one key a line
   * @param stdin what {@value #STDIN} reads
   * @return the reader
   * @throws CommandError if the file cannot be opened, or a file's size is not a whole number of
   *     records
   */
  static KeyReader open(String input, int recordSize, InputStream stdin) {
    if (input.equals(STDIN)) {
      return new KeyReader(stdin, "stdin", -1, recordSize);
    }
    Path path = Paths.get(input);
    long size = FileAccess.size(path);
    if (recordSize > 0 && size % recordSize != 0 && !Files.isDirectory(path)) {
      throw partialRecord(input, size, recordSize);
    }
    return new KeyReader(FileAccess.open(path), input, size, recordSize);
  }

  /**
   * @return the next key, or {@code null} at the end of the input
   * @throws CommandError if a line is too long or the input ends inside a record
   * @throws IOException if reading fails
   */
  byte[] next() throws IOException {
    return recordSize > 0 ? nextRecord() : nextLine();
  }

  /** @return the input's name as the user gave it ({@code stdin} for {@value #STDIN}) */
  String name() {
    return name;
  }

  /** @return the input's size in bytes, or -1 if unknown (standard input) */
  long totalBytes() {
    return totalBytes;
  }

  /** @return the bytes consumed so far, for progress */
  long bytesConsumed() {
    return bytesConsumed;
  }

  /** @return the number of blank lines skipped so far */
  long blankLines() {
    return blankLines;
  }

  /** @return the lines read so far, blank ones included; 0 for records */
  long lines() {
    return lines;
  }

  /** @return the lines read so far whose bytes are not valid UTF-8 */
  long notUtf8Lines() {
    return notUtf8Lines;
  }

  /** @return the number of the first line that is not valid UTF-8, or 0 if there is none */
  long firstNotUtf8Line() {
    return firstNotUtf8Line;
  }

  /**
   * @return where the last key came from, as {@code keys.txt:17} (line 17) or {@code keys.bin
   *     record 17}
   */
  String where() {
    return recordSize > 0 ? name + " record " + position : name + ":" + position;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  private byte[] nextRecord() throws IOException {
    byte[] key = new byte[recordSize];
    int n = 0;
    while (n < recordSize) {
      if (start == end && !fill()) {
        if (n == 0) {
          return null;
        }
        throw partialRecord(name, bytesConsumed, recordSize);
      }
      int take = Math.min(recordSize - n, end - start);
      System.arraycopy(buffer, start, key, n, take);
      start += take;
      n += take;
    }
    position++;
    return key;
  }

  private byte[] nextLine() throws IOException {
    while (true) {
      byte[] line = readLine();
      if (line == null) {
        return null;
      }
      position++;
      lines++;
      int from = position == 1 && startsWithBom(line) ? BOM.length : 0;
      int to = line.length > from && line[line.length - 1] == '\r' ? line.length - 1 : line.length;
      if (to == from) {
        blankLines++;
        continue;
      }
      if (!isUtf8(line, from, to) && notUtf8Lines++ == 0) {
        firstNotUtf8Line = position;
      }
      return from == 0 && to == line.length ? line : Arrays.copyOfRange(line, from, to);
    }
  }

  /** @return the bytes up to the next '\n' (not included), or null at the end */
  private byte[] readLine() throws IOException {
    int length = 0;
    while (true) {
      if (start == end && !fill()) {
        return length == 0 ? null : Arrays.copyOf(pending, length);
      }
      int newline = indexOfNewline();
      int stop = newline < 0 ? end : newline;
      int chunk = stop - start;
      if (length + chunk > MAX_LINE_BYTES) {
        throw new CommandError(name + ":" + (position + 1) + ": line longer than " + (MAX_LINE_BYTES >> 20)
            + " MiB; for binary keys use --binary --record-size N");
      }
      if (newline >= 0 && length == 0) {
        byte[] line = Arrays.copyOfRange(buffer, start, stop);
        start = stop + 1;
        return line;
      }
      if (length + chunk > pending.length) {
        pending = Arrays.copyOf(pending, Math.max(pending.length * 2, length + chunk));
      }
      System.arraycopy(buffer, start, pending, length, chunk);
      length += chunk;
      if (newline >= 0) {
        start = stop + 1;
        return Arrays.copyOf(pending, length);
      }
      start = end;
    }
  }

  private int indexOfNewline() {
    for (int i = start; i < end; i++) {
      if (buffer[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private boolean fill() throws IOException {
    if (eof) {
      return false;
    }
    int n = in.read(buffer, 0, buffer.length);
    if (n < 0) {
      eof = true;
      return false;
    }
    start = 0;
    end = n;
    bytesConsumed += n;
    return true;
  }

  private boolean isUtf8(byte[] line, int from, int to) {
    for (int i = from; i < to; i++) {
      if (line[i] < 0) { // a byte of 0x80 or more: the decoder decides
        try {
          utf8.reset().decode(ByteBuffer.wrap(line, i, to - i));
          return true;
        } catch (CharacterCodingException e) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean startsWithBom(byte[] line) {
    return line.length >= BOM.length && line[0] == BOM[0] && line[1] == BOM[1] && line[2] == BOM[2];
  }

  private static CommandError partialRecord(String name, long size, int recordSize) {
    return new CommandError(name + ": ends inside a record: its " + size + " bytes are not a whole number of "
        + recordSize + "-byte records (--record-size " + recordSize + "); " + size % recordSize
        + " bytes are left over");
  }
}
