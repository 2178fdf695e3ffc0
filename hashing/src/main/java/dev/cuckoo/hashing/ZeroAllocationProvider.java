package dev.cuckoo.hashing;

import dev.cuckoo.spi.HashStrategy;
import dev.cuckoo.spi.HashStrategyProvider;

/** Installs one zero-allocation-hashing function under its name. */
abstract class ZeroAllocationProvider implements HashStrategyProvider {
  private final ZeroAllocationFunction kind;

  ZeroAllocationProvider(ZeroAllocationFunction kind) {
    this.kind = kind;
  }

  @Override
  public String name() {
    return kind.hashName;
  }

  @Override
  public String description() {
    return kind.description + " (zero-allocation-hashing)";
  }

  @Override
  public HashStrategy create(long seed) {
    return ZeroAllocationHash.create(kind, seed);
  }
}
