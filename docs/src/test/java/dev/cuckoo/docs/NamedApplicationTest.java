package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilters;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's application as a named module: {@code src/test/named-app} ({@code module app {
 * requires dev.cuckoo; }}) is compiled against the library's modules and run with {@code java -p
 * ... -m app/app.Main}, nothing else on the command line. Every variant with its default hash and
 * every hash must work there: a module the library needs at run time (such as {@code
 * jdk.unsupported}, which zero-allocation-hashing uses) must be required by the library's own
 * module descriptors, not by an {@code --add-modules} the user has to know about.
 */
class NamedApplicationTest {

  @Test
  void anApplicationModuleUsesEveryVariantAndHash(@TempDir Path out) throws IOException, InterruptedException {
    Path sources = Paths.get(System.getProperty("basedir", "."), "src", "test", "named-app");
    List<String> files;
    try (Stream<Path> walk = Files.walk(sources)) {
      files = walk.filter(p -> p.toString().endsWith(".java")).map(Path::toString).collect(Collectors.toList());
    }
    CuckooModulePath path = new CuckooModulePath();
    List<String> javac = new ArrayList<>(List.of("-p", path.modulePath(), "-d", out.toString()));
    javac.addAll(files);
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int compiled = ToolProvider.getSystemJavaCompiler().run(null, errors, errors, javac.toArray(new String[0]));
    assertEquals(0, compiled, "javac " + javac + ":\n" + errors.toString(StandardCharsets.UTF_8));

    List<String> command = List.of(CuckooModulePath.java(),
        "-p", path.modulePath() + java.io.File.pathSeparator + out,
        "-m", "app/app.Main");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the application did not finish");
    assertEquals(0, p.exitValue(), "the application failed:\n" + output + "\ncommand: " + command);
    assertTrue(output.contains("module=app\n"), output);
    assertTrue(output.contains("variants=" + String.join(",", CuckooFilters.variants()) + "\n"), output);
    // This JVM also sees the hashes the guide's examples register; the application sees the
    // library's.
    String libraryHashes = CuckooFilters.hashes().stream()
        .filter(h -> CuckooFilters.hash(h).getClass().getName().startsWith("dev.cuckoo.hashing."))
        .collect(Collectors.joining(","));
    assertTrue(output.contains("hashes=" + libraryHashes + "\n"), output);
  }
}
