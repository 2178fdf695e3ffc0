package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterFileInfo;
import dev.cuckoo.KeyKind;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A filter file that each executor maps once ({@link CuckooFilters#open}) and keeps mapped for
 * the life of its JVM, for lookups by path. A file on the local FileSystem is mapped where it
 * is; one on another FileSystem (HDFS, S3) is first copied to the executor's temporary
 * directory.
 *
 * <p>The driver checks the file when the column is made: not a directory, a filter file (its
 * header read and checked, for a local file) of a variant that maps. It notes the file's
 * length, modification time and last 4 bytes (the CRC32C of the rest, so a file rewritten with
 * the same length in the same millisecond differs there too). Every task that uses the column
 * checks them again before it answers, so a file replaced under a planned Dataset fails the
 * query naming the path rather than answer from the old mapping or the new file.
 */
final class MappedFilterFile implements ExecutorFilter {
  private static final long serialVersionUID = 1L;
  private static final Map<String, MappedFilter> OPEN = new ConcurrentHashMap<>();

  private final HadoopPath file;
  /** The file as the driver found it. */
  private final Stamp noted;
  /** The kind of key its header records, where the driver read the header; else null. */
  private final KeyKind kind;

  private MappedFilterFile(HadoopPath file, Stamp noted, KeyKind kind) {
    this.file = file;
    this.noted = noted;
    this.kind = kind;
  }

  @Override
  public KeyKind knownKind() {
    return kind;
  }

  /**
   * What tells one version of a file from another: its length, modification time and last 4
   * bytes (a filter file's CRC32C of all before them; 0 for a file shorter than 4 bytes).
   */
  private record Stamp(long length, long modified, int checksum) implements java.io.Serializable {
    static Stamp of(FileSystem fs, Path path, FileStatus status) throws IOException {
      long length = status.getLen();
      int checksum = 0;
      if (length >= 4) {
        try (FSDataInputStream in = fs.open(path)) {
          in.seek(length - 4);
          checksum = in.readInt();
        }
      }
      return new Stamp(length, status.getModificationTime(), checksum);
    }
  }

  /**
   * On the driver: the file as it is now, checked.
   *
   * @throws IllegalArgumentException naming the path, if it is missing, a directory, not a
   *     filter file, damaged, or of a variant that does not map
   */
  static MappedFilterFile of(HadoopPath file) {
    Path path = file.path();
    try {
      FileSystem fs = file.fileSystem();
      FileStatus status = fs.getFileStatus(path);
      if (status.isDirectory()) {
        throw new IllegalArgumentException("the filter file " + path + " is a directory; give the path of a file");
      }
      KeyKind kind = null;
      if ("file".equals(fs.getUri().getScheme())) {
        FilterFileInfo info = CuckooFilters.describe(java.nio.file.Path.of(fs.makeQualified(path).toUri()));
        if (!info.maps()) {
          throw new IllegalArgumentException("the filter file " + path + " (" + info + ") cannot be mapped: a "
              + info.variant() + " filter is looked up by mightContain(CuckooFilters.read(...), column), which"
              + " broadcasts it");
        }
        kind = CuckooFilters.spec(info.spec()).keyKind().orElse(null);
      }
      return new MappedFilterFile(file, Stamp.of(fs, path, status), kind);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the filter file " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public MappedFilter filter() {
    Path path = file.path();
    try {
      FileSystem fs = file.fileSystem();
      FileStatus status = fs.getFileStatus(path);
      if (status.getLen() != noted.length() || status.getModificationTime() != noted.modified()
          || !Stamp.of(fs, path, status).equals(noted)) {
        throw new IllegalStateException("the filter file " + path + " changed after the lookup column was made:"
            + " make the column (or plan the Dataset) again to use the new file");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the filter file " + path, e);
    }
    return OPEN.computeIfAbsent(path + "@" + noted.length() + "@" + noted.modified() + "@" + noted.checksum(), k -> open());
  }

  @Override
  public String toString() {
    return "filter file " + file.path();
  }

  private MappedFilter open() {
    Path path = file.path();
    try {
      FileSystem fs = file.fileSystem();
      if ("file".equals(fs.getUri().getScheme())) {
        return CuckooFilters.open(java.nio.file.Path.of(fs.makeQualified(path).toUri()));
      }
      java.nio.file.Path local = Files.createTempFile("cuckoo-spark-", ".cuckoo");
      local.toFile().deleteOnExit();
      fs.copyToLocalFile(false, path, new Path(local.toUri()), true);
      return CuckooFilters.open(local);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot map the filter file " + path, e);
    }
  }
}
