package dev.cuckoo.docs;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.FilterProvider;
import dev.cuckoo.spi.HashStrategy;
import dev.cuckoo.spi.HashStrategyProvider;
import dev.cuckoo.spi.PayloadInput;
import dev.cuckoo.spi.SpecSchema;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * A variant and a hash as a third party installs them: a jar whose services files name them (the
 * classes themselves are in these tests' folder). Only looked up by name, never used.
 */
final class ThirdPartyProviders {
  static final String VARIANT = "third-party";
  static final String HASH = "third-party-hash";

  private ThirdPartyProviders() {}

  /**
   * Writes the jar that installs them.
   *
   * @param jar where
   * @return the jar
   */
  static Path writeJar(Path jar) throws IOException {
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out)) {
      service(j, FilterProvider.class, Variant.class);
      service(j, HashStrategyProvider.class, Hash.class);
    }
    return jar;
  }

  private static void service(JarOutputStream j, Class<?> service, Class<?> provider) throws IOException {
    j.putNextEntry(new JarEntry("META-INF/services/" + service.getName()));
    j.write((provider.getName() + "\n").getBytes(StandardCharsets.UTF_8));
    j.closeEntry();
  }

  /** The variant: a name and nothing else. */
  public static final class Variant implements FilterProvider {
    /** Made by {@link java.util.ServiceLoader}. */
    public Variant() {}

    @Override
    public String name() {
      return VARIANT;
    }

    @Override
    public String description() {
      return "a third party's variant, for tests of how providers are found";
    }

    @Override
    public SpecSchema schema() {
      throw new UnsupportedOperationException();
    }

    @Override
    public CuckooFilter create(FilterSpec resolved) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CuckooFilter read(FilterSpec resolved, PayloadInput payload) {
      throw new UnsupportedOperationException();
    }
  }

  /** The hash: FNV-1a. */
  public static final class Hash implements HashStrategyProvider, HashStrategy {
    /** Made by {@link java.util.ServiceLoader}. */
    public Hash() {}

    @Override
    public String name() {
      return HASH;
    }

    @Override
    public HashStrategy create(long seed) {
      return this;
    }

    @Override
    public long hashBytes(byte[] bytes, int offset, int length) {
      long h = 0xcbf29ce484222325L;
      for (int i = offset; i < offset + length; i++) {
        h = (h ^ (bytes[i] & 0xff)) * 0x100000001b3L;
      }
      return h;
    }
  }
}
