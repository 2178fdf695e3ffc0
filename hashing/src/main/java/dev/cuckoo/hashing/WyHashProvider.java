package dev.cuckoo.hashing;

import com.google.auto.service.AutoService;
import dev.cuckoo.spi.HashStrategyProvider;

/** Installs hash {@code wyhash}; see {@link ZeroAllocationFunction#WYHASH}. */
@AutoService(HashStrategyProvider.class)
public final class WyHashProvider extends ZeroAllocationProvider {
  /** Called by {@link java.util.ServiceLoader}. */
  public WyHashProvider() {
    super(ZeroAllocationFunction.WYHASH);
  }
}
