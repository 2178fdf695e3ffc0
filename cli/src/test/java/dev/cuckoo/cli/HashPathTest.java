package dev.cuckoo.cli;

import static dev.cuckoo.cli.CommandRun.cuckoo;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import dev.cuckoo.FilterSpec;
import dev.cuckoo.spi.HashStrategy;
import dev.cuckoo.spi.HashStrategyProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Filters built with a hash the command does not have: {@code info} describes them and names
 * the hash, and {@code --hash-path} gives the command the hash, from a real provider jar
 * compiled here.
 */
class HashPathTest {
  private static final String HASH = "test-fnv";

  /** A hash provider of its own: FNV-1a, 64 bits, the seed mixed into the offset basis. */
  private static final String PROVIDER_SOURCE = """
      package example.hash;

      import dev.cuckoo.spi.HashStrategy;
      import dev.cuckoo.spi.HashStrategyProvider;

      public final class FnvProvider implements HashStrategyProvider {
        public String name() {
          return "test-fnv";
        }

        public HashStrategy create(long seed) {
          return new HashStrategy() {
            public String name() {
              return "test-fnv";
            }

            public long hashBytes(byte[] bytes, int offset, int length) {
              long h = 0xcbf29ce484222325L ^ seed;
              for (int i = offset; i < offset + length; i++) {
                h = (h ^ (bytes[i] & 0xFF)) * 0x100000001b3L;
              }
              return h ^ (h >>> 29) * 0xbf58476d1ce4e5b9L;
            }
          };
        }
      }
      """;

  @TempDir Path dir;
  private Path jar;
  private Path filterFile;

  @BeforeEach
  void buildTheJarAndAFilterWithItsHash() throws Exception {
    Path src = Files.createDirectories(dir.resolve("src/example/hash"));
    Path classes = Files.createDirectories(dir.resolve("classes"));
    Files.writeString(src.resolve("FnvProvider.java"), PROVIDER_SOURCE);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int status = javac.run(null, null, null, "-d", classes.toString(), "-cp", System.getProperty("java.class.path"),
        src.resolve("FnvProvider.java").toString());
    assertEquals(0, status, "javac");
    jar = dir.resolve("fnv-hash.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      try (var files = Files.walk(classes)) {
        for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
          out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
          out.write(Files.readAllBytes(f));
          out.closeEntry();
        }
      }
      out.putNextEntry(new JarEntry("META-INF/services/" + HashStrategyProvider.class.getName()));
      out.write("example.hash.FnvProvider\n".getBytes(UTF_8));
      out.closeEntry();
    }
    assertFalse(CuckooFilters.hashes().contains(HASH), "the hash must not be installed for this test");

    HashStrategy hash;
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, getClass().getClassLoader())) {
      hash = ServiceLoader.load(HashStrategyProvider.class, loader).stream().map(ServiceLoader.Provider::get)
          .filter(p -> p.name().equals(HASH)).findFirst().orElseThrow().create(0);
    }
    CuckooFilter filter = CuckooFilters.create(FilterSpec.builder("classic").capacity(1000).hash(hash).build());
    for (int i = 0; i < 500; i++) {
      filter.add("key-" + i);
    }
    filterFile = dir.resolve("custom.cuckoo");
    try (OutputStream out = Files.newOutputStream(filterFile)) {
      filter.writeTo(out);
    }
  }

  @Test
  void infoWithoutTheHashDescribesTheFileAndNamesTheHash() {
    CommandRun run = cuckoo("info", filterFile.toString()).ok();
    assertFalse(run.out().contains("not a valid filter file"), run.out());
    assertTrue(run.out().contains("\nvariant       classic ("), run.out());
    assertTrue(run.out().matches("(?s).*\nspec          classic\\?capacity=1000&[^\n]*hash=" + HASH + "[^\n]*\n.*"), run.out());
    assertTrue(run.out().contains("\ncapacity      1,000 items\n"), run.out());
    assertTrue(run.out().contains("\nhash          " + HASH + " is not installed here: items, load and FPP are"
        + " unknown without it; give its jar or folder with --hash-path\n"), run.out());

    String json = cuckoo("info", "--json", filterFile.toString()).ok().out();
    assertTrue(json.contains("\"missingHash\": \"" + HASH + "\"") && json.contains("\"variant\": \"classic\""), json);

    String query = cuckoo("query", filterFile.toString(), "key-1").error();
    assertTrue(query.contains("hash " + HASH + " is not installed") && query.contains("--hash-path"), query);
  }

  @Test
  void withTheHashPathQueryAndInfoReadTheFilter() throws IOException {
    assertEquals(List.of("key-1\tyes", "key-499\tyes"),
        cuckoo("query", "--hash-path", jar.toString(), filterFile.toString(), "key-1", "key-499").ok().outLines());
    String info = cuckoo("info", "--hash-path", jar.toString(), filterFile.toString()).ok().out();
    assertTrue(info.contains("\nitems         500\n"), info);

    // A folder holding the jar does as well, and build takes the hash by name.
    Path folder = Files.createDirectories(dir.resolve("hashes"));
    Files.copy(jar, folder.resolve("fnv-hash.jar"));
    Path keys = Files.writeString(dir.resolve("keys.txt"), "alpha\nbeta\n");
    Path built = dir.resolve("built.cuckoo");
    cuckoo("build", "--hash-path", folder.toString(), "-c", "classic?capacity=100&hash=" + HASH, "-i", keys.toString(),
        "-o", built.toString(), "-q").ok();
    assertEquals(List.of("alpha\tyes"), cuckoo("query", "--hash-path", folder.toString(), built.toString(), "alpha").ok().outLines());

    assertEquals("cuckoo: --hash-path " + dir.resolve("nowhere") + ": no such file or folder",
        cuckoo("query", "--hash-path", dir.resolve("nowhere").toString(), filterFile.toString(), "x").error());
  }
}
