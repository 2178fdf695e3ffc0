package dev.cuckoo.testkit;

import dev.cuckoo.CuckooFilter;
import dev.cuckoo.CuckooFilters;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A child JVM that creates or reads one heap filter in a heap of a given size, for the promise
 * that a filter whose table is N bytes needs a heap of N + 64 MiB and no more, and that a
 * refusal's figures are true. Actions: {@code make CONFIG FILE} creates the filter, adds a few
 * keys, writes it to the file and prints its {@code sizeInBytes}; {@code create CONFIG} creates
 * it and prints its size; {@code read FILE} reads the file and checks the keys; {@code refused
 * CONFIG} expects the heap check's refusal, prints it, and creates the config the refusal says
 * fits. Every action prints the heap's maximum first ({@code max N}). Exit status 0 is success.
 */
public final class HeapSizeChild {
  /** Keys {@code make} adds and {@code read} checks. */
  static final int KEYS = 1000;

  private HeapSizeChild() {}

  /** What a child printed and how it ended. */
  public record Outcome(int status, String output) {
    /**
     * @param name a figure's name, as the child prints it ({@code max}, {@code size})
     * @return its value
     */
    public long figure(String name) {
      Matcher m = Pattern.compile("(?m)^" + name + " (\\d+)$").matcher(output);
      if (!m.find()) {
        throw new AssertionError("the child printed no " + name + ": " + output);
      }
      return Long.parseLong(m.group(1));
    }
  }

  /**
   * Runs a child JVM on this class path with a heap of {@code heapBytes} and waits for it.
   *
   * @param heapBytes the child's {@code -Xmx}, in bytes
   * @param args the action and its arguments
   * @return its exit status and output
   * @throws IOException if it cannot start
   * @throws InterruptedException if interrupted while waiting
   */
  public static Outcome run(long heapBytes, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + (heapBytes >> 20) + "m");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(HeapSizeChild.class.getName());
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IllegalStateException("child JVM did not finish in 5 minutes: " + command);
    }
    return new Outcome(p.exitValue(), output);
  }

  /**
   * @param args the action and its arguments
   * @throws IOException if the file cannot be written or read
   */
  public static void main(String[] args) throws IOException {
    System.out.println("max " + Runtime.getRuntime().maxMemory());
    switch (args[0]) {
      case "make" -> {
        CuckooFilter f = CuckooFilters.create(args[1]);
        for (int i = 0; i < KEYS; i++) {
          f.add("key-" + i);
        }
        try (OutputStream out = Files.newOutputStream(Path.of(args[2]))) {
          f.writeTo(out);
        }
        System.out.println("size " + f.sizeInBytes());
      }
      case "create" -> System.out.println("size " + CuckooFilters.create(args[1]).sizeInBytes());
      case "read" -> {
        try (InputStream in = Files.newInputStream(Path.of(args[1]))) {
          CuckooFilter f = CuckooFilters.read(in);
          for (int i = 0; i < KEYS; i++) {
            if (!f.mightContain("key-" + i)) {
              System.exit(3);
            }
          }
          System.out.println("size " + f.sizeInBytes());
        }
      }
      case "refused" -> {
        try {
          CuckooFilters.create(args[1]);
          System.exit(4);
        } catch (IllegalArgumentException e) {
          System.out.println("refused " + e.getMessage());
          Matcher m = Pattern.compile("; (\\S+) fits in half the").matcher(e.getMessage());
          if (!m.find()) {
            System.exit(5);
          }
          System.out.println("size " + CuckooFilters.create(m.group(1)).sizeInBytes());
        }
      }
      default -> System.exit(9);
    }
  }
}
