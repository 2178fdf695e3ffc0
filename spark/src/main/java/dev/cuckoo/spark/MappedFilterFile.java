package dev.cuckoo.spark;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.MappedFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A filter file that each executor maps once ({@link CuckooFilters#open}) and keeps mapped for
 * the life of its JVM, for lookups by path. A file on the local FileSystem is mapped where it
 * is; one on another FileSystem (HDFS, S3) is first copied to the executor's temporary
 * directory. The driver notes the file's length and modification time when the column is made,
 * and an executor that finds another file there refuses it rather than answer from it.
 */
final class MappedFilterFile implements ExecutorFilter {
  private static final long serialVersionUID = 1L;
  private static final Map<String, MappedFilter> OPEN = new ConcurrentHashMap<>();

  private final HadoopPath file;
  private final long length;
  private final long modified;

  private MappedFilterFile(HadoopPath file, long length, long modified) {
    this.file = file;
    this.length = length;
    this.modified = modified;
  }

  /** On the driver: the file as it is now. */
  static MappedFilterFile of(HadoopPath file) {
    try {
      FileStatus status = file.fileSystem().getFileStatus(file.path());
      return new MappedFilterFile(file, status.getLen(), status.getModificationTime());
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the filter file " + file.path() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public MappedFilter filter() {
    return OPEN.computeIfAbsent(file.path() + "@" + length + "@" + modified, k -> open());
  }

  @Override
  public String toString() {
    return "filter file " + file.path();
  }

  private MappedFilter open() {
    Path path = file.path();
    try {
      FileSystem fs = file.fileSystem();
      FileStatus status = fs.getFileStatus(path);
      if (status.getLen() != length || status.getModificationTime() != modified) {
        throw new IllegalStateException("the filter file " + path + " changed after the lookup column was made");
      }
      if ("file".equals(fs.getUri().getScheme())) {
        return CuckooFilters.open(java.nio.file.Path.of(path.toUri()));
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
