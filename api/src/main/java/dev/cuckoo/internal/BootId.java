package dev.cuckoo.internal;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This machine's boot id: 16 bytes that change at every boot (Linux's {@code
 * /proc/sys/kernel/random/boot_id}), written into a file's mark with its "being changed" state
 * ({@link MappedEnvelope#beginChange}) so that the next writer tells a process that died (same
 * boot: the kernel wrote its pages) from a machine that stopped (another boot: pages may be
 * lost). All zeros where the system has none.
 */
final class BootId {
  /** Where Linux keeps it. */
  static final String SOURCE = "/proc/sys/kernel/random/boot_id";
  /** Its bytes. */
  static final int BYTES = 16;

  private static final byte[] CURRENT = read();

  private BootId() {}

  /** @return this boot's id, zeros if unknown (a copy) */
  static byte[] current() {
    return CURRENT.clone();
  }

  /** @return whether the id is all zeros: not known */
  static boolean isUnknown(byte[] id) {
    for (byte b : id) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  /** @return the id as Linux writes it */
  static String text(byte[] id) {
    StringBuilder hex = new StringBuilder(36);
    for (int i = 0; i < id.length; i++) {
      if (i == 4 || i == 6 || i == 8 || i == 10) {
        hex.append('-');
      }
      hex.append(Character.forDigit(id[i] >> 4 & 0xF, 16)).append(Character.forDigit(id[i] & 0xF, 16));
    }
    return hex.toString();
  }

  private static byte[] read() {
    byte[] id = new byte[BYTES];
    try {
      String text = Files.readString(Path.of(SOURCE)).trim().replace("-", "");
      if (text.length() != 2 * BYTES) {
        return id;
      }
      for (int i = 0; i < BYTES; i++) {
        id[i] = (byte) Integer.parseInt(text.substring(2 * i, 2 * i + 2), 16);
      }
    } catch (java.io.IOException | RuntimeException e) {
      return new byte[BYTES]; // not Linux, or no procfs: unknown
    }
    return id;
  }
}
