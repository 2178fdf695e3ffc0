package dev.cuckoo.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Reads of a file at a position, which must find every byte they ask for. */
final class ChannelReads {
  private ChannelReads() {}

  /**
   * Fills what remains of {@code into} with the file's bytes from {@code at} (its position in
   * {@code into} added), however many reads that takes. On {@code false}, {@code into}'s position
   * says where the file ended: {@code at + into.position()}; the caller says what that means.
   *
   * @return {@code false} if the file ended first
   * @throws IOException if a read fails
   */
  static boolean readFully(FileChannel channel, ByteBuffer into, long at) throws IOException {
    while (into.hasRemaining()) {
      if (channel.read(into, at + into.position()) < 0) {
        return false;
      }
    }
    return true;
  }
}
