package dev.cuckoo.hashing;

import com.google.auto.service.AutoService;
import dev.cuckoo.spi.HashStrategy;
import dev.cuckoo.spi.HashStrategyProvider;

/** Installs hash {@code murmur64a}: MurmurHash64A, RedisBloom's item hash (with seed 0). */
@AutoService(HashStrategyProvider.class)
public final class Murmur64aProvider implements HashStrategyProvider {
  /** Called by {@link java.util.ServiceLoader}. */
  public Murmur64aProvider() {}

  @Override
  public String name() {
    return MurmurHash64A.NAME;
  }

  @Override
  public String description() {
    return "MurmurHash64A, as RedisBloom's cuckoo filter uses it (seed 0)";
  }

  @Override
  public HashStrategy create(long seed) {
    return new MurmurHash64A(seed);
  }
}
