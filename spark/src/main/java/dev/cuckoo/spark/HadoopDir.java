package dev.cuckoo.spark;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * A directory on a Hadoop FileSystem with the configuration to reach it (the session's {@code
 * hadoopConfiguration}: credentials, endpoints), shipped to the tasks that write into it.
 * {@link Configuration} is not serializable, but it is Writable: it travels in that form.
 */
final class HadoopDir implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String path;
  private transient Configuration conf;

  HadoopDir(Path path, Configuration conf) {
    this.path = path.toString();
    this.conf = conf;
  }

  Path child(String name) {
    return new Path(new Path(path), name);
  }

  Configuration conf() {
    return conf;
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
