package dev.cuckoo;

import dev.cuckoo.internal.FilterFile;
import dev.cuckoo.internal.ProviderRegistry;

/**
 * What a filter file's header tells, read without reading its table and without looking up its
 * variant or hash ({@link CuckooFilters#describe}): a file whose variant or hash is not installed
 * is described all the same. Nothing past the header is checked: {@link CuckooFilters#read} and
 * {@link MappedFilter#verify} check the rest.
 */
public final class FilterFileInfo {
  private final FilterFile.Header header;
  private final long fileBytes;

  FilterFileInfo(FilterFile.Header header, long fileBytes) {
    this.header = header;
    this.fileBytes = fileBytes;
  }

  /** @return the envelope's format version: 1 (0.1.0), 2, or 3 (a table aligned to map) */
  public int formatVersion() {
    return header.version();
  }

  /** @return the variant the file names, installed or not */
  public String variant() {
    return header.variant();
  }

  /** @return the spec the file records, as its config string */
  public String spec() {
    return header.spec();
  }

  /** @return the length of the variant's payload, in bytes */
  public long payloadBytes() {
    return header.payloadLength();
  }

  /** @return the file's length in bytes, as the file system reports it */
  public long fileBytes() {
    return fileBytes;
  }

  /**
   * @return whether the file is marked as being changed in place (format version 3): a writer
   *     has it open, or stopped before it forced it; {@code open} and {@code read} refuse it
   */
  public boolean beingChanged() {
    return header.dirty();
  }

  /**
   * @return the format version this library writes for the file's variant: 3 for a variant that
   *     maps its files, 2 for one that does not, or the file's own version for a variant that is
   *     not installed
   */
  public int currentFormatVersion() {
    if (!ProviderRegistry.isInstalled(header.variant())) {
      return header.version();
    }
    return ProviderRegistry.mapsFiles(header.variant()) ? FilterFile.FORMAT_VERSION : FilterFile.UNALIGNED_VERSION;
  }

  /**
   * @return whether {@link CuckooFilters#open} can map the file: format version 3 and a variant
   *     that is installed and maps its files (the hash must be installed too)
   */
  public boolean maps() {
    return header.version() >= FilterFile.FORMAT_VERSION && currentFormatVersion() == FilterFile.FORMAT_VERSION;
  }

  /** @return a line for logs: version, variant and spec */
  @Override
  public String toString() {
    return "format version " + formatVersion() + ", " + spec();
  }
}
