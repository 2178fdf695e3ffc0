package dev.cuckoo.spark;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A path on a Hadoop FileSystem with the configuration to reach it (the session's {@code
 * hadoopConfiguration}: credentials, endpoints), shipped to the tasks that use it: the directory
 * a write's tasks put their shards in, or the filter file executors map. {@link Configuration}
 * is not serializable, but it is Writable: it travels in that form.
 */
final class HadoopPath implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String path;
  private transient Configuration conf;

  HadoopPath(Path path, Configuration conf) {
    this.path = path.toString();
    this.conf = conf;
  }

  Path path() {
    return new Path(path);
  }

  Path child(String name) {
    return new Path(new Path(path), name);
  }

  FileSystem fileSystem() throws IOException {
    return fileSystem(new Path(path), conf);
  }

  /**
   * The FileSystem of a path. For {@code file://} it is the raw local one: Hadoop's default local
   * FileSystem writes a {@code .crc} file beside each file, and a filter file checks itself
   * (CRC32C), so those would only be litter beside the user's file.
   */
  static FileSystem fileSystem(Path path, Configuration conf) throws IOException {
    FileSystem fs = path.getFileSystem(conf);
    return fs instanceof LocalFileSystem local ? local.getRaw() : fs;
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    conf.write(out);
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    conf = new Configuration(false);
    conf.readFields(in);
  }
}
