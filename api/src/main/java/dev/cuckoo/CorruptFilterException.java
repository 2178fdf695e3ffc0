package dev.cuckoo;

import java.io.IOException;

/**
 * Thrown when a filter file (or a variant's own dump) is truncated, corrupted, forged, or of a
 * kind this library cannot read: bad magic, unknown format version, unknown variant or hash,
 * a checksum mismatch, or size fields that the input cannot justify.
 *
 * <p>A reader that throws this has allocated nothing in proportion to the sizes the input
 * declares, and has not produced a filter.
 */
public class CorruptFilterException extends IOException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what was wrong, naming the field and the value found
   */
  public CorruptFilterException(String message) {
    super(message);
  }

  /**
   * @param message what was wrong, naming the field and the value found
   * @param cause the failure underneath (for example the configuration error of a bad spec)
   */
  public CorruptFilterException(String message, Throwable cause) {
    super(message, cause);
  }
}
