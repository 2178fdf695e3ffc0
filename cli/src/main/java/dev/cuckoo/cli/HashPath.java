package dev.cuckoo.cli;

import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.HashStrategy;
import dev.cuckoo.spi.HashStrategyProvider;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import picocli.CommandLine.Option;

/**
 * {@code --hash-path DIR|JAR}: hashes this build of the command does not have, from jars of
 * {@link HashStrategyProvider}s (registered in {@code META-INF/services}, as for any
 * installation), found with {@link ServiceLoader} in a class loader over those jars. A hash
 * installed with the command wins over one of the same name on the hash path.
 *
 * <p>The library's registry of hashes is filled once, from the class path, so hashes found here
 * are not added to it: a filter file is read with the hash given as an instance, and a config
 * that names such a hash gets the instance in its spec.
 */
final class HashPath {
  @Option(names = "--hash-path", paramLabel = "DIR|JAR",
      description = "A jar, or a folder of jars and classes, with hash providers (HashStrategyProvider in "
          + "META-INF/services) for hashes this build does not have; may be given more than once.")
  List<Path> entries = new ArrayList<>();

  private ClassLoader loader;

  /**
   * @param name a hash's name
   * @param seed its seed
   * @return the hash from the hash path, or {@code null} if it is installed (then the library
   *     finds it by name) or the hash path does not have it either
   * @throws CommandError if an entry of the hash path is missing or a provider fails to load
   */
  HashStrategy notInstalled(String name, long seed) {
    if (CuckooFilters.hashes().contains(name) || entries.isEmpty()) {
      return null;
    }
    try {
      for (ServiceLoader.Provider<HashStrategyProvider> p : ServiceLoader.load(HashStrategyProvider.class, loader()).stream().toList()) {
        HashStrategyProvider provider = p.get();
        if (provider.name().equals(name)) {
          return provider.create(seed);
        }
      }
    } catch (ServiceConfigurationError e) {
      throw new CommandError("--hash-path " + entries + ": a hash provider cannot be loaded: " + e.getMessage(), e);
    }
    return null;
  }

  /**
   * @param spec a config a filter is to be created from
   * @return the spec, with the hash it names as an instance from the hash path when only the
   *     hash path has it
   */
  FilterSpec resolve(FilterSpec spec) {
    if (spec.hashInstance().isPresent() || spec.hash().isEmpty()) {
      return spec;
    }
    HashStrategy hash = notInstalled(spec.hash().get(), spec.seed().orElse(0L));
    return hash == null ? spec : spec.toBuilder().hash(hash).build();
  }

  private ClassLoader loader() {
    if (loader == null) {
      List<URL> urls = new ArrayList<>();
      for (Path entry : entries) {
        if (!Files.exists(entry)) {
          throw new CommandError("--hash-path " + entry + ": no such file or folder");
        }
        urls.add(url(entry));
        if (Files.isDirectory(entry)) {
          try (Stream<Path> files = Files.list(entry)) {
            files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().forEach(f -> urls.add(url(f)));
          } catch (IOException e) {
            throw FileAccess.failure(entry, e);
          }
        }
      }
      loader = new URLClassLoader(urls.toArray(URL[]::new), HashPath.class.getClassLoader());
    }
    return loader;
  }

  private static URL url(Path entry) {
    try {
      return entry.toAbsolutePath().toUri().toURL();
    } catch (MalformedURLException e) {
      throw new CommandError("--hash-path " + entry + ": not a usable path: " + e.getMessage(), e);
    }
  }
}
