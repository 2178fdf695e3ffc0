package dev.cuckoo.spi;

import dev.cuckoo.CorruptFilterException;
import java.io.DataInput;
import java.io.IOException;

/**
 * A variant's payload inside a filter file, as a big-endian {@link DataInput} bounded to the
 * payload's declared length: what {@link FilterProvider#read} is handed. Reading past that
 * length, or past the end of the file, throws {@link CorruptFilterException} (never {@link
 * java.io.EOFException}); {@link #readLine()} is not supported (payloads are binary).
 *
 * <p>A forged file can declare any sizes it likes, checksum and all, and the declared payload
 * length is itself only a claim until the bytes arrive. A variant therefore checks every size it
 * reads against {@link #requireRemaining} and reads its arrays with {@link #readLongArray} or
 * {@link #readByteArray}, which never allocate much more than the input has actually
 * delivered.
 */
public interface PayloadInput extends DataInput {
  /** Arrays up to this many bytes are allocated whole before they are read. */
  int DIRECT_READ_BYTES = 64 << 20;

  /** @return the bytes of the payload not read yet */
  long remaining();

  /**
   * Checks that the payload still holds at least {@code bytes} bytes, before the caller
   * allocates room for them.
   *
   * @param bytes how many bytes the caller is about to read
   * @param what what they are, for the message (e.g. {@code "a table of 4096 longs"})
   * @throws CorruptFilterException if fewer remain
   */
  void requireRemaining(long bytes, String what) throws CorruptFilterException;

  /**
   * Whether the next {@code bytes} bytes of the payload are known to be there: within its
   * declared length and ready in the source, as they are when the filter is read from a file or
   * an array (whose streams say how much is left). A variant may then allocate what they fill,
   * whole, before reading them: a forged file cannot make it allocate for bytes it does not
   * hold. From a stream that cannot tell (a socket, say), {@code false}: read in parts that grow
   * ({@link #readLongArray}).
   *
   * @param bytes how many bytes the caller is about to read
   * @return whether they are known to be there; {@code false} if not known
   * @throws IOException if asking the source fails
   */
  default boolean atHand(long bytes) throws IOException {
    return false;
  }

  /**
   * Reads an array of {@code length} big-endian longs, allocating no more than the input has
   * shown it holds: up to {@value #DIRECT_READ_BYTES} bytes, or any number {@link #atHand}, are
   * allocated at once (after {@link #requireRemaining}); a larger array is read in parts into an
   * array that grows as the parts arrive, so a forged file that declares a huge array but ends early costs at most twice what
   * it actually held. A genuine large array costs one extra copy while it grows.
   *
   * @param length how many longs
   * @param what what they are, for the message
   * @return the array
   * @throws CorruptFilterException if the payload or the file ends first
   * @throws IOException if reading fails
   */
  default long[] readLongArray(int length, String what) throws IOException {
    return readLongArray(length, length, what);
  }

  /**
   * Reads {@code count} big-endian longs into a new array of {@code length} longs, the rest
   * zero, allocating in step with the bytes that actually arrive: a forged file that declares a
   * huge payload but ends early makes it allocate at most twice what the file holds, plus 64
   * MiB, before it fails with {@link CorruptFilterException}. An array of up to 2^23 longs (64
   * MiB), or of any size whose bytes are {@link #atHand}, is allocated at once and read in place.
   *
   * @param count how many longs to read
   * @param length the array's length, at least {@code count}
   * @param what what they are, for the message (e.g. {@code "a table of 4096 longs"})
   * @return the array
   * @throws CorruptFilterException if fewer than {@code 8 * count} payload bytes remain (checked
   *     before anything is allocated) or the file ends first
   * @throws IllegalArgumentException if {@code count < 0} or {@code length < count}
   * @throws IOException if reading fails
   */
  long[] readLongArray(int count, int length, String what) throws IOException;

  /**
   * Reads an array of {@code length} bytes, allocating as {@link #readLongArray} does.
   *
   * @param length how many bytes
   * @param what what they are, for the message
   * @return the array
   * @throws CorruptFilterException if the payload or the file ends first
   * @throws IOException if reading fails
   */
  byte[] readByteArray(int length, String what) throws IOException;

  /**
   * Reads {@code len} big-endian longs into {@code dst}, faster than one {@link #readLong()} at
   * a time.
   *
   * @param dst where to store them
   * @param off the first index to fill
   * @param len how many to read
   * @throws IOException if the payload or the file ends first
   */
  void readLongs(long[] dst, int off, int len) throws IOException;
}
