package dev.cuckoo.hashing;

import com.google.auto.service.AutoService;
import dev.cuckoo.spi.HashStrategyProvider;

/** Installs hash {@code xxh3}; see {@link ZeroAllocationFunction#XXH3}. */
@AutoService(HashStrategyProvider.class)
public final class Xxh3Provider extends ZeroAllocationProvider {
  /** Called by {@link java.util.ServiceLoader}. */
  public Xxh3Provider() {
    super(ZeroAllocationFunction.XXH3);
  }
}
