package dev.cuckoo.benchmarks;

import dev.cuckoo.CuckooFilters;
import java.util.ArrayList;
import java.util.List;

/**
 * Every contender the harness knows: the representative configs of each installed variant
 * (found by ServiceLoader, so a new variant module shows up without touching the harness) and
 * the peer libraries.
 */
public final class Contenders {
  /** False-positive probabilities of 8-, 12- and 16-bit cuckoo fingerprints in buckets of 4. */
  static final double[] BLOOM_FPPS = {0.03, 0.002, 0.0001};

  private Contenders() {}

  /** @return a contender for one of our configs (without capacity) */
  public static Contender ours(String config) {
    CuckooFilters.create(config + (config.contains("?") ? "&" : "?") + "capacity=1000"); // fail fast on a bad config
    return new Contender(config, "cuckoo", keys -> new CuckooAdapter(config, keys));
  }

  /** @return the representative configs of every installed variant */
  public static List<Contender> installed() {
    List<Contender> all = new ArrayList<>();
    for (String variant : CuckooFilters.variants()) {
      for (String config : CuckooFilters.variant(variant).representativeConfigs()) {
        all.add(ours(config));
      }
    }
    return all;
  }

  /** @return the peer libraries: FastFilter's four cuckoo filters, CuckooFilter4J, Guava's Bloom filter */
  public static List<Contender> peers() {
    List<Contender> all = new ArrayList<>();
    for (String type : new String[] {"Cuckoo8", "Cuckoo16", "CuckooPlus8", "CuckooPlus16"}) {
      all.add(new Contender("fastfilter/" + type, "peer-cuckoo", keys -> new PeerAdapters.FastFilterCuckoo(type, keys)));
    }
    all.add(new Contender("cuckoofilter4j?fpp=0.002", "peer-cuckoo", keys -> new PeerAdapters.CuckooFilter4J(0.002, keys)));
    for (double fpp : BLOOM_FPPS) {
      all.add(new Contender("guava-bloom?fpp=" + fpp, "peer-bloom", keys -> new PeerAdapters.GuavaBloom(fpp, keys)));
    }
    return all;
  }

  /**
   * Finds a contender by name: one of the peers' names, or any of our config strings.
   *
   * @param name the name
   * @return the contender
   * @throws IllegalArgumentException if it is neither
   */
  public static Contender named(String name) {
    for (Contender c : peers()) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    return ours(name);
  }

  /** @return the names of every installed contender, ours then peers */
  public static List<String> allNames() {
    List<String> names = new ArrayList<>();
    installed().forEach(c -> names.add(c.name()));
    peers().forEach(c -> names.add(c.name()));
    return names;
  }
}
