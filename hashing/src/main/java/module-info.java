/**
 * Hash strategies for cuckoo filters, installed by name: {@code xxh3}, {@code xxh64}, {@code
 * murmur3}, {@code wyhash}, {@code metro}, {@code city}, {@code farm} (from OpenHFT
 * zero-allocation-hashing) and {@code murmur64a} (MurmurHash64A, as RedisBloom uses it). Nothing
 * is exported: use {@code CuckooFilters.hash(name)} or a config string's {@code hash=} key.
 */
module dev.cuckoo.hashing {
  requires transitive dev.cuckoo;
  // zero-allocation-hashing has no stable module name yet: only this module reads it, and it
  // is not re-exported, so its name can change without touching anyone else.
  requires zero.allocation.hashing;
  // zero-allocation-hashing reads memory through sun.misc.Unsafe, which lives in jdk.unsupported.
  // As an automatic module it reads every module in the graph, but it cannot add one: an
  // application launched with -m resolves jdk.unsupported only if a named module requires it.
  requires jdk.unsupported;
  requires static com.google.auto.service;

  provides dev.cuckoo.spi.HashStrategyProvider with
      dev.cuckoo.hashing.Xxh3Provider,
      dev.cuckoo.hashing.Xxh64Provider,
      dev.cuckoo.hashing.Murmur3Provider,
      dev.cuckoo.hashing.WyHashProvider,
      dev.cuckoo.hashing.MetroProvider,
      dev.cuckoo.hashing.CityProvider,
      dev.cuckoo.hashing.FarmProvider,
      dev.cuckoo.hashing.Murmur64aProvider;
}
