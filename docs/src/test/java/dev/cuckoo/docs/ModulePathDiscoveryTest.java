package dev.cuckoo.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cuckoo.CuckooFilters;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every variant and hash found on the class path (this JVM) is also found on the module path,
 * through its module's {@code provides} clause: a child JVM runs {@link ModulePathProbe} with
 * the cuckoo modules and zero-allocation-hashing on {@code --module-path}.
 */
class ModulePathDiscoveryTest {

  @Test
  void everyProviderIsFoundOnTheModulePath() throws IOException, InterruptedException {
    CuckooModulePath path = new CuckooModulePath();
    List<String> command = List.of(CuckooModulePath.java(),
        "--module-path", path.modulePath(),
        "--add-modules", "ALL-MODULE-PATH",
        "-cp", String.join(File.pathSeparator, path.testClasses),
        ModulePathProbe.class.getName());
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe did not finish");
    assertEquals(0, p.exitValue(), "probe failed:\n" + out + "\ncommand: " + command);

    assertTrue(out.contains("api-module=dev.cuckoo\n"), out);
    assertTrue(out.contains("hashes=" + String.join(",", CuckooFilters.hashes()) + "\n"),
        "module path should find the same hashes as the class path " + CuckooFilters.hashes() + ":\n" + out);
    for (String hash : CuckooFilters.hashes()) {
      if (CuckooFilters.hash(hash).getClass().getName().startsWith("dev.cuckoo.hashing.")) {
        assertTrue(out.contains("hash-module " + hash + "=dev.cuckoo.hashing\n"), out);
      }
    }
    assertTrue(out.contains("variants=" + String.join(",", CuckooFilters.variants()) + "\n"),
        "module path should find the same variants as the class path " + CuckooFilters.variants() + ":\n" + out);
    List<String> lines = out.lines().filter(l -> l.startsWith("variant-module ")).collect(Collectors.toList());
    assertEquals(CuckooFilters.variants().size(), lines.size(), out);
    for (String line : lines) {
      assertTrue(line.matches("variant-module [a-z-]+=dev\\.cuckoo\\.[a-z]+ works=true"), line);
    }
  }
}
