package dev.cuckoo.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link ContenderBenchmark} for every installed variant's representative configs and every
 * peer, skipping what a contender cannot do (byte keys for FastFilter; removal from FastFilter
 * and Bloom filters), and writes one JMH JSON file per contender.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.cuckoo.benchmarks.RunBenchmarks \
 *     --sizes 1M,10M --keys long,bytes --out results/jmh
 * }</pre>
 */
public final class RunBenchmarks {
  static final String USAGE = """
      usage: RunBenchmarks [options]
        --sizes A,B       filter sizes in keys (default 1M,10M; 100M needs ~16 GB)
        --keys A,B        long and/or bytes (default long,bytes)
        --ops A,B         insert,positiveLookup,negativeLookup,mixed,remove (default all)
        --only REGEX      contenders whose name matches
        --peers on|off    include the peer libraries (default on)
        --quick           1 warm-up and 3 measured iterations of 1 s (default 3 and 5 of 2 s)
        --out DIR         where the JSON results go (default jmh-results)""";

  private RunBenchmarks() {}

  /**
   * @param args see {@link #USAGE}
   */
  public static void main(String[] args) throws RunnerException, IOException {
    List<String> sizes = List.of("1000000", "10000000");
    List<String> keys = List.of("long", "bytes");
    List<String> ops = List.of("insert", "positiveLookup", "negativeLookup", "mixed", "remove");
    Pattern only = null;
    boolean peers = true;
    boolean quick = false;
    Path out = Paths.get("jmh-results");
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--quick")) {
        quick = true;
        continue;
      }
      if (a.equals("--help") || i + 1 >= args.length) {
        System.err.println(a.equals("--help") ? USAGE : "RunBenchmarks: " + a + " needs a value\n" + USAGE);
        System.exit(a.equals("--help") ? 0 : 2);
      }
      String v = args[++i];
      switch (a) {
        case "--sizes" -> sizes = Arrays.stream(v.split(",")).map(s -> Integer.toString(Compare.Options.parseSize(s))).toList();
        case "--keys" -> keys = List.of(v.split(","));
        case "--ops" -> ops = List.of(v.split(","));
        case "--only" -> only = Pattern.compile(v);
        case "--peers" -> peers = v.equals("on");
        case "--out" -> out = Paths.get(v);
        default -> {
          System.err.println("RunBenchmarks: unknown option " + a + "\n" + USAGE);
          System.exit(2);
        }
      }
    }
    List<Contender> contenders = new ArrayList<>(Contenders.installed());
    if (peers) {
      contenders.addAll(Contenders.peers());
    }
    Files.createDirectories(out);
    int n = 0;
    for (Contender c : contenders) {
      if (only != null && !only.matcher(c.name()).find()) {
        continue;
      }
      FilterAdapter probe = c.create(1_000);
      List<String> myKeys = new ArrayList<>(keys);
      if (!probe.supportsBytes()) {
        myKeys.remove("bytes");
      }
      List<String> myOps = new ArrayList<>(ops);
      if (!probe.supportsRemove()) {
        myOps.remove("remove");
      }
      if (myKeys.isEmpty() || myOps.isEmpty()) {
        continue;
      }
      ChainedOptionsBuilder b = new OptionsBuilder()
          .include(ContenderBenchmark.class.getName() + "\\.(" + String.join("|", myOps) + ")$")
          .param("contender", c.name())
          .param("size", sizes.toArray(new String[0]))
          .param("keys", myKeys.toArray(new String[0]))
          .resultFormat(ResultFormatType.JSON)
          .result(out.resolve(String.format("%02d-%s.json", ++n, c.name().replaceAll("[^A-Za-z0-9.=-]+", "_"))).toString());
      if (quick) {
        b.warmupIterations(1).warmupTime(TimeValue.seconds(1)).measurementIterations(3).measurementTime(TimeValue.seconds(1));
      }
      new Runner(b.build()).run();
    }
  }
}
