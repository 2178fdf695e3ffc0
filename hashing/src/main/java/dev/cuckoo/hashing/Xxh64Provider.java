package dev.cuckoo.hashing;

import com.google.auto.service.AutoService;
import dev.cuckoo.spi.HashStrategyProvider;

/** Installs hash {@code xxh64}; see {@link ZeroAllocationFunction#XXH64}. */
@AutoService(HashStrategyProvider.class)
public final class Xxh64Provider extends ZeroAllocationProvider {
  /** Called by {@link java.util.ServiceLoader}. */
  public Xxh64Provider() {
    super(ZeroAllocationFunction.XXH64);
  }
}
